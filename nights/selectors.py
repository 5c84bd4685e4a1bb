"""Reads of club nights, shared by the pages and the API: the players present, every round's
tables (started, or as the movement plans them), what the next round will be, the night's
results with its prizes, and each player's guide card."""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from decimal import ROUND_HALF_UP, Decimal
from typing import cast

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from clubs.exports import Cell, Export
from clubs.models import Club, NightRanking, RankBy
from matches.models import Deal, Match, MatchStatus
from matches.presenters import side_name
from matches.selectors import match_sheet
from nights.models import EntryState, Night, NightPlayer, Round, TableEntry
from nights.movements import MOVEMENTS, Evening
from scoring.engine import (
    NightLine,
    NightMatch,
    Seat,
    Side,
    TieRule,
    first_round,
    moving_side,
    rank_night,
    side_net,
)
from scoring.engine import Round as PlannedRound
from scoring.engine import Table as PlannedTable
from scoring.engine.handicap import expected_net, handicap_of
from scoring.engine.movements import Remainder


def nights_of(*, clubs: QuerySet[Club]) -> QuerySet[Night]:
    """The nights of ``clubs``, each with its session and the session's club."""
    return Night.objects.filter(session__club__in=clubs).select_related("session__club")


@dataclass(frozen=True)
class Seated:
    """A player present at the night: a late arrival plays from ``joined_round``, a leaver up
    to the round before ``left_round`` (``NightPlayer.plays_in``)."""

    id: int
    name: str
    group: str = ""
    joined_round: int = 1
    left_round: int | None = None
    handicap: int | None = None  # per complete match, from the rating; None: none given

    def plays_in(self, number: int) -> bool:
        """Whether the player is at the night for round ``number``."""
        return self.joined_round <= number and (self.left_round is None or number < self.left_round)

    @property
    def changed(self) -> bool:
        """Whether the player arrived late or left."""
        return self.joined_round > 1 or self.left_round is not None


@dataclass(frozen=True)
class MovedUp:
    """At winners move, the side of a table of four of a finished round that moves up, and,
    when its match had no winner (a tie, or abandoned), why: the night's tie rule settled it
    (``why``, a sentence for the page; empty when the match had a winner)."""

    side: Side
    why: str = ""


@dataclass(frozen=True)
class NightTable:
    """A table in a round: its players by seat ("N", "E", "S", "W"; N and E at a table of
    two), once the round has started its match, and at winners move, for the last finished
    round before the next, the side moving up (``moved_up``)."""

    number: int
    seats: dict[str, Seated]
    match: Match | None = None
    moved_up: MovedUp | None = None

    @property
    def two_player(self) -> bool:
        return len(self.seats) == 2

    def side(self, side: Side) -> list[Seated]:
        return [player for seat, player in self.seats.items() if Seat(seat).side is side]


@dataclass(frozen=True)
class NightRound:
    number: int
    started: bool
    tables: list[NightTable]
    sitting_out: list[Seated]

    @property
    def finished(self) -> bool:
        """Every match of a started round complete or abandoned."""
        return self.started and all(
            table.match is not None and table.match.status != MatchStatus.IN_PROGRESS
            for table in self.tables
        )

    @property
    def playing_at(self) -> list[int]:
        """The tables of a started round still playing."""
        return [
            table.number
            for table in self.tables
            if table.match is not None and table.match.status == MatchStatus.IN_PROGRESS
        ]


def present(*, night: Night) -> dict[int, Seated]:
    """Every player at the night, in the director's order, by id: late arrivals and leavers
    too (the started rounds name them); ``playing_in`` keeps those of one round."""
    rows = NightPlayer.objects.filter(night=night).order_by("position")
    fields = ("player_id", "player__name", "group", "joined_round", "left_round", "handicap")
    return {row[0]: Seated(*row) for row in rows.values_list(*fields)}


