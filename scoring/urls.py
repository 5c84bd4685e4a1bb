from django.urls import path

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
]
