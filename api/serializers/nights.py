"""Club nights: reading one (its players, every round known and what the next round will be),
the bodies that start one, change one and start its next round, and the night's results."""

import re

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.ids import MAX_ID
from api.serializers.common import (
    PlayerRefSerializer,
    SidePointsSerializer,
    StrictInput,
    side_points,
)
from api.serializers.fields import DistinctListField, WritableClubField
from clubs.models import NIGHT_MIN_MATCHES_MAX, NightRanking, RankBy
from clubs.services import TABLE_NUMBER_MAX
from matches.models import MatchStatus, WinnerChoice
from nights.models import MAX_PRIZES, MAX_ROUNDS, Night, Remainder, TieRule
from nights.movements import MOVEMENTS
from nights.movements import choices as movement_choices
from nights.movements import described as movements_described
from nights.selectors import NightPlan, NightResults, NightRound, ResultLine
from scoring.engine import Round as PlannedRound
from scoring.engine import Table as PlannedTable
from scoring.engine.movements import MAX_PLAYERS, MIN_PLAYERS

GROUP_MAX_LENGTH = 40


# The night's ranking fields, described alike wherever a night is read, created or changed.
RANKING_HELP = _(
    'How the night ranks its players: "total" (net), "average" (net per complete '
    'match) or "sit_out_average" (a sit-out scored as the player\'s own average); '
    '"" as the club ranks its nights (the club\'s `night_ranking`).'
)
RANK_BY_HELP = _(
    'What the night ranks by: "net" (net points) or "par" (the IMPs of the par reading, at a '
    'club that scores against par only); "" as the club ranks its nights (the club\'s '
    "`night_rank_by`)."
)
MIN_MATCHES_HELP = _(
    "Complete matches a player needs to be ranked by an average (the others are listed "
    "unranked); null: the club's `night_min_matches`."
)


class StrictSerializer(StrictInput, serializers.Serializer):
    """A body of named fields, each refused when unknown or unchangeable (``StrictInput``)."""

    unchangeable_message = _("This field cannot be changed once the night is started.")


class NightSessionSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text=_("The session the night is played in."))
    date = serializers.DateField(help_text=_("The night's date."))


class NightPlayerSerializer(serializers.Serializer):
    """A player present, in the director's order."""

    id = serializers.IntegerField(help_text=_("The player's id."))
    name = serializers.CharField(help_text=_("The player's name."))
    group = serializers.CharField(help_text=_("The player's prize group; empty for none."))
    joined_round = serializers.IntegerField(
        help_text=_("The first round the player plays in: 1, or later for a late arrival.")
    )
    left_round = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "For a player who left, the first round they no longer play in (they played the "
            "rounds before it); null for a player who stays."
        ),
    )
    playing = serializers.BooleanField(
        help_text=_(
            "Whether the player plays in the next round: the rounds to come are planned for "
            "these players."
        )
    )


class NightSeatsSerializer(serializers.Serializer):
    """The players by seat: N, E, S and W; at a table of two N and E only."""

    N = PlayerRefSerializer(help_text=_("North."))
    E = PlayerRefSerializer(help_text=_("East."))
    S = PlayerRefSerializer(required=False, help_text=_("South (not at a table of two)."))
    W = PlayerRefSerializer(required=False, help_text=_("West (not at a table of two)."))


class NightMatchSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text=_("The match played at this table in this round."))
    status = serializers.ChoiceField(choices=MatchStatus.choices, help_text=_("The match's state."))
    totals = SidePointsSerializer(help_text=_("Each side's total points so far."))
    winner = serializers.ChoiceField(
        choices=WinnerChoice.choices,
        allow_null=True,
        help_text=_("The winning side, or a tie; null until the match is complete."),
    )

    def to_representation(self, match):
        return {
            "id": match.pk,
            "status": match.status,
            "totals": side_points(match.total_ns, match.total_ew),
            "winner": match.winner or None,
        }


class NightTableSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=_("The table's number, fixed for the night."))
    seats = NightSeatsSerializer(help_text=_("The players by seat."))
    match = NightMatchSerializer(
        allow_null=True, help_text=_("The table's match once the round has started; else null.")
    )

    def to_representation(self, table):
        return {
            "number": table.number,
            "seats": {seat: _ref(player) for seat, player in table.seats.items()},
            "match": None if table.match is None else NightMatchSerializer(table.match).data,
        }


def _ref(player) -> dict:
    return {"id": player.id, "name": player.name}


class NightRoundSerializer(serializers.Serializer):
    """A round: started (its matches), or as the movement plans it."""

    number = serializers.IntegerField(help_text=_("The round's number, from 1."))
    started = serializers.BooleanField(
        help_text=_("Whether the round has started; if not, the tables are the movement's plan.")
    )
    tables = NightTableSerializer(many=True, help_text=_("The round's tables, by number."))
    sitting_out = PlayerRefSerializer(many=True, help_text=_("The players sitting this round out."))

    def to_representation(self, round: NightRound):
        return {
            "number": round.number,
            "started": round.started,
            "tables": [NightTableSerializer(table).data for table in round.tables],
            "sitting_out": [_ref(player) for player in round.sitting_out],
        }


class NightNextSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text=_("The next round's number."))
    waiting = serializers.CharField(
        allow_null=True,
        help_text=_(
            "Why the next round cannot start yet (the last round is still being played, or "
            "every round has been played); null when it can start."
        ),
    )
    seated_by_hand = serializers.BooleanField(
        help_text=_("Whether the director seats each round's tables by hand (fixed movement).")
    )


class NightListSerializer(serializers.ModelSerializer):
    """A club night without its rounds."""

    id = serializers.IntegerField(read_only=True, help_text=_("The night's id."))
    created_at = serializers.DateTimeField(
        read_only=True, help_text=_("When the night was started.")
    )
    updated_at = serializers.DateTimeField(
        read_only=True,
        help_text=_(
            "When the night last changed: its rounds, prizes or prize groups, a round started, "
            "closed."
        ),
    )
    club = serializers.IntegerField(
        source="session.club_id", read_only=True, help_text=_("The club.")
    )
    session = NightSessionSerializer(read_only=True, help_text=_("The night's session."))
    movement = serializers.ChoiceField(choices=movement_choices(), help_text=movements_described())
    remainder = serializers.ChoiceField(
        choices=Remainder.choices,
        help_text=_("What the players left over after the tables of four do."),
    )
    tie_rule = serializers.ChoiceField(
        choices=TieRule.choices, help_text=_("Which side moves after a tie at winners move.")
    )
    rounds = serializers.IntegerField(help_text=_("How many rounds the night has."))
    prizes = serializers.IntegerField(
        help_text=_("The top places that win a prize, overall and in each prize group.")
    )
    ranking = serializers.ChoiceField(
        choices=NightRanking.choices,
        allow_blank=True,
        help_text=RANKING_HELP,
    )
    min_matches = serializers.IntegerField(
        allow_null=True,
        help_text=MIN_MATCHES_HELP,
    )
    rank_by = serializers.ChoiceField(
        choices=RankBy.choices, allow_blank=True, help_text=RANK_BY_HELP
    )

    closed_at = serializers.DateTimeField(
        read_only=True,
        allow_null=True,
        help_text=_("When the director closed the night (its table codes work no more); or null."),
    )

    class Meta:
        model = Night
        fields = [
            "id",
            "club",
            "session",
            "movement",
            "remainder",
            "tie_rule",
            "rounds",
            "prizes",
            "ranking",
            "min_matches",
            "rank_by",
            "created_at",
            "updated_at",
            "closed_at",
        ]
        read_only_fields = fields