def handicaps_of(*, night: Night, player_ids: Iterable[int]) -> dict[int, int]:
    """The handicap per match each of the players carries at the night (fixed when they
    joined it); a player without one (a night without handicaps) is left out."""
    rows = NightPlayer.objects.filter(night=night, player_id__in=list(player_ids))
    given = rows.values_list("player_id", "handicap")
    return {player: handicap for player, handicap in given if handicap is not None}


def playing_in(players: dict[int, Seated], number: int) -> dict[int, Seated]:
    """The players of ``players`` at the night for round ``number``, in the same order."""
    return {pk: player for pk, player in players.items() if player.plays_in(number)}


def started_rounds(*, night: Night, players: dict[int, Seated] | None = None) -> list[NightRound]:
    """The rounds started so far, each table with its match (two queries)."""
    players = present(night=night) if players is None else players
    matches = Match.objects.select_related("table").order_by("table__number")
    rounds = Round.objects.filter(night=night).prefetch_related(
        Prefetch("matches", queryset=matches)
    )
    started = []
    for round in rounds:
        tables = [
            NightTable(
                match.table.number,
                {seat: players[pk] for seat, pk in match.seat_ids.items()},
                match,
            )
            for match in round.matches.all()
        ]
        out = [players[pk] for pk in round.sitting_out]
        started.append(NightRound(round.number, True, tables, out))
    return started


def round_started_at(*, night: Night, number: int) -> datetime.datetime | None:
    """When the night's round ``number`` started (None: not started)."""
    return (
        Round.objects.filter(night=night, number=number)
        .values_list("started_at", flat=True)
        .first()
    )


def _remainder(night: Night) -> Remainder:
    return cast(Remainder, night.remainder)


def _as_plan(round: NightRound) -> PlannedRound[int]:
    return PlannedRound(
        tuple(
            PlannedTable(table.number, *(player.id for player in table.seats.values()))
            for table in round.tables
        ),
        tuple(player.id for player in round.sitting_out),
    )


def _as_round(plan: PlannedRound[int], number: int, players: dict[int, Seated]) -> NightRound:
    tables = [
        NightTable(table.number, {seat.value: players[pk] for seat, pk in table.seats})
        for table in plan.tables
    ]
    return NightRound(number, False, tables, [players[pk] for pk in plan.sitting_out])


def _settled(match: Match, side: Side, below_ns: int, below_ew: int, tie_rule: str) -> str:
    """Why ``side`` moves up from a match with no winner, as ``moving_side`` settled it."""
    result = _("Abandoned") if match.status == MatchStatus.ABANDONED else _("A tie")
    if tie_rule == "ns":
        return _("%(result)s: North-South move up, as the night's tie rule says.") % {
            "result": result
        }
    if below_ns == below_ew:
        return _(
            "%(result)s, and equal points below the line (%(points)s each): North-South move up."
        ) % {"result": result, "points": below_ns}
    more, less = (below_ns, below_ew) if side is Side.NS else (below_ew, below_ns)
    return _(
        "%(result)s: %(side)s move up, with more points below the line (%(more)s to %(less)s)."
    ) % {"result": result, "side": side_name(side), "more": more, "less": less}


def _moves(round: NightRound, tie_rule: str) -> dict[int, MovedUp]:
    """The side that won each table of four of a finished round, ties settled by the rule."""
    moves = {}
    for table in round.tables:
        match = table.match
        if table.two_player or match is None:
            continue
        if match.winner in (Side.NS, Side.EW):
            moves[table.number] = MovedUp(Side(match.winner))
            continue
        # A tie, or abandoned: the night's rule decides, below the line or North-South.
        sheet = match_sheet(match=match)
        below_ns, below_ew = sheet.below_ns, sheet.below_ew
        side = moving_side(
            match.winner, below_ns=below_ns, below_ew=below_ew, tie_rule=cast(TieRule, tie_rule)
        )
        moves[table.number] = MovedUp(side, _settled(match, side, below_ns, below_ew, tie_rule))
    return moves


