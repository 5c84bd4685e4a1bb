"""Season ladders in the API (issue 6): the stored ladder of a season and a player's season
history. Both read at the public level (``api.access``): anonymous clients read public clubs'
ladders, members and API keys their own clubs'; any other season is a 404. Reading a ladder
never computes it: the rows are those of the season's latest recalculation
(``scoring.services``), and ``computed_at`` says when it last changed (null: never yet; a
recalculation that finds it as it was leaves it, issue 28).

    GET /api/v1/seasons/{id}/ladder/[?min_matches=N]
    GET /api/v1/seasons/{id}/players/{player_id}/history/
"""

from typing import Any, cast

import django_filters
from django import forms
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_view,
)
from rest_framework import mixins, serializers, viewsets
from rest_framework.response import Response

from api import access
from api.cache import cached_read, club_of, path_owner
from api.exports import ExportsMixin, exportable
from api.filters import UpdatedSinceFilter
from api.ids import whole_id
from api.pagination import PageNumberPagination
from api.permissions import ClubPermission
from api.polling import Polled
from api.serializers.common import PlayerRefSerializer
from api.views.base import checked_id
from clubs import selectors as club_selectors
from clubs.exports import Export
from clubs.models import Membership, Player, Season
from matches import selectors as match_selectors
from scoring import selectors
from scoring.models import Standing

# --- Serializers ----------------------------------------------------------------------------


class StandingSerializer(serializers.ModelSerializer):
    player = PlayerRefSerializer(help_text=_("The player on this line."))

    class Meta:
        model = Standing
        fields = [*(column.field for column in selectors.LADDER_COLUMNS), "updated_at"]
        read_only_fields = fields
        extra_kwargs = {
            "rank": {
                "help_text": _(
                    "Shared by players equal on what orders the ladder (league points, par "
                    "IMPs or handicapped net when it is ranked by them, net points, matches)."
                )
            },
            "matches": {"help_text": _("Matches played.")},
            "counted": {
                "help_text": _(
                    "Matches that count: all of them, or the player's best ones when the club "
                    "counts only each player's best N (`ladder_best_matches`). Wins, draws, "
                    "losses, points, net points, average, best and worst are of these."
                )
            },
            "points": {
                "help_text": _(
                    "League points: wins, draws and losses times the club's points for each "
                    "(`ladder_points_win`, `_draw`, `_loss`). They order the ladder when the "
                    "club's `ladder_ranking` is `points`."
                )
            },
            "position": {"help_text": _("Place in the ladder's order, 1 to the number of rows.")},
            "net_points": {"help_text": _("Own side's total minus the other side's, summed.")},
            "imps": {
                "help_text": _(
                    "Par IMPs: what the player's sides won against par over the counted matches "
                    "(a match without a par reading adds 0); null when none of them was read. "
                    "They order the ladder when the club's `ladder_ranking` is `par`."
                )
            },
            "handicapped": {
                "help_text": _(
                    "Net points less the player's handicap per match over the counted matches, "
                    "each handicap from the rating the ladder gave them when that day's play "
                    "began; null unless the club's `ladder_ranking` is `handicap`, which it "
                    "orders."
                )
            },
            "average": {"help_text": _("Net points per counted match, to two decimals.")},
            "best": {"help_text": _("The best match's net points.")},
            "worst": {"help_text": _("The worst match's net points.")},
            "rating": {"help_text": _("Elo-style rating at the end of the season's matches.")},
            "updated_at": {
                "help_text": _(
                    "When this line last changed (a recalculation that finds it as it was keeps "
                    "it)."
                )
            },
            "qualified": {
                "help_text": _(
                    "Played at least the club's qualification minimum; players who did not "
                    "come after all who did."
                )
            },
        }


class HistoryEntrySerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    date = serializers.DateField(source="played_on")
    kind = serializers.CharField()
    side = serializers.ChoiceField(choices=["NS", "EW"])
    partner = PlayerRefSerializer(
        allow_null=True, help_text=_("Null at a table of two (one player a side).")
    )
    opponents = PlayerRefSerializer(many=True)
    points_for = serializers.IntegerField(source="total_for")
    points_against = serializers.IntegerField(source="total_against")
    net_points = serializers.IntegerField(
        help_text=_("As the ladder counts it: rounded when the club rounds each match's net.")
    )
    result = serializers.ChoiceField(choices=["win", "draw", "loss"])
    finished_early = serializers.BooleanField(
        help_text=_("An unfinished rubber scored by the Laws.")
    )
    counted = serializers.BooleanField(
        help_text=_(
            "Whether the ladder counts this match: false when the club counts only each "
            "player's best matches and this is not one of them."
        )
    )
    imps = serializers.IntegerField(
        allow_null=True,
        help_text=_("The player's side's par IMPs of the match; null without a par reading."),
    )


# --- Filter and pagination ------------------------------------------------------------------


@extend_schema_field({"type": "integer", "minimum": 0, "maximum": 2**31 - 1})
class WholeNumberFilter(django_filters.Filter):
    field_class = forms.IntegerField


class LadderFilter(django_filters.FilterSet):
    min_matches = WholeNumberFilter(
        field_name="matches",
        lookup_expr="gte",
        min_value=0,
        max_value=2**31 - 1,
        help_text=_("Only players with at least this many matches."),
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Standing
        fields = ["min_matches", "updated_since"]


class _SeasonPage(PageNumberPagination):
    """A page of results, with the season's fields (``extra``) before them."""

    extra: dict[str, Any]  # set by the view before it pages

    def get_paginated_response(self, data):
        page = super().get_paginated_response(data).data
        return Response({**self.extra, **page})

    def extra_schema(self) -> dict:
        raise NotImplementedError

    def get_paginated_response_schema(self, schema):
        paged = super().get_paginated_response_schema(schema)
        paged["properties"] = {**self.extra_schema(), **paged["properties"]}
        paged["required"] = [*self.extra_schema(), *paged.get("required", [])]
        return paged


class LadderPage(_SeasonPage):
    def extra_schema(self) -> dict:
        return {
            "season": {"type": "integer", "example": 12},
            "computed_at": {
                "type": "string",
                "format": "date-time",
                "nullable": True,
                "description": _(
                    "When the ladder last changed (a recalculation that finds it as it was "
                    "keeps it); null if never computed yet."
                ),
            },
        }


class HistoryPage(_SeasonPage):
    def extra_schema(self) -> dict:
        return {
            "season": {"type": "integer", "example": 12},
            "player": {
                "type": "object",
                "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            },
        }


# --- Views ----------------------------------------------------------------------------------

SEASON_ID = OpenApiParameter(
    "season_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The season's id.")
)
PLAYER_ID = OpenApiParameter(
    "player_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The player's id.")
)


class _SeasonReadView(Polled, mixins.ListModelMixin, viewsets.GenericViewSet):
    """A read-only list about one season the client may read at the public level."""

    permission_classes = [ClubPermission]
    public_read = True
    http_method_names = ["get", "head"]

    @cached_property
    def season(self) -> Season:
        season_id = checked_id(self.kwargs["season_id"])
        return get_object_or_404(
            club_selectors.seasons_of(clubs=access.readable_clubs(self.request)), pk=season_id
        )


