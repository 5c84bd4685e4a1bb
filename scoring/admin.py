"""Read-only admin for standings: they are computed, never edited by hand (run
``manage.py recalculate_standings`` or change a match to recompute them). Scoped like the
clubs' admin: a staff user who is not a superuser sees only the clubs they direct."""

from typing import TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest

from clubs.admin import ClubListFilter, ClubScopedAdmin

from .models import Standing, StandingsRun

_ModelT = TypeVar("_ModelT", bound=Model)


class ReadOnlyAdmin(ClubScopedAdmin[_ModelT]):
    club_lookup = "season__club"

    def has_add_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return False


@admin.register(StandingsRun)
class StandingsRunAdmin(ReadOnlyAdmin[StandingsRun]):
    list_display = [
        "season",
        "status",
        "trigger",
        "started_at",
        "finished_at",
        "matches_counted",
        "players_ranked",
    ]
    list_filter = ["status", "trigger", ("season__club", ClubListFilter)]
    list_select_related = ["season__club"]
    date_hierarchy = "started_at"
    search_fields = ["season__name", "season__club__name"]


@admin.register(Standing)
class StandingAdmin(ReadOnlyAdmin[Standing]):
    list_display = [
        "rank",
        "player",
        "season",
        "qualified",
        "matches",
        "counted",
        "wins",
        "draws",
        "losses",
        "points",
        "net_points",
        "average",
        "best",
        "worst",
        "rating",
    ]
    list_display_links = ["player"]
    list_filter = [
        "qualified",
        ("season__club", ClubListFilter),
        ("season", admin.RelatedOnlyFieldListFilter),
    ]
    list_select_related = ["player", "season__club"]
    search_fields = ["player__name", "season__name"]
    ordering = ["season", "position"]
