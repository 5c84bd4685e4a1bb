"""A player's statistics in the API (issue 19): in one season, or in all of a club's seasons.
Both read at the public level, as the season history (``api.ladders``): anonymous clients read
public clubs' players' statistics, members and API keys their own clubs'; any other season or
club, or a player who is neither a member of the club nor on the season's ladder, is a 404.
What the figures are is ``scoring.statistics``'s docstring; the selectors compute them from the
stored deals (and keep them in the read cache).

    GET /api/v1/seasons/{season_id}/players/{player_id}/statistics/
    GET /api/v1/clubs/{club_id}/players/{player_id}/statistics/
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_field
from rest_framework import serializers, viewsets
from rest_framework.response import Response

from api import access
from api.cache import cached_read, path_owner
from api.permissions import ClubPermission
from api.polling import Polled
from api.serializers.common import PlayerRefSerializer
from api.views.base import checked_id
from clubs import selectors as club_selectors
from clubs.models import Club, Membership, Player, Season
from matches.models import KindChoice, StrainChoice
from scoring import selectors
from scoring.models import Standing
from scoring.statistics import PlayerStatistics

# --- Serializers ----------------------------------------------------------------------------


class StatsRecordSerializer(serializers.Serializer):
    matches = serializers.IntegerField(min_value=0, source="record.matches")
    wins = serializers.IntegerField(min_value=0, source="record.wins")
    draws = serializers.IntegerField(min_value=0, source="record.draws")
    losses = serializers.IntegerField(min_value=0, source="record.losses")
    net_points = serializers.IntegerField(
        source="record.net_points",
        help_text=_(
            "The player's side's total minus the other side's, summed over the matches "
            "(rounded as the ladder rounds each match when the club rounds)."
        ),
    )


class StatsTotalSerializer(StatsRecordSerializer):
    """The record of every counted match."""


class StatsKindRecordSerializer(StatsRecordSerializer):
    kind = serializers.ChoiceField(
        choices=KindChoice.choices, help_text=_("Chicago, rubber, or a table of two's Draw Bridge.")
    )


class StatsTallySerializer(serializers.Serializer):
    declared = serializers.IntegerField(min_value=0, source="tally.declared")
    made = serializers.IntegerField(
        min_value=0,
        source="tally.made",
        help_text=_("Declarer's side took at least the level plus six tricks."),
    )
    down = serializers.IntegerField(min_value=0, source="tally.down")


class StatsPlainTallySerializer(serializers.Serializer):
    declared = serializers.IntegerField(min_value=0)
    made = serializers.IntegerField(min_value=0)
    down = serializers.IntegerField(min_value=0)


class StatsLevelTallySerializer(StatsTallySerializer):
    level = serializers.IntegerField(min_value=1, max_value=7)


class StatsStrainTallySerializer(StatsTallySerializer):
    strain = serializers.ChoiceField(choices=StrainChoice.choices)


class StatsContractTallySerializer(StatsTallySerializer):
    level = serializers.IntegerField(min_value=1, max_value=7)
    strain = serializers.ChoiceField(choices=StrainChoice.choices)


class StatsContractsSerializer(serializers.Serializer):
    declared = serializers.IntegerField(min_value=0, source="total.declared")
    made = serializers.IntegerField(min_value=0, source="total.made")
    down = serializers.IntegerField(min_value=0, source="total.down")
    by_level = StatsLevelTallySerializer(many=True, help_text=_("Levels 1 to 7, each listed."))
    by_strain = StatsStrainTallySerializer(many=True, help_text=_("C, D, H, S, NT, each listed."))
    by_contract = StatsContractTallySerializer(
        many=True, help_text=_("Each level and strain declared at least once, in that order.")
    )
    undoubled = StatsPlainTallySerializer()
    doubled = StatsPlainTallySerializer(help_text=_("Doubled (X), not redoubled."))
    redoubled = StatsPlainTallySerializer(help_text=_("Redoubled (XX)."))
    small_slams = StatsPlainTallySerializer(help_text=_("Contracts at level 6: bid, made, down."))
    grand_slams = StatsPlainTallySerializer(help_text=_("Contracts at level 7: bid, made, down."))


class StatsDealPointsSerializer(serializers.Serializer):
    deals = serializers.IntegerField(min_value=0)
    points = serializers.IntegerField(help_text=_("The sum of the player's points on them."))
    average = serializers.FloatField(
        allow_null=True, help_text=_("Points per deal, to two decimals; null without a deal.")
    )


def _record(record) -> dict:
    return {
        "matches": record.matches,
        "wins": record.wins,
        "draws": record.draws,
        "losses": record.losses,
        "net_points": record.net_points,
    }


class StatsPartnerSerializer(StatsRecordSerializer):
    player = serializers.SerializerMethodField()

    @extend_schema_field(PlayerRefSerializer)
    def get_player(self, line) -> dict:
        return {"id": line.player_id, "name": line.name}

    def to_representation(self, line) -> dict:
        # A busy player has hundreds of partners: the fields written out, not walked by DRF.
        return {"player": {"id": line.player_id, "name": line.name}, **_record(line.record)}


class StatsOpponentsSerializer(StatsRecordSerializer):
    players = serializers.SerializerMethodField()

    @extend_schema_field(PlayerRefSerializer(many=True))
    def get_players(self, line) -> list[dict]:
        return [
            {"id": pk, "name": name} for pk, name in zip(line.player_ids, line.names, strict=True)
        ]

    def to_representation(self, line) -> dict:
        players = zip(line.player_ids, line.names, strict=True)
        return {
            "players": [{"id": pk, "name": name} for pk, name in players],
            **_record(line.record),
        }


class PlayerStatisticsSerializer(serializers.Serializer):
    club = serializers.IntegerField(help_text=_("The club's id."))
    season = serializers.IntegerField(
        allow_null=True, help_text=_("The season's id; null for all the club's seasons.")
    )
    player = PlayerRefSerializer()
    total = StatsTotalSerializer(source="*", help_text=_("Every counted (complete) match."))
    by_kind = StatsKindRecordSerializer(
        source="stats.by_kind", many=True, help_text=_("chicago, rubber, two_player, each listed.")
    )
    contracts = StatsContractsSerializer(
        source="stats.contracts", help_text=_("The contracts the player declared.")
    )
    as_declarer = StatsDealPointsSerializer(
        source="stats.as_declarer",
        help_text=_(
            "The deals the player declared. A deal's points are the player's side's points on "
            "that deal's line of the score sheet minus the other side's."
        ),
    )
    as_defender = StatsDealPointsSerializer(
        source="stats.as_defender", help_text=_("The deals an opponent declared.")
    )
    partners = StatsPartnerSerializer(
        source="stats.partners",
        many=True,
        help_text=_(
            "Each partner (none at a table of two), most matches first, then most net points."
        ),
    )
    opponents = StatsOpponentsSerializer(
        source="stats.opponents",
        many=True,
        help_text=_(
            "Each pair met (one player at a table of two), head to head from the player's side, "
            "most matches first."
        ),
    )


class _Answer:
    """What the serializer reads: the statistics and what they are of."""

    def __init__(
        self, club_id: int, season_id: int | None, player: Player, stats: PlayerStatistics
    ):
        self.club = club_id
        self.season = season_id
        self.player = {"id": player.pk, "name": player.name}
        self.stats = stats
        self.record = stats.total  # ``total`` reads it as a StatsRecordSerializer reads a line


# --- Views ----------------------------------------------------------------------------------

PLAYER_ID = OpenApiParameter(
    "player_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The player's id.")
)


class _StatisticsView(Polled, viewsets.GenericViewSet):
    permission_classes = [ClubPermission]
    public_read = True
    http_method_names = ["get", "head"]
    serializer_class = PlayerStatisticsSerializer
    pagination_class = None
    filter_backends: list = []

    def _player(self, club_id: int, season: Season | None = None) -> Player:
        """The player of the URL: a member of the club, or (a season's) on its ladder."""
        player = get_object_or_404(Player, pk=checked_id(self.kwargs["player_id"]))
        if Membership.objects.filter(club_id=club_id, player=player).exists():
            return player
        standings = Standing.objects.filter(player=player)
        if season is not None:
            standings = standings.filter(season=season)
        else:
            standings = standings.filter(season__club_id=club_id)
        if not standings.exists():
            raise Http404  # not a player of this club
        return player

    def answer(self, club: Club, season: Season | None, player: Player) -> Response:
        stats = selectors.player_statistics(
            club=club, player_id=player.pk, season_id=None if season is None else season.pk
        )
        data = _Answer(club.pk, None if season is None else season.pk, player, stats)
        return Response(self.get_serializer(data).data)


@extend_schema(
    summary=_("A player's statistics in a season"),
    description=_(
        "The player's counted matches of the season: wins, draws and losses by kind, the "
        "contracts they declared (by level, strain and doubling; slams), their points per deal "
        "as declarer and as defender, each partner and each pair of opponents met."
    ),
    parameters=[
        OpenApiParameter(
            "season_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The season's id.")
        ),
        PLAYER_ID,
    ],
)
class SeasonStatisticsViewSet(_StatisticsView):
    @cached_read(path_owner("season", "season_id"), depends=("matches",))
    def retrieve(self, request, *args, **kwargs):
        season = get_object_or_404(
            club_selectors.seasons_of(clubs=access.readable_clubs(request)).select_related("club"),
            pk=checked_id(self.kwargs["season_id"]),
        )
        player = self._player(season.club_id, season)
        return self.answer(season.club, season, player)


@extend_schema(
    summary=_("A player's statistics in all of a club's seasons"),
    description=_(
        "As a season's statistics, over every counted match of every season of the club."
    ),
    parameters=[
        OpenApiParameter(
            "club_id", OpenApiTypes.INT, OpenApiParameter.PATH, description=_("The club's id.")
        ),
        PLAYER_ID,
    ],
)
class ClubStatisticsViewSet(_StatisticsView):
    @cached_read(path_owner("club", "club_id"), depends=("matches",))
    def retrieve(self, request, *args, **kwargs):
        club = get_object_or_404(
            access.readable_clubs(request), pk=checked_id(self.kwargs["club_id"])
        )
        player = self._player(club.pk)
        return self.answer(club, None, player)


season_statistics = SeasonStatisticsViewSet.as_view({"get": "retrieve"})
club_statistics = ClubStatisticsViewSet.as_view({"get": "retrieve"})
