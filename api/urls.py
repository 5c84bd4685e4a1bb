from django.urls import path, re_path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView
from rest_framework.routers import SimpleRouter

from api.ladders import ladder_list, player_history_list, season_deals_list
from api.statistics import club_statistics, season_statistics
from api.views.base import not_found
from api.views.clubs import ClubViewSet
from api.views.matches import DealViewSet, MatchViewSet
from api.views.nights import NightViewSet
from api.views.players import PlayerViewSet
from api.views.seasons import SeasonViewSet
from api.views.sessions import SessionViewSet, TableViewSet
from api.views.tables import TableEntryViewSet
from api.views.webhooks import EventViewSet, WebhookViewSet
from clubs.exports import exporters

app_name = "api"

router = SimpleRouter()
router.register("clubs", ClubViewSet, basename="club")
router.register("players", PlayerViewSet, basename="player")
router.register("seasons", SeasonViewSet, basename="season")
router.register("sessions", SessionViewSet, basename="session")
router.register("tables", TableViewSet, basename="table")
router.register("matches", MatchViewSet, basename="match")
router.register("nights", NightViewSet, basename="night")
router.register("table-entries", TableEntryViewSet, basename="table-entry")
router.register("events", EventViewSet, basename="event")
router.register("webhooks", WebhookViewSet, basename="webhook")

deal_list = DealViewSet.as_view({"get": "list", "post": "create"})
deal_detail = DealViewSet.as_view(
    {"get": "retrieve", "put": "update", "patch": "partial_update", "delete": "destroy"}
)


def _downloads() -> list:
    """Each download (``api.exports``) also at an address of its own for each format that
    writes it (``clubs.exports.EXPORTERS``), ``.csv``, ``.xlsx``... (``/seasons/{season_id}/
    ladder.xlsx``): the same view, its format fixed. The schema lists them as operations of their
    own whose answer is the file (``api.schema_client``), so that a generated client gets its
    bytes; ``?format=`` and Accept on the lists still work."""
    deals = DealViewSet.as_view({"get": "list"})
    session_results = SessionViewSet.as_view({"get": "results"}, basename="session", detail=True)
    night_results = NightViewSet.as_view({"get": "results"}, basename="night", detail=True)
    routes = [  # each with its kind of download (clubs.exports.Download)
        ("seasons/<int:season_id>/ladder", ladder_list, "season-ladder", "ladder"),
        ("seasons/<int:season_id>/deals", season_deals_list, "season-deals", "season"),
        (
            "seasons/<int:season_id>/players/<int:player_id>/history",
            player_history_list,
            "season-player-history",
            "history",
        ),
        ("matches/<int:match_id>/deals", deals, "match-deals", "match"),
        ("sessions/<str:pk>/results", session_results, "session-results", "session"),
        ("nights/<str:pk>/results", night_results, "night-results", "night"),
    ]
    return [
        path(
            f"{route}.{exporter.extension}",
            view,
            {"format": exporter.key},
            name=f"{name}-{exporter.key}",
        )
        for route, view, name, kind in routes
        for exporter in exporters(kind)
    ]


urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    *_downloads(),
    # The split view serves its script as a file of its own, so the CSP needs no inline script.
    path("docs/", SpectacularSwaggerSplitView.as_view(url_name="api:schema"), name="docs"),
    path("matches/<int:match_id>/deals/", deal_list, name="match-deals"),
    path("matches/<int:match_id>/deals/<int:sequence>/", deal_detail, name="match-deal"),
    path("seasons/<int:season_id>/ladder/", ladder_list, name="season-ladder"),
    path("seasons/<int:season_id>/deals/", season_deals_list, name="season-deals"),
    path(
        "seasons/<int:season_id>/players/<int:player_id>/history/",
        player_history_list,
        name="season-player-history",
    ),
    path(
        "seasons/<int:season_id>/players/<int:player_id>/statistics/",
        season_statistics,
        name="season-player-statistics",
    ),
    path(
        "clubs/<int:club_id>/players/<int:player_id>/statistics/",
        club_statistics,
        name="club-player-statistics",
    ),
    *router.urls,
    re_path(r"^[\s\S]*$", not_found, name="not-found"),  # any path, newlines included
]