def _with_moves(night: Night, started: list[NightRound]) -> list[NightRound]:
    """At a movement moved by results (winners move), the last finished round, if another
    round follows it, with each table of four's side moving up (``NightTable.moved_up``)."""
    finished = [round for round in started if round.finished]
    if not MOVEMENTS[night.movement].moves_by_results or not finished:
        return started
    last = finished[-1]
    if last.number >= night.rounds:
        return started
    moves = _moves(last, night.tie_rule)
    tables = [replace(table, moved_up=moves.get(table.number)) for table in last.tables]
    return [replace(round, tables=tables) if round is last else round for round in started]


@dataclass(frozen=True)
class Next:
    """What the next round will be: its number and the movement's seating (None when the
    director seats it by hand), or why it cannot start yet (``waiting``)."""

    number: int
    plan: NightRound | None = None
    waiting: str = ""


def _next_round(
    night: Night,
    started: list[NightRound],
    players: dict[int, Seated],
    planned: dict[int, PlannedRound[int]],
    evening: Evening,
) -> Next:
    """The next round after ``started`` (at winners move, the last finished one carries who
    moves up: ``_with_moves``) for the players at the night then, as the movement seats it;
    ``planned`` is the rounds to come of a movement that plans them, by number."""
    number = len(started) + 1
    if night.closed_at is not None:
        return Next(number, waiting=_("This night is closed: no more rounds start."))
    if number > night.rounds:
        return Next(
            number, waiting=_("All %(rounds)s rounds have been played.") % {"rounds": night.rounds}
        )
    if started and not started[-1].finished:
        return Next(
            number,
            waiting=ngettext(
                "Round %(round)s is still being played at table %(tables)s.",
                "Round %(round)s is still being played at tables %(tables)s.",
                len(started[-1].playing_at),
            )
            % {
                "round": started[-1].number,
                "tables": ", ".join(str(n) for n in started[-1].playing_at),
            },
        )
    plan = MOVEMENTS[night.movement].next_round(evening, planned)
    if plan is None:
        return Next(number)
    return Next(number, _as_round(plan, number, players))


@dataclass(frozen=True)
class NightPlan:
    """The whole night as far as it is known: every player at the night (``players``: late
    arrivals and leavers too, who are named in the rounds they played), those at the night
    for the next round (``playing``: the movement's input for the rounds to come), the
    started rounds (at winners move, the last finished one with who moves up from each
    table), then the rounds the movement plans (round-robin: all of them; winners move: the
    next one once the last is finished; fixed: none), and what the next round will be."""

    night: Night
    players: dict[int, Seated]
    rounds: list[NightRound]
    next: Next
    playing: dict[int, Seated] = field(default_factory=dict)


def _evening(night: Night, started: list[NightRound], players: dict[int, Seated]) -> Evening:
    """What the night's movement plans from: the players, the rounds started (the last
    finished one with who moves up from each table, when the movement moves by results)."""
    last = started[-1].tables if started else []
    return Evening(
        players=tuple(players),
        playing=tuple(playing_in(players, len(started) + 1)),
        played=tuple(_as_plan(round) for round in started),
        changed=any(player.changed for player in players.values()),
        remainder=_remainder(night),
        rounds=night.rounds,
        moved_up={table.number: table.moved_up.side for table in last if table.moved_up},
    )


def night_plan(*, night: Night, ahead: int | None = None) -> NightPlan:
    """The night's plan; with ``ahead``, a movement's rounds to come (round-robin) only as far
    as that many rounds after those started (the rest as planned later: the same rounds). A
    60-player night's 60 rounds take about 150 ms to plan (bench/README.md, "Issue 29"); the
    pages show the next few, the guide cards and the API every one."""
    players = present(night=night)
    started = _with_moves(night, started_rounds(night=night, players=players))
    upto = night.rounds if ahead is None else min(night.rounds, len(started) + max(ahead, 1))
    evening = _evening(night, started, players)
    planned = MOVEMENTS[night.movement].rounds_to_come(evening, upto)
    upcoming = _next_round(night, started, players, planned, evening)
    rounds = list(started)
    if planned:
        rounds += [_as_round(p, n, players) for n, p in sorted(planned.items())]
    elif upcoming.plan is not None:
        rounds.append(upcoming.plan)
    playing = playing_in(players, len(started) + 1)
    return NightPlan(night, players, rounds, upcoming, playing)


