from django.urls import path

from clubs import urls as club_urls  # noqa: F401  (registers the export converter)
from scoring import views

app_name = "scoring"

urlpatterns = [
    path("clubs/<slug:slug>/ladder/", views.ladder, name="current_ladder"),
    path("clubs/<slug:slug>/seasons/<int:season_id>/ladder/", views.ladder, name="ladder"),
    path("clubs/<slug:slug>/players/<int:player_id>/", views.player_page, name="player"),
    path("clubs/<slug:slug>/ladder.pdf", views.ladder_pdf, name="current_ladder_pdf"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/ladder.pdf",
        views.ladder_pdf,
        name="ladder_pdf",
    ),
    # Downloads (clubs.exports): the ladder, every deal of the season, a player's season.
    path(
        "clubs/<slug:slug>/ladder.<export:fmt>", views.ladder_export, name="current_ladder_export"
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/ladder.<export:fmt>",
        views.ladder_export,
        name="ladder_export",
    ),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/deals.<export:fmt>",
        views.season_deals_export,
        name="deals_export",
    ),
    path(
        "clubs/<slug:slug>/players/<int:player_id>/history.<export:fmt>",
        views.player_export,
        name="player_export",
    ),
]