class NightSerializer(NightListSerializer):
    """A club night with its players present, every round known and what comes next."""

    players = NightPlayerSerializer(
        many=True, read_only=True, help_text=_("In the director's order.")
    )
    plan = NightRoundSerializer(
        many=True,
        read_only=True,
        help_text=_(
            "Every round known: the started ones with their matches, then those the movement "
            "plans (round-robin: all; winners move: the next once the last is finished; "
            "fixed: none)."
        ),
    )
    next = NightNextSerializer(read_only=True, help_text=_("What the next round will be."))

    class Meta(NightListSerializer.Meta):
        fields = [*NightListSerializer.Meta.fields, "players", "plan", "next"]
        read_only_fields = fields

    def to_representation(self, plan: NightPlan):
        data = dict(NightListSerializer(plan.night, context=self.context).data)
        upcoming = plan.next
        data["players"] = [
            {
                "id": player.id,
                "name": player.name,
                "group": player.group,
                "joined_round": player.joined_round,
                "left_round": player.left_round,
                "playing": player.id in plan.playing,
            }
            for player in plan.players.values()
        ]
        data["plan"] = [NightRoundSerializer(round).data for round in plan.rounds]
        data["next"] = {
            "number": upcoming.number,
            "waiting": upcoming.waiting or None,
            "seated_by_hand": MOVEMENTS[plan.night.movement].seated_by_hand,
        }
        return data


class NightCreateSerializer(StrictSerializer):
    club = WritableClubField(help_text=_("The club whose night it is."))
    date = serializers.DateField(
        help_text=_("The night's date; its session is created if needed (one night a date).")
    )
    players = DistinctListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        min_length=MIN_PLAYERS,
        max_length=MAX_PLAYERS,
        help_text=_("The ids of the players present, each an active member, in your order."),
    )
    movement = serializers.ChoiceField(choices=movement_choices(), help_text=movements_described())
    rounds = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, help_text=_("How many rounds the night has.")
    )
    remainder = serializers.ChoiceField(
        choices=Remainder.choices,
        default=Remainder.SIT_OUT,
        help_text=_("What the players left over after the tables of four do."),
    )
    tie_rule = serializers.ChoiceField(
        choices=TieRule.choices,
        default=TieRule.BELOW,
        help_text=_("Which side moves after a tie at winners move."),
    )
    prizes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_PRIZES,
        default=3,
        help_text=_("The top places that win a prize, overall and in each prize group."),
    )
    ranking = serializers.ChoiceField(
        choices=NightRanking.choices,
        allow_blank=True,
        default="",
        help_text=RANKING_HELP,
    )
    min_matches = serializers.IntegerField(
        min_value=0,
        max_value=NIGHT_MIN_MATCHES_MAX,
        allow_null=True,
        default=None,
        help_text=MIN_MATCHES_HELP,
    )
    rank_by = serializers.ChoiceField(
        choices=RankBy.choices, allow_blank=True, default="", help_text=RANK_BY_HELP
    )


class NightUpdateSerializer(StrictSerializer):
    unchangeable = ("club", "date", "session", "players", "movement", "remainder", "tie_rule")

    rounds = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        help_text=_("How many rounds the night has; not fewer than those started."),
    )
    prizes = serializers.IntegerField(
        min_value=0,
        max_value=MAX_PRIZES,
        required=False,
        help_text=_("The top places that win a prize, overall and in each prize group."),
    )
    groups = serializers.DictField(
        child=serializers.CharField(allow_blank=True, max_length=GROUP_MAX_LENGTH),
        required=False,
        help_text=_(
            'Prize groups by player id, e.g. {"12": "Ladies"}; "" takes a player out of '
            "their group. Players not named keep theirs."
        ),
    )
    ranking = serializers.ChoiceField(
        choices=NightRanking.choices,
        allow_blank=True,
        required=False,
        help_text=RANKING_HELP,
    )
    min_matches = serializers.IntegerField(
        min_value=0,
        max_value=NIGHT_MIN_MATCHES_MAX,
        allow_null=True,
        required=False,
        help_text=MIN_MATCHES_HELP,
    )
    rank_by = serializers.ChoiceField(
        choices=RankBy.choices, allow_blank=True, required=False, help_text=RANK_BY_HELP
    )

    def validate_groups(self, groups: dict) -> dict[int, str]:
        by_player = {}
        for key, name in groups.items():
            pk = int(key) if re.fullmatch(r"[1-9][0-9]{0,18}", str(key)) else 0
            if not 0 < pk <= MAX_ID:
                raise serializers.ValidationError(_("%(key)s is not a player id.") % {"key": key})
            by_player[pk] = name
        return by_player