# --- results -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ResultLine:
    """A player's night (``NightLine``) with their prize group, whether they won a prize (a
    ranked place within the night's prizes: equal scores share a place, and so a prize), and
    ``score``, the value the night's rule ranks by as shown (``shown_score``): the net for a
    total, an average rounded to 2 decimals; None for an average without a complete match.
    At a night that gave handicaps, ``handicap`` is the player's (per complete match) and
    ``handicapped`` their line ranked by net points less it, by the same rule, with
    ``handicapped_score`` its shown score; None without."""

    line: NightLine
    group: str
    prize: bool
    score: Decimal | None = None
    handicap: int | None = None
    handicapped: NightLine | None = None
    handicapped_score: Decimal | None = None


@dataclass(frozen=True)
class NightResults:
    """The night's lines and each prize group's, ranked by ``ranking`` (a ``NightRanking``
    value: the night's own, or its club's), players with fewer than ``min_matches`` complete
    matches unranked (the averages only), over the ``rounds`` started so far."""

    lines: list[ResultLine]
    groups: dict[str, list[ResultLine]] = field(default_factory=dict)
    ranking: str = NightRanking.TOTAL
    min_matches: int = 0
    rounds: int = 0
    rank_by: str = RankBy.NET
    par: bool = False  # whether the club reads its matches against par (an IMPs column)
    handicapped: bool = False  # whether the night gave handicaps (a handicapped ranking)
    prizes_by_handicap: bool = False  # whether its prizes follow the handicapped ranking

    @property
    def ranking_label(self) -> str:
        if self.by_par:
            return str(PAR_RANKING_LABELS[NightRanking(self.ranking)])
        return str(NightRanking(self.ranking).label)

    @property
    def by_average(self) -> bool:
        """Whether the lines are ranked by an average (the total's score is its net)."""
        return self.ranking != NightRanking.TOTAL

    @property
    def by_par(self) -> bool:
        """Whether the lines are ranked by par IMPs, not net points."""
        return self.rank_by == RankBy.PAR


PAR_RANKING_LABELS = {
    NightRanking.TOTAL: gettext_lazy("Total par IMPs"),
    NightRanking.AVERAGE: gettext_lazy("Average par IMPs per match played"),
    NightRanking.SIT_OUT_AVERAGE: gettext_lazy(
        "Par IMPs, a sit-out scored as the player's own average"
    ),
}
"""Each rule's name when the night ranks by par IMPs (``NightRanking``'s labels name net)."""


SCORE_PLACES = Decimal("0.01")


def shown_score(line: NightLine, ranking: str) -> Decimal | None:
    """The value ``line`` is ranked by, for people: a total as it is, an average rounded half
    away from zero to 2 decimals (the ranking compares the exact values); None for an
    average without a complete match."""
    if ranking == NightRanking.TOTAL:
        return Decimal(int(line.score))
    if not line.matches:
        return None
    score = line.score
    exact = Decimal(score.numerator) / Decimal(score.denominator)
    return exact.quantize(SCORE_PLACES, rounding=ROUND_HALF_UP)


def night_ranking(*, night: Night) -> tuple[str, int]:
    """How ``night`` ranks its players: its own rule and minimum, or else its club's."""
    club = night.session.club
    ranking = night.ranking or club.night_ranking
    min_matches = club.night_min_matches if night.min_matches is None else night.min_matches
    return ranking, min_matches


def night_rank_by(*, night: Night) -> str:
    """What ``night`` ranks by: its own choice, or else its club's; net points at a club
    that no longer scores against par."""
    return _rank_by(night, scores_par=night.session.club.scores_par)


