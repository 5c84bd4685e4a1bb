"""Reads about matches: the matches of the clubs a reader may see (``clubs``: a queryset of
clubs the caller decided), and the score sheet, as the rules engine replays it from the deals."""

import datetime
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, NotRequired, Protocol, TypedDict, cast

from django.db.models import Count, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.exports import Cell, Export
from clubs.models import Club, Player, Season, Session, Table
from matches.models import SEAT_FIELDS, Deal, KindChoice, Match, MatchStatus, stored_result
from matches.presenters import ITEM_LABELS
from scoring.engine import (
    DealResult,
    DealRow,
    Kind,
    NightMatch,
    ParSheet,
    ParTable,
    PassedOut,
    Played,
    Rules,
    Seat,
    Sheet,
    Side,
    check_next,
    rank_night,
    read_par,
    row_readings,
    score_match,
    side_net,
)


def matches_of(*, clubs: QuerySet[Club]) -> QuerySet[Match]:
    """The matches of ``clubs``, each with its table, session and club."""
    return Match.objects.filter(table__session__club__in=clubs).select_related(
        "table__session__club"
    )


def club_of_match(*, match_id: int) -> int | None:
    """The id of the club a match is played at, or None if there is no such match: what a
    write checks before it locks the match (one light query; ``matches_of`` reads the whole
    match, table, session and club)."""
    return (
        Match.objects.filter(pk=match_id).values_list("table__session__club_id", flat=True).first()
    )


def _deal_count() -> Coalesce:
    """How many deals a match has, as a subquery per row: unlike ``Count("deals")`` it needs
    no GROUP BY of the whole joined row, and a list's COUNT(*) leaves it out (and the deals)."""
    per_match = (
        Deal.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(per_match, output_field=IntegerField()), 0)


def matches_counted(*, clubs: QuerySet[Club]) -> QuerySet[Match]:
    """As ``matches_of``, each with its number of deals (``deal_count``)."""
    return matches_of(clubs=clubs).annotate(deal_count=_deal_count())


def deals_played(*, match_ids: Sequence[int]) -> dict[int, int]:
    """How many deals each of these matches has played to a contract (a passed-out deal
    scores nothing; a Chicago's is dealt again), by match id (0: none yet)."""
    counts = (
        Deal.objects.filter(match_id__in=match_ids, passed_out=False)
        .order_by()
        .values("match_id")
        .annotate(n=Count("pk"))
        .values_list("match_id", "n")
    )
    return {**dict.fromkeys(match_ids, 0), **dict(counts)}


def match_with_players(*, match_id: int, clubs: QuerySet[Club] | None = None) -> Match | None:
    """The match (one of ``clubs``', when given) with its table, session, club and players
    (the players in a query of their own: a nine-table join costs PostgreSQL more to plan than
    the two queries take), or None."""
    matches = Match.objects.all() if clubs is None else matches_of(clubs=clubs)
    match = matches.select_related("table__session__club").filter(pk=match_id).first()
    if match is not None:
        with_players([match])
    return match


def with_players(matches: Sequence[Match]) -> None:
    """Set the players in their seats on ``matches`` (one query for all)."""
    players = Player.objects.in_bulk({pk for m in matches for pk in m.seat_ids.values()})
    for match in matches:
        for seat, pk in match.seat_ids.items():
            setattr(match, SEAT_FIELDS[Seat(seat)], players[pk])


class MatchRules(Protocol):
    """What the engine needs of a match beyond its deals: a ``Match``, or a season export's
    row of one (``StoredMatch``)."""

    @property
    def kind(self) -> str: ...
    @property
    def first_dealer(self) -> str: ...
    @property
    def finished_early(self) -> bool: ...


class StoredMatch(NamedTuple):
    kind: str
    first_dealer: str
    finished_early: bool


def par_table_of(*, match: Match) -> ParTable | None:
    """The table the match's deals are read against by high-card points: its club's, when the
    club plays par scoring and the match is a Chicago; else None (no points are asked)."""
    if match.kind != Kind.CHICAGO:
        return None
    return match.table.session.club.rules().par