class NightPlayerAddSerializer(StrictSerializer):
    """A late arrival: a member of the club by id, or a new guest by name."""

    player = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        required=False,
        help_text=_("The id of an active member of the club. Give `player` or `guest`."),
    )
    guest = serializers.CharField(
        required=False,
        max_length=100,
        help_text=_(
            "A new guest's name: they become a player of the club (an active player of the "
            "club of that name is that player). Give `player` or `guest`."
        ),
    )
    group = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=GROUP_MAX_LENGTH,
        help_text=_("The player's prize group; empty or left out for none."),
    )

    def validate(self, attrs):
        if ("player" in attrs) == ("guest" in attrs):
            message = gettext("Give a member's id (`player`) or a new guest's name (`guest`).")
            raise serializers.ValidationError({"player": [message]}, code="player_or_guest")
        return attrs


class SeatingTableSerializer(StrictInput, serializers.Serializer):
    """A table the director seats: N, E, S and W, or N and E only at a table of two."""

    number = serializers.IntegerField(
        min_value=1, max_value=TABLE_NUMBER_MAX, help_text=_("The table's number.")
    )
    N = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=_("North's player id."))
    E = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=_("East's player id."))
    S = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text=_("South's player id.")
    )
    W = serializers.IntegerField(
        min_value=1, max_value=MAX_ID, required=False, help_text=_("West's player id.")
    )

    def validate(self, attrs):
        if ("S" in attrs) != ("W" in attrs):
            raise serializers.ValidationError(
                _("Seat N, E, S and W, or N and E only at a table of two.")
            )
        return attrs


class RoundStartSerializer(StrictSerializer):
    tables = SeatingTableSerializer(
        many=True,
        required=False,
        help_text=_(
            "Fixed movement only: every table of the round, seated by hand (the players "
            "present not seated sit out). Leave out for the other movements."
        ),
    )

    def validate_tables(self, tables: list) -> list:
        if len(tables) > MAX_PLAYERS:
            message = gettext("At most %(count)d tables.") % {"count": MAX_PLAYERS}
            raise serializers.ValidationError(message)
        return tables

    def seating(self) -> PlannedRound[int] | None:
        tables = self.validated_data.get("tables")
        if tables is None:
            return None
        return PlannedRound(
            tuple(PlannedTable(t["number"], t["N"], t["E"], t.get("S"), t.get("W")) for t in tables)
        )


class SeatSwapSerializer(StrictSerializer):
    """Two players of the round to change places (one may be sitting the round out)."""

    player = serializers.IntegerField(
        min_value=1, help_text=_("A player of the round: seated, or sitting it out.")
    )
    other = serializers.IntegerField(
        min_value=1,
        help_text=_("The player who takes their seat (and gives up theirs, or sits out instead)."),
    )