def _rank_by(night: Night, *, scores_par: bool) -> str:
    if not scores_par:
        return RankBy.NET
    return night.rank_by or night.session.club.night_rank_by


def _ranked(
    parts: list[NightMatch],
    present: dict[int, Seated],
    prizes: int,
    *,
    ranking: str,
    rank_by: str,
    min_matches: int,
    rounds: int,
    by_handicap: bool = False,
) -> list[ResultLine]:
    names = [(pk, player.name) for pk, player in present.items()]
    lines = rank_night(
        parts, names, ranking=ranking, by=rank_by, min_matches=min_matches, rounds=rounds
    )
    handicaps = {pk: player.handicap for pk, player in present.items()}
    after: dict[int, NightLine] = {}
    if any(handicap is not None for handicap in handicaps.values()):
        # The same rule over net points less each complete match's handicap.
        less = [
            replace(part, net=part.net - (handicaps.get(part.player_id) or 0), imps=None)
            for part in parts
        ]
        ranked = rank_night(less, names, ranking=ranking, min_matches=min_matches, rounds=rounds)
        after = {line.player_id: line for line in ranked}
    results = []
    for line in lines:
        handicapped = after.get(line.player_id)
        # The prizes' ranking: the scratch one, or the handicapped one when the club says so.
        placed = handicapped if by_handicap and handicapped is not None else line
        results.append(
            ResultLine(
                line,
                present[line.player_id].group,
                placed.rank is not None and placed.rank <= prizes and placed.matches > 0,
                shown_score(line, ranking),
                handicaps[line.player_id],
                handicapped,
                None if handicapped is None else shown_score(handicapped, ranking),
            )
        )
    return results


def night_results(*, night: Night, plan: NightPlan | None = None) -> NightResults:
    """Each player present ranked over the night's complete matches as the night's rule says
    (``night_ranking``: total net, average per match, or a sit-out scored as the player's
    average over the rounds started so far; a player who has not played yet: 0, unranked by
    an average), then each prize group ranked on its own (by name). Prizes go to ranked
    players only, by the scratch ranking or, at a club whose prizes follow the handicaps
    (``Club.handicap_prizes``) and a night that gave them, by the handicapped one. The lines
    rank by net points or, at a club that scores against par, by the par IMPs if the night
    says so (``night_rank_by``)."""
    plan = night_plan(night=night, ahead=1) if plan is None else plan
    ranking, min_matches = night_ranking(night=night)
    club = night.session.club
    par = club.scores_par  # the club's rules, read once
    rank_by = _rank_by(night, scores_par=par)
    rounds = sum(1 for round in plan.rounds if round.started)
    parts = []
    for round in plan.rounds:
        for table in round.tables:
            match = table.match
            if match is None:
                continue
            net = side_net(match.total_ns, match.total_ew, Side.NS)
            complete = match.status == MatchStatus.COMPLETE
            for side, sign in ((Side.NS, 1), (Side.EW, -1)):
                imps = None if match.par_ns is None else sign * match.par_ns
                for player in table.side(side):
                    parts.append(
                        NightMatch(player.id, player.name, sign * net, complete, round.number, imps)
                    )

    def ranked(parts: list[NightMatch], players: dict[int, Seated]) -> list[ResultLine]:
        return _ranked(
            parts,
            players,
            night.prizes,
            ranking=ranking,
            rank_by=rank_by,
            min_matches=min_matches,
            rounds=rounds,
            by_handicap=club.handicap_prizes,
        )

    lines = ranked(parts, plan.players)
    by_group = {}
    for name in sorted({player.group for player in plan.players.values() if player.group}):
        members = {pk: p for pk, p in plan.players.items() if p.group == name}
        by_group[name] = ranked([p for p in parts if p.player_id in members], members)
    handicapped = any(result.handicapped is not None for result in lines)
    by_handicap = handicapped and club.handicap_prizes
    return NightResults(
        lines, by_group, ranking, min_matches, rounds, rank_by, par, handicapped, by_handicap
    )


