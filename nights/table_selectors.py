"""Reads of the tables' own entry (issue 18), shared by the pages and the API: the night's live
table codes and the match now at a code's table (the players' pad), the deals entered at the
tables and not counted yet, the entries that became deals, and the director's board of the
night's tables."""

import datetime
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from django.db.models import Count, Max, Prefetch, Q, QuerySet
from django.utils import timezone

from matches.models import Deal, Match
from matches.selectors import match_with_players, sheet_of, with_players
from nights.models import EntryState, Night, Round, TableCode, TableEntry
from scoring.engine import DealResult, DealRow, InvalidInput, MatchComplete, Sheet

LONG_WAIT = datetime.timedelta(minutes=5)
"""A deal waiting this long for the opponents is shown to the director as well."""

PENDING_STATES = (EntryState.WAITING, EntryState.REJECTED)
"""The states of a deal entered at a table and not counted (``pending_table_entries``)."""


def _night_matches(night_id: int) -> QuerySet[Match]:
    return Match.objects.filter(
        pk__in=Round.matches.through.objects.filter(round__night_id=night_id).values("match_id")
    )


def night_matches(*, night: Night) -> QuerySet[Match]:
    """The matches of the night's started rounds."""
    return _night_matches(night.pk)


def current_match_id(*, code: TableCode) -> int | None:
    """The id of the match now at the code's table: its table's match in the night's latest
    round that has one (None before the table's first round). One query."""
    return (
        _night_matches(code.night_id)
        .filter(table__session_id=code.night.session_id, table__number=code.table_number)
        .order_by("-created_at", "-id")
        .values_list("pk", flat=True)
        .first()
    )


def current_match(*, code: TableCode) -> Match | None:
    """The match now at the code's table (``current_match_id``), with its club and players."""
    found = current_match_id(code=code)
    return None if found is None else match_with_players(match_id=found)


def live_codes(*, night: Night) -> dict[int, TableCode]:
    """The night's live table codes by table number."""
    codes = TableCode.objects.filter(night=night, revoked_at=None).order_by("table_number")
    return {code.table_number: code for code in codes}


@dataclass(frozen=True)
class Pending:
    """A deal entered at a table and not counted: waiting for the opponents, or rejected by
    them. ``row`` is how it would score (None if it no longer fits the match: the director
    recorded another deal meanwhile); ``flagged``: rejected, or waiting past ``LONG_WAIT``,
    so shown to the director."""

    entry: TableEntry
    row: DealRow | None
    flagged: bool


def pending_table_entries() -> QuerySet[TableEntry]:
    """The deals entered at the tables and not counted: waiting for the opponents or rejected
    by them, oldest first."""
    return TableEntry.objects.filter(state__in=PENDING_STATES).order_by("created_at", "id")


def _preview(match: Match, results: list[DealResult], entry: TableEntry) -> DealRow | None:
    rules = match.table.session.club.rules()
    try:
        if entry.correction:
            results = [*results]
            results[entry.sequence - 1] = entry.result
            return sheet_of(match=match, results=results, rules=rules).rows[entry.sequence - 1]
        if entry.sequence != len(results) + 1:
            return None
        new = entry.result
        return sheet_of(match=match, results=results, rules=rules, new=new).rows[-1]
    except (InvalidInput, MatchComplete, IndexError):
        return None


def deal_results(*, match_ids: Sequence[int]) -> dict[int, list[DealResult]]:
    """The recorded results of these matches in order, by match id (one query)."""
    results: dict[int, list[DealResult]] = {pk: [] for pk in match_ids}
    for deal in Deal.objects.filter(match_id__in=match_ids).order_by("match_id", "sequence"):
        results[deal.match_id].append(deal.result)
    return results


def pending_entries(
    *, matches: list[Match], results: dict[int, list[DealResult]] | None = None
) -> dict[int, list[Pending]]:
    """The deals entered at these matches' tables that wait for the opponents or were
    rejected, oldest first, by match id (two queries, and one for their deals unless given:
    ``results``, as ``deal_results`` reads them)."""
    by_match = {match.pk: match for match in matches}
    entries = (
        pending_table_entries()
        .filter(match_id__in=by_match)
        .select_related("entered_by", "decided_by", "code")
    )
    if results is None:
        results = deal_results(match_ids=list(by_match))
    now = timezone.now()
    pending: dict[int, list[Pending]] = {pk: [] for pk in by_match}
    for entry in entries:
        match = by_match[entry.match_id]
        flagged = entry.state == EntryState.REJECTED or now - entry.created_at > LONG_WAIT
        pending[match.pk].append(Pending(entry, _preview(match, results[match.pk], entry), flagged))
    return pending