class ClubNightLineSerializer(serializers.Serializer):
    """A player's line of the night's results."""

    rank = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "Place by the night's ranking; equal scores share a place. Null when unranked "
            "(an average's minimum of matches not reached)."
        ),
    )
    ranked = serializers.BooleanField(
        help_text=_("Whether the ranking placed the player; the unranked come after the ranked.")
    )
    player = PlayerRefSerializer(help_text=_("The player."))
    net = serializers.IntegerField(help_text=_("Net points over the complete matches."))
    imps = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "The IMPs the player's sides won against par over the complete matches; null at a "
            "club that does not score against par."
        ),
    )
    matches = serializers.IntegerField(help_text=_("Complete matches played."))
    score = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        help_text=_(
            "The value the night's ranking compares, as a decimal string: the net (or the par "
            "IMPs, ranked by par) for a total; an average rounded to 2 decimals (the ranking "
            "compares exact values). Null for an average without a complete match."
        ),
    )
    best = serializers.IntegerField(
        allow_null=True, help_text=_("The best net of a single complete match; null if none.")
    )
    best_round = serializers.IntegerField(
        allow_null=True, help_text=_("The round of the best match (the first such); null if none.")
    )
    open = serializers.IntegerField(help_text=_("Unfinished matches."))
    group = serializers.CharField(help_text=_("The player's prize group; empty for none."))
    prize = serializers.BooleanField(
        help_text=_(
            "Whether the place wins a prize (within the night's prizes): prizes follow the "
            "scratch ranking, or the handicapped one when `prizes_by_handicap`."
        )
    )
    handicap = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "The player's handicap per complete match, fixed from their rating when they "
            "joined the night (negative: points given); null at a night without handicaps."
        ),
    )
    handicapped_net = serializers.IntegerField(
        allow_null=True,
        help_text=_("Net points less the handicap of each complete match; null without."),
    )
    handicapped_rank = serializers.IntegerField(
        allow_null=True,
        help_text=_(
            "Place by the same rule over the handicapped net; null without handicaps or when "
            "unranked."
        ),
    )
    handicapped_score = serializers.DecimalField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        help_text=_("The value the handicapped ranking compares, as `score` is; null without."),
    )

    def to_representation(self, result: ResultLine):
        line, after = result.line, result.handicapped
        return {
            "rank": line.rank,
            "ranked": line.ranked,
            "player": {"id": line.player_id, "name": line.name},
            "net": line.net,
            "imps": line.imps if self.context.get("par") else None,
            "matches": line.matches,
            "score": None if result.score is None else str(result.score),
            "best": line.best,
            "best_round": line.best_round,
            "open": line.open,
            "group": result.group,
            "prize": result.prize,
            "handicap": result.handicap,
            "handicapped_net": after.net if after else None,
            "handicapped_rank": after.rank if after else None,
            "handicapped_score": None
            if result.handicapped_score is None
            else str(result.handicapped_score),
        }


class ClubNightResultsSerializer(serializers.Serializer):
    night = serializers.IntegerField(help_text=_("The night."))
    ranking = serializers.ChoiceField(
        choices=NightRanking.choices,
        help_text=_(
            "The rule that ranked the lines (the night's own, or else its club's): total net, "
            "average net per complete match, or a sit-out scored as the player's own average "
            "(net / matches x rounds started)."
        ),
    )
    rank_by = serializers.ChoiceField(
        choices=RankBy.choices,
        help_text=_(
            "What the lines were ranked by (the night's own choice, or else its club's): net "
            'points ("net") or the IMPs won against par ("par").'
        ),
    )
    min_matches = serializers.IntegerField(
        help_text=_(
            "Complete matches a player needs to be ranked by an average; the others are listed "
            "after the ranked, unranked. Not used by the total."
        )
    )
    rounds_started = serializers.IntegerField(
        help_text=_("Rounds started so far (the factor of a sit-out scored as an average).")
    )
    handicapped = serializers.BooleanField(
        help_text=_(
            "Whether the night gave handicaps (its club's `handicap_strength` when each player "
            "joined): each line then carries its handicapped ranking beside the scratch one."
        )
    )
    prizes_by_handicap = serializers.BooleanField(
        help_text=_(
            "Whether the prizes follow the handicapped ranking (a night that gave handicaps, "
            "at a club whose `handicap_prizes` is on); else they follow the scratch one."
        )
    )
    lines = ClubNightLineSerializer(
        many=True, help_text=_("Every player present, by rank, then name.")
    )
    groups = serializers.DictField(
        child=ClubNightLineSerializer(many=True),
        help_text=_("Each prize group's lines, ranked within the group, by the group's name."),
    )

    def to_representation(self, instance: tuple[Night, NightResults]):
        night, results = instance
        par = {"par": results.par}
        return {
            "night": night.pk,
            "ranking": results.ranking,
            "rank_by": results.rank_by,
            "min_matches": results.min_matches,
            "rounds_started": results.rounds,
            "handicapped": results.handicapped,
            "prizes_by_handicap": results.prizes_by_handicap,
            "lines": ClubNightLineSerializer(results.lines, many=True, context=par).data,
            "groups": {
                name: ClubNightLineSerializer(lines, many=True, context=par).data
                for name, lines in results.groups.items()
            },
        }