_RESULT_HEADERS = (
    gettext_lazy("Rank"),
    gettext_lazy("Player"),
    gettext_lazy("Net points"),
    gettext_lazy("Matches"),
    gettext_lazy("Ranked by"),
    gettext_lazy("Score"),
    gettext_lazy("Best"),
    gettext_lazy("Best round"),
    gettext_lazy("Unfinished"),
    gettext_lazy("Prize group"),
    gettext_lazy("Rank in the group"),
    gettext_lazy("Prize"),
    gettext_lazy("Par IMPs"),
    gettext_lazy("Handicap per match"),
    gettext_lazy("Handicapped net"),
    gettext_lazy("Handicapped rank"),
)


def night_results_export(*, night: Night) -> Export:
    """The night's results as its page ranks them (``night_results``): each player present
    by rank (empty: unranked), with net points, complete matches, the rule that ranked them
    and the value it ranks by (an average to 2 decimals), best match and its round,
    unfinished matches, prize group and place in it, and whether the place wins a prize
    (overall or in the group), then the par IMPs (empty at a club that does not score against
    par), and the handicap, handicapped net and handicapped rank (empty without handicaps)."""
    results = night_results(night=night)
    in_group = {
        result.line.player_id: result for lines in results.groups.values() for result in lines
    }
    rows: list[list[Cell]] = []
    for result in results.lines:
        line, grouped = result.line, in_group.get(result.line.player_id)
        rows.append(
            [
                line.rank,
                line.name,
                line.net,
                line.matches,
                results.ranking_label,
                result.score,
                line.best,
                line.best_round,
                line.open,
                result.group,
                grouped.line.rank if grouped else None,
                result.prize or bool(grouped and grouped.prize),
                line.imps if results.par else None,
                result.handicap,
                result.handicapped.net if result.handicapped else None,
                result.handicapped.rank if result.handicapped else None,
            ]
        )
    session = night.session
    return Export(f"{session.club.slug} {session.date.isoformat()} night", _RESULT_HEADERS, rows)


# --- the handicaps explained ----------------------------------------------------------------


@dataclass(frozen=True)
class HandicapRow:
    """A rating on the handicap guide: the net per match it expects, and its handicap at full
    and half strength with a cap of ``GUIDE_CAP`` points."""

    rating: int
    expected: float
    full: int
    half: int


GUIDE_RATINGS = (1350, 1420, 1500, 1580, 1650, 1800)
GUIDE_CAP = 150


def handicap_guide_rows() -> list[HandicapRow]:
    """The guide's table, each figure the engine's (``scoring.engine.handicap``)."""
    return [
        HandicapRow(
            rating,
            round(expected_net(rating), 1),
            handicap_of(rating, strength=100, cap=GUIDE_CAP),
            handicap_of(rating, strength=50, cap=GUIDE_CAP),
        )
        for rating in GUIDE_RATINGS
    ]


# --- guide cards ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CardRow:
    """One round on a player's guide card: the table and seat, the partner (None at a table
    of two, a Draw Bridge rubber) and the opponents; ``table`` None when sitting out,
    ``known`` False for a round the movement cannot plan yet, ``absent`` for a round the player
    is not at the night for (before arriving late, or after leaving)."""

    round: int
    known: bool = True
    absent: bool = False
    table: int | None = None
    seat: str = ""
    partner: Seated | None = None
    opponents: tuple[Seated, ...] = ()
    two_player: bool = False  # a table of two: Draw Bridge


@dataclass(frozen=True)
class GuideCard:
    player: Seated
    rows: list[CardRow]