@extend_schema(
    summary=_("A season's ladder"),
    description=_(
        "The stored ladder, in order: league points or par IMPs when the club ranks by "
        "them (`ladder_ranking`), then net points, then average, then fewer matches, then name; "
        "players below the club's qualification minimum after the qualified. When the club "
        "counts only each player's best matches (`ladder_best_matches`), the figures are "
        "those of the counted matches. Reading never "
        "computes it: it is recalculated after every change to the season's matches and "
        "in full every night. `computed_at` is when it last changed."
    ),
    parameters=[SEASON_ID],
)
class LadderViewSet(ExportsMixin, _SeasonReadView):
    serializer_class = StandingSerializer
    filterset_class = LadderFilter
    pagination_class = LadderPage

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Standing.objects.none()
        return selectors.ladder_rows(season_id=self.season.pk)

    @exportable(
        "ladder",
        lambda view, request, **kwargs: view.season,
        lambda view, request, season: selectors.ladder_export(
            season=season, rows=view.filter_queryset(view.get_queryset())
        ),
    )
    @cached_read(path_owner("season", "season_id"), depends=("ladder",))
    def list(self, request, *args, **kwargs):
        run = selectors.latest_run(season_id=self.season.pk)
        cast(_SeasonPage, self.paginator).extra = {
            "season": self.season.pk,
            "computed_at": (
                serializers.DateTimeField().to_representation(run.finished_at)
                if run and run.finished_at
                else None
            ),
        }
        return super().list(request, *args, **kwargs)


def _history_player(view, request, **kwargs) -> Player:
    view.filter_queryset([])  # refuses a query parameter it does not know
    return view.player


def _history_export(view, request, player: Player) -> Export:
    return selectors.player_history_export(season=view.season, player=player)


@extend_schema(
    summary=_("A player's season history"),
    description=_(
        "Each counted match the player played in the season, in playing order: date, "
        "partner (null at a table of two), opponents, points and the net points the ladder "
        "counted."
    ),
    parameters=[SEASON_ID, PLAYER_ID],
)
class PlayerHistoryViewSet(ExportsMixin, _SeasonReadView):
    serializer_class = HistoryEntrySerializer
    pagination_class = HistoryPage

    @cached_property
    def player(self) -> Player:
        player = get_object_or_404(Player, pk=checked_id(self.kwargs["player_id"]))
        in_season = Standing.objects.filter(season=self.season, player=player).exists()
        if (
            not in_season
            and not Membership.objects.filter(club_id=self.season.club_id, player=player).exists()
        ):
            raise Http404  # not a player of this club
        return player

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Standing.objects.none()
        return selectors.player_season_history(season_id=self.season.pk, player_id=self.player.pk)

    @exportable("history", _history_player, _history_export)
    @cached_read(path_owner("season", "season_id"), depends=("matches", "ladder"))
    def list(self, request, *args, **kwargs):
        cast(_SeasonPage, self.paginator).extra = {
            "season": self.season.pk,
            "player": {"id": self.player.pk, "name": self.player.name},
        }
        return super().list(request, *args, **kwargs)


def _season(view, request, **kwargs) -> Season:
    view.filter_queryset([])  # refuses a query parameter it does not know
    return view.season


def _season_deals(view, request, season: Season) -> Export:
    return match_selectors.season_deals_export(season=season)


@extend_schema_view(
    list=extend_schema(
        summary=_("Every deal of a season, as a file"),
        description=_(
            "One line a deal in playing order: date, table, kind, the players North, East, South "
            "and West, contract, declarer, tricks (the format the season's import reads), then the "
            "match, the deal's place in it, the dealer and each side's points on it. The whole "
            "season, streamed; headers in the request's language."
        ),
        parameters=[SEASON_ID],
        responses={200: OpenApiTypes.STR},
        operation_id="seasons_deals_list",
    ),
)
class SeasonDealsViewSet(ExportsMixin, _SeasonReadView):
    export_only = True
    pagination_class = None

    def poll_scopes(self, request):
        season_id = whole_id(self.kwargs.get("season_id"))
        club_id = None if season_id is None else club_of("season", season_id)
        if club_id is None:
            return []  # no such season: the view answers a 404
        return [("club", club_id), ("season-matches", season_id)]

    @exportable("season", _season, _season_deals)
    def list(self, request, *args, **kwargs):  # negotiation leaves only the file formats
        raise AssertionError("unreachable")


ladder_list = LadderViewSet.as_view({"get": "list"})
player_history_list = PlayerHistoryViewSet.as_view({"get": "list"})
season_deals_list = SeasonDealsViewSet.as_view({"get": "list"})