def match_par(*, match: Match, sheet: Sheet) -> ParSheet | None:
    """The par reading that stands beside the match's ``sheet`` (docs/rules.md, "Par
    scoring"): under its club's table when the club plays par scoring and the match is a
    Chicago; else None. The pages, the PDFs and the API all show this one."""
    return read_par(sheet, par_table_of(match=match))


def sheet_of(
    *,
    match: MatchRules,
    results: Sequence[DealResult],
    rules: Rules,
    finished: bool | None = None,
    new: DealResult | None = None,
) -> Sheet:
    """The one place that turns a match's ``results`` into its sheet: under the club's
    ``rules`` (``Club.rules``), a rubber ended early if ``finished`` (default: as the match
    was); with ``new`` added after them (``MatchComplete`` if the match takes no more deals)."""
    options: dict[str, Any] = {
        "first_dealer": match.first_dealer,
        "rules": rules,
        "finished": match.finished_early if finished is None else finished,
    }
    if new is not None:
        return check_next(match.kind, results, new, **options)
    return score_match(match.kind, results, **options)


def _scored(match: Match) -> tuple[list[Deal], Sheet]:
    """The match's deals in order and the engine's sheet of them."""
    deals = list(Deal.objects.filter(match=match).order_by("sequence"))
    sheet = sheet_of(
        match=match,
        results=[deal.result for deal in deals],
        rules=match.table.session.club.rules(),
    )
    return deals, sheet


def deals_updated(*, match_id: int) -> dict[int, datetime.datetime]:
    """By sequence, when the deal or an earlier deal of the match was last recorded or
    corrected: a deal's scored row follows from it and the deals before it. One query."""
    times = Deal.objects.filter(match_id=match_id).order_by("sequence")
    newest: dict[int, datetime.datetime] = {}
    latest = None
    for sequence, updated in times.values_list("sequence", "updated_at"):
        latest = updated if latest is None else max(latest, updated)
        newest[sequence] = latest
    return newest


def match_sheet(*, match: Match) -> Sheet:
    """The match scored by the engine from its stored entered results."""
    return _scored(match)[1]


@dataclass(frozen=True)
class SheetLine:
    """One deal of a match as the admin's score sheet shows it: its row of the engine's sheet,
    with the row's result and vulnerability in words."""

    deal_id: int
    row: DealRow
    vulnerable: str
    contract: str
    declarer: str
    result: str


def _vulnerable_text(vulnerable: tuple[Side, ...]) -> str:
    if len(vulnerable) == 2:
        return _("both")
    if vulnerable:
        return _("North-South") if vulnerable[0] is Side.NS else _("East-West")
    return _("none")


def match_sheet_lines(*, match: Match) -> tuple[Sheet, list[SheetLine]]:
    """The match's sheet, and its deals in order, each with its row of the sheet."""
    deals, sheet = _scored(match)
    lines = []
    for deal, row in zip(deals, sheet.rows, strict=True):
        result = row.result
        if isinstance(result, PassedOut):
            contract, declarer, result_text = _("passed out"), "", ""
        else:
            contract, declarer = str(result.contract), result.declarer.value
            result_text = result.result_text
        vulnerable = _vulnerable_text(row.vulnerable)
        lines.append(SheetLine(deal.pk, row, vulnerable, contract, declarer, result_text))
    return sheet, lines


# The session sheet's rows are dicts: a template looks a dict's keys up first, and an evening
# of a big club has 20,000 of these lookups.
class SessionMatch(TypedDict):
    """One match on a session's sheet, as the sheet shows it."""

    id: int
    kind: str
    kind_label: str
    status: str
    status_label: str
    winner: str
    total_ns: int
    total_ew: int
    par_ns: int | None  # North-South's par IMPs (a Chicago at a club that plays par scoring)
    names_ns: str  # "Anna & Ben" (a table of two: one name)
    names_ew: str
    url: NotRequired[str]  # the page's links, which the view adds
    table_url: NotRequired[str]