def guide_cards(*, plan: NightPlan) -> list[GuideCard]:
    """A card per player at the night, in the director's order: every round of the night (a
    late arrival's rounds before arriving and a leaver's after leaving marked ``absent``)."""
    rows: dict[int, dict[int, CardRow]] = {pk: {} for pk in plan.players}
    for round in plan.rounds:
        for pk in (player.id for player in round.sitting_out):
            rows[pk][round.number] = CardRow(round.number)
        for table in round.tables:
            for seat, player in table.seats.items():
                side = Seat(seat).side
                partner = [p for p in table.side(side) if p.id != player.id]
                rows[player.id][round.number] = CardRow(
                    round.number,
                    table=table.number,
                    seat=seat,
                    partner=partner[0] if partner else None,
                    opponents=tuple(table.side(side.other)),
                    two_player=table.two_player,
                )
    known = {round.number for round in plan.rounds}
    cards = []
    for pk, player in plan.players.items():
        card = []
        for number in range(1, plan.night.rounds + 1):
            row = rows[pk].get(number)
            if row is None:
                # Not in a round known (started or planned): absent then; in a round the
                # movement cannot plan yet, blank unless the player will not be there.
                absent = number in known or not player.plays_in(number)
                row = CardRow(number, known=absent, absent=absent)
            card.append(row)
        cards.append(GuideCard(player, card))
    return cards


# --- table cards ---------------------------------------------------------------------------


@dataclass(frozen=True)
class TableRound:
    """A round at a table: its players by seat, or blank (``known`` False) to fill in."""

    number: int
    known: bool
    seats: list[Seated | None]


@dataclass(frozen=True)
class TableCard:
    number: int
    seats: list[str]  # "N", "E" (a table of two) or "N", "E", "S", "W"
    rounds: list[TableRound]

    @property
    def two_player(self) -> bool:
        """A table of two: Draw Bridge."""
        return len(self.seats) == 2


def _table_count(plan: NightPlan) -> dict[int, int]:
    """Each table of the night by number, with its seats (2 or 4): the tables of the rounds
    started or planned, else (a fixed night before its first round) the first round's."""
    rounds = plan.rounds or [
        _as_round(first_round(list(plan.playing), _remainder(plan.night)), 1, plan.players)
    ]
    tables: dict[int, int] = {}
    for round in rounds:
        for table in round.tables:
            tables.setdefault(table.number, len(table.seats))
    return dict(sorted(tables.items()))


def table_cards(plan: NightPlan) -> list[TableCard]:
    """A card per table: who sits where in each round of the night."""
    by_round = {round.number: round for round in plan.rounds}
    cards = []
    for number, seat_count in _table_count(plan).items():
        seats = ["N", "E", "S", "W"][:seat_count]
        rounds = []
        for round_number in range(1, plan.night.rounds + 1):
            round = by_round.get(round_number)
            table = next((t for t in round.tables if t.number == number), None) if round else None
            if table is None:
                rounds.append(TableRound(round_number, round is not None, [None] * seat_count))
            else:
                rounds.append(
                    TableRound(round_number, True, [table.seats.get(seat) for seat in seats])
                )
        cards.append(TableCard(number, seats, rounds))
    return cards


def tables_untouched(*, round: NightRound) -> list[NightTable]:
    """The tables of a started round where nothing was entered yet: no deal recorded and
    none waiting for the opponents (two queries). Their seats can still be put right, and a
    round all of whose tables are so can be taken back (``nights.services``)."""
    ids = [table.match.pk for table in round.tables if table.match is not None]
    played = set(Deal.objects.filter(match_id__in=ids).values_list("match_id", flat=True))
    played |= set(
        TableEntry.objects.filter(match_id__in=ids, state=EntryState.WAITING).values_list(
            "match_id", flat=True
        )
    )
    return [
        table
        for table in round.tables
        if table.match is not None
        and table.match.pk not in played
        and table.match.status == MatchStatus.IN_PROGRESS
    ]


def round_number_of(*, match: Match) -> int | None:
    """The number of the night's round ``match`` is played in (None outside a night)."""
    return Round.objects.filter(matches=match).values_list("number", flat=True).first()