# Quoted: Prefetch is generic to the type checker only.
def pending_prefetch() -> "Prefetch[str, QuerySet[TableEntry]]":
    """A match's deals entered at the table and not counted (``pending_table_entries``)."""
    return Prefetch("table_entries", queryset=pending_table_entries(), to_attr="pending_entries")


def deal_confirmations(*, match_ids: list[int]) -> dict[int, dict[int, TableEntry]]:
    """For each match, by deal sequence, the entry at the table that the deal stands as now:
    the latest confirmed (or director-settled) entry that became it, if the deal still says
    what that entry said (a deal the director corrected since is the director's). One
    query."""
    found: dict[int, dict[int, TableEntry]] = {pk: {} for pk in match_ids}
    entries = (
        TableEntry.objects.filter(
            match_id__in=match_ids, state=EntryState.CONFIRMED, deal__isnull=False
        )
        .select_related("deal", "code")
        .order_by("decided_at", "id")
    )
    for entry in entries:
        deal = entry.deal
        assert deal is not None
        if deal.result == entry.result:
            found[entry.match_id][deal.sequence] = entry
        else:
            found[entry.match_id].pop(deal.sequence, None)
    return found


@dataclass(frozen=True)
class BoardTable:
    """A table on the director's board: its live code, the match now there (None before its
    first round) with the deals recorded, when the table last entered or recorded anything,
    and its deals not counted yet."""

    number: int
    code: TableCode | None
    match: Match | None
    deals: int
    last_entry: datetime.datetime | None
    pending: list[Pending]
    # Entries of the table's earlier matches still waiting or disputed: the table plays
    # another match now and cannot answer them, so the director settles them (flagged).
    earlier: list[Pending] = field(default_factory=list)
    passed_out: int = 0  # of ``deals``, those passed out
    sheet: Sheet | None = None  # the match's, scored

    @property
    def played(self) -> int:
        """The deals recorded that were played (not passed out)."""
        return self.deals - self.passed_out

    @property
    def waiting(self) -> Pending | None:
        return next((p for p in self.pending if p.entry.state == EntryState.WAITING), None)

    @property
    def disputes(self) -> list[Pending]:
        return [p for p in self.pending if p.entry.state == EntryState.REJECTED]

    @property
    def unsettled(self) -> list[Pending]:
        """What the board lists at the table: the earlier matches' leftovers, then the
        current match's entries."""
        return [*self.earlier, *self.pending]


def _earlier(night: Night, latest: Sequence[int]) -> dict[int, list[Pending]]:
    """The entries left waiting or disputed by the night's matches that are no longer the
    match at their table, by table number, flagged (one query; three more when there are
    some)."""
    ids = set(
        pending_table_entries()
        .filter(match__in=_night_matches(night.pk))
        .exclude(match_id__in=latest)
        .values_list("match_id", flat=True)
    )
    if not ids:
        return {}
    matches = list(
        Match.objects.filter(pk__in=ids)
        .select_related("table__session__club")
        .order_by("created_at", "id")
    )
    pending = pending_entries(matches=matches)
    found: dict[int, list[Pending]] = {}
    for match in matches:
        for entry in pending[match.pk]:
            found.setdefault(match.table.number, []).append(replace(entry, flagged=True))
    return found


def night_board(*, night: Night) -> list[BoardTable]:
    """Every table of the night, in number order, as the director's board shows it."""
    latest: dict[int, int] = {}
    rows = _night_matches(night.pk).order_by("created_at", "id").values_list("table__number", "pk")
    for number, pk in rows:
        latest[number] = pk
    matches = {
        match.pk: match
        for match in Match.objects.filter(pk__in=latest.values())
        .select_related("table__session__club")
        .annotate(
            deal_count=Count("deals"),
            passed_count=Count("deals", filter=Q(deals__passed_out=True)),
            last_deal=Max("deals__created_at"),
        )
    }
    with_players(list(matches.values()))
    results = deal_results(match_ids=list(matches))
    last_entries = dict(
        TableEntry.objects.filter(match_id__in=matches)
        .values("match_id")
        .annotate(last=Max("created_at"))
        .values_list("match_id", "last")
    )
    pending = pending_entries(matches=list(matches.values()), results=results)
    earlier = _earlier(night, list(latest.values()))
    codes = live_codes(night=night)
    board = []
    for number in sorted(set(latest) | set(codes)):
        match = matches.get(latest.get(number, 0))
        if match is None:
            board.append(BoardTable(number, codes.get(number), None, 0, None, []))
            continue
        times = [t for t in (match.last_deal, last_entries.get(match.pk)) if t is not None]
        board.append(
            BoardTable(
                number,
                codes.get(number),
                match,
                match.deal_count,
                max(times, default=None),
                pending[match.pk],
                earlier.get(number, []),
                match.passed_count,
                sheet_of(
                    match=match,
                    results=results[match.pk],
                    rules=match.table.session.club.rules(),
                ),
            )
        )
    return board