class SessionPlayer(TypedDict):
    """A player's evening (the engine's ``rank_night``): place (shared on equal nets), net
    points over the complete matches, their best single match, the matches played and still
    open."""

    rank: int
    player_id: int
    name: str
    net: int
    matches: int
    best: int | None
    open: int
    best_round: int | None
    imps: int  # par IMPs over the complete matches read against par
    url: NotRequired[str]


class SessionTable(TypedDict):
    number: int
    seats: int
    matches: list[SessionMatch]


_SESSION_COLUMNS = (
    "table_id",
    "id",
    "kind",
    "status",
    "winner",
    "total_ns",
    "total_ew",
    "par_ns",
    *(f"{field}{suffix}" for field in SEAT_FIELDS.values() for suffix in ("_id", "__name")),
)


def session_results(*, session_id: int) -> tuple[list[SessionTable], list[SessionPlayer]]:
    """The tables of one session with their matches (in the order they were started), and
    the night's results: each player's net over the complete matches (their side's total
    minus the other side's), ranked by ``rank_night``. Two queries, and plain rows rather
    than models: an evening of a big club has 500 matches."""
    kinds = {value: str(label) for value, label in KindChoice.choices}
    statuses = {value: str(label) for value, label in MatchStatus.choices}
    tables: dict[int, SessionTable] = {
        pk: {"number": number, "seats": seats, "matches": []}
        for pk, number, seats in Table.objects.filter(session_id=session_id)
        .order_by("number")
        .values_list("id", "number", "seats")
    }
    parts: list[NightMatch] = []
    rows = (
        Match.objects.filter(table__session_id=session_id)
        .order_by("table__number", "created_at", "id")
        .values_list(*_SESSION_COLUMNS)
    )
    for table_id, pk, kind, status, winner, total_ns, total_ew, par_ns, *seats in rows:
        north, north_name, east, east_name, south, south_name, west, west_name = seats
        tables[table_id]["matches"].append(
            {
                "id": pk,
                "kind": kind,
                "kind_label": kinds.get(kind, kind),
                "status": status,
                "status_label": statuses.get(status, status),
                "winner": winner,
                "total_ns": total_ns,
                "total_ew": total_ew,
                "par_ns": par_ns,
                "names_ns": " & ".join(name for name in (north_name, south_name) if name),
                "names_ew": " & ".join(name for name in (east_name, west_name) if name),
            }
        )
        net = side_net(total_ns, total_ew, Side.NS)
        complete = status == MatchStatus.COMPLETE
        for player, name, sign in (
            (north, north_name, 1),
            (south, south_name, 1),
            (east, east_name, -1),
            (west, west_name, -1),
        ):
            if player is not None:
                imps = None if par_ns is None else sign * par_ns
                parts.append(NightMatch(player, name, sign * net, complete, imps=imps))
    # Each NightLine's fields as a dict of its own (the view adds the line's link to it); a
    # session ranks by total net, so the line's score (its net) is left out.
    players = [
        cast(SessionPlayer, {k: v for k, v in vars(line).items() if k != "score"})
        for line in rank_night(parts)
    ]
    return list(tables.values()), players


def seated_elsewhere(*, match: Match) -> list[tuple[Player, int]]:
    """The players of ``match`` who sit at another unfinished match of the same session:
    each with that match's table number, in the order of the tables."""
    players = {pk: getattr(match, SEAT_FIELDS[Seat(seat)]) for seat, pk in match.seat_ids.items()}
    seated = Q()
    for field in SEAT_FIELDS.values():
        seated |= Q(**{f"{field}_id__in": list(players)})
    others = (
        Match.objects.filter(table__session_id=match.table.session_id)
        .filter(seated, status=MatchStatus.IN_PROGRESS)
        .exclude(pk=match.pk)
        .select_related("table")
        .order_by("table__number", "pk")
    )
    return [
        (players[pk], other.table.number)
        for other in others
        for pk in other.seat_ids.values()
        if pk in players
    ]


# --- Exports (clubs.exports): each defined once, for its page's download and the API ----------

_SESSION_HEADERS = (
    gettext_lazy("Rank"),
    gettext_lazy("Player"),
    gettext_lazy("Net points"),
    gettext_lazy("Matches"),
    gettext_lazy("Best"),
    gettext_lazy("Unfinished"),
    gettext_lazy("Par IMPs"),
)


def session_read_by_par(tables: list[SessionTable]) -> bool:
    """Whether a match of the session's ``tables`` was read against par (a column of par
    IMPs on the sheet and in its export)."""
    return any(match["par_ns"] is not None for table in tables for match in table["matches"])


def session_results_export(*, session: Session) -> Export:
    """The session sheet's results (``session_results``): each player's rank, net over the
    complete matches, matches, best match and unfinished matches, by rank then name, and the
    par IMPs once a match of the session was read against par (else empty)."""
    tables, players = session_results(session_id=session.pk)
    par = session_read_by_par(tables)
    rows = (
        (
            line["rank"],
            line["name"],
            line["net"],
            line["matches"],
            line["best"],
            line["open"],
            line["imps"] if par else None,
        )
        for line in players
    )
    name = f"{session.club.slug} {session.date.isoformat()} results"
    return Export(name, _SESSION_HEADERS, rows)


_SHEET_HEADERS = (
    gettext_lazy("Deal"),
    gettext_lazy("Dealer"),
    gettext_lazy("Vulnerable"),
    gettext_lazy("Contract"),
    gettext_lazy("Declarer"),
    gettext_lazy("Tricks"),
    gettext_lazy("Result"),
    gettext_lazy("Points North-South"),
    gettext_lazy("Points East-West"),
    gettext_lazy("Partscore North-South"),
    gettext_lazy("Partscore East-West"),
    gettext_lazy("Total North-South"),
    gettext_lazy("Total East-West"),
    gettext_lazy("High-card points"),
    gettext_lazy("Par IMPs North-South"),
)


def match_deals_export(*, match: Match) -> Export:
    """The match's score sheet, a line a deal as the sheet page shows it: the counted deal's
    number (empty for a passed-out Chicago deal), dealer, vulnerability, contract, declarer,
    tricks, result (a number: tricks over the contract, 0 made exactly, -1 one down; not the
    sheet's "=", "+1", "-1", which a spreadsheet reads as a formula or a number anyway), each
    side's points on the deal, the partscores after it and the running totals, the declaring
    side's high-card points as entered and, at a club that plays par scoring, North-South's
    IMPs of the deal's par reading; then the closing items of a rubber finished early, under
    their names."""
    sheet, lines = match_sheet_lines(match=match)
    reads = row_readings(sheet, match_par(match=match, sheet=sheet))
    rows: list[list[Cell]] = []
    total_ns = total_ew = 0
    for line, read in zip(lines, reads, strict=True):
        row = line.row
        total_ns, total_ew = total_ns + row.ns, total_ew + row.ew
        rows.append(
            [
                row.number,
                row.dealer.value,
                line.vulnerable,
                line.contract,
                line.declarer,
                row.result.tricks if isinstance(row.result, Played) else None,
                row.result.overtricks if isinstance(row.result, Played) else None,
                row.ns,
                row.ew,
                row.partscore_ns,
                row.partscore_ew,
                total_ns,
                total_ew,
                row.result.hcp if isinstance(row.result, Played) else None,
                None if read is None else read.imps_of(Side.NS),
            ]
        )
    for item in sheet.closing_items:
        ns, ew = (item.points, 0) if item.side is Side.NS else (0, item.points)
        total_ns, total_ew = total_ns + ns, total_ew + ew
        label = str(ITEM_LABELS.get(item.kind, item.kind))
        rows.append(
            [None, "", "", label, "", None, "", ns, ew, None, None, total_ns, total_ew, None, None]
        )
    session = match.table.session
    name = f"{session.club.slug} {session.date.isoformat()} table {match.table.number} {match.pk}"
    return Export(name, _SHEET_HEADERS, rows)


# The season's deals, in the format the season's import reads (docs: "A season's deals"): the
# first ten columns are the import's (its English keys are these msgids), the rest are extra.
SEASON_DEAL_HEADERS = (
    gettext_lazy("Date"),
    gettext_lazy("Table"),
    gettext_lazy("Kind"),
    gettext_lazy("North"),
    gettext_lazy("East"),
    gettext_lazy("South"),
    gettext_lazy("West"),
    gettext_lazy("Contract"),
    gettext_lazy("Declarer"),
    gettext_lazy("Tricks"),
    gettext_lazy("Match"),
    gettext_lazy("Deal"),
    gettext_lazy("Dealer"),
    gettext_lazy("Points North-South"),
    gettext_lazy("Points East-West"),
    gettext_lazy("High-card points"),
    gettext_lazy("Par IMPs North-South"),
)
# A table of two plays Draw Bridge, scored as a rubber: its kind in the file is "rubber".
_FILE_KIND = {"chicago": "chicago", "rubber": "rubber", "two_player": "rubber"}
_SEASON_MATCH_COLUMNS = (
    "id",
    "table__session__date",
    "table__number",
    "kind",
    "first_dealer",
    "finished_early",
    "north__name",
    "east__name",
    "south__name",
    "west__name",
)
_SEASON_DEAL_COLUMNS = (
    "match_id",
    "passed_out",
    "level",
    "strain",
    "doubling",
    "declarer",
    "tricks",
    "hcp",
)
# Matches whose deals one query reads.
SEASON_DEALS_BATCH = 1000


def season_deal_records(season: Season) -> Iterator[tuple[tuple[Any, ...], list[tuple[Any, ...]]]]:
    """The season's matches in playing order (session date, table, the order they were
    started), each with its deals' stored fields in order: the matches streamed, their deals
    read a thousand matches at a time through the index of (match, sequence). One query over
    the season's deals would sort them all first, and PostgreSQL plans a streamed (cursor)
    query without its parallel workers: three times slower on a season of 100,000 deals."""
    matches = (
        Match.objects.filter(season_id=season.pk)
        .order_by("table__session__date", "table__number", "created_at", "id")
        .values_list(*_SEASON_MATCH_COLUMNS)
        .iterator(chunk_size=SEASON_DEALS_BATCH)
    )
    while batch := list(itertools.islice(matches, SEASON_DEALS_BATCH)):
        deals = (
            Deal.objects.filter(match_id__in=[match[0] for match in batch])
            .order_by("match_id", "sequence")
            .values_list(*_SEASON_DEAL_COLUMNS)
        )
        by_match: dict[int, list[tuple[Any, ...]]] = {}
        for deal in deals:
            by_match.setdefault(deal[0], []).append(deal[1:])
        for match in batch:
            yield match, by_match.get(match[0], [])


def _season_deal_rows(season: Season) -> Iterator[list[Cell]]:
    """Every deal of the season's matches in playing order, each match scored by the
    engine as its sheet is."""
    rules = season.club.rules()
    for (match_id, day, table, kind, first_dealer, finished, *names), deals in season_deal_records(
        season
    ):
        results = [stored_result(*deal) for deal in deals]
        stored = StoredMatch(kind, first_dealer, finished)
        sheet = sheet_of(match=stored, results=results, rules=rules)
        reads = row_readings(sheet, read_par(sheet, rules.par))
        head = [day.isoformat(), table, _FILE_KIND.get(kind, kind), *(n or "" for n in names)]
        for deal, row, read in zip(deals, sheet.rows, reads, strict=True):
            passed_out, level, strain, doubling, declarer, tricks, hcp = deal
            yield [
                *head,
                "pass" if passed_out else f"{level}{strain}{doubling}",
                declarer or "",
                tricks,
                match_id,
                row.sequence,
                row.dealer.value,
                row.ns,
                row.ew,
                hcp,
                None if read is None else read.imps_of(Side.NS),
            ]


def season_deals_export(*, season: Season) -> Export:
    """Every deal of the season, one a line, in the format the season's import reads (date,
    table, kind, the four seats' players, contract, declarer, tricks), then the match, the
    deal's place in it, its dealer, each side's points on it, the declaring side's high-card
    points as entered (which the import reads too) and, at a club that plays par scoring,
    North-South's IMPs of the deal's par reading."""
    name = f"{season.club.slug} deals {season.name}"
    return Export(name, SEASON_DEAL_HEADERS, _season_deal_rows(season))
