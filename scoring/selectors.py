"""Reads of the scoring app: stored ladders and a player's season history.

Reading a ladder never computes it: these return the rows of the season's latest run
(``scoring.services.standings_recalculate`` writes them).
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, timedelta
from itertools import accumulate
from typing import Any, cast

from django.conf import settings
from django.core.cache import cache
from django.core.paginator import Page, Paginator
from django.db.models import Count, Exists, F, Max, OuterRef, Q, QuerySet
from django.db.models.functions import Lower
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext_lazy

from clubs.exports import Cell, Export
from clubs.generations import Scope, generations
from clubs.models import LADDER_OPTIONS, Club, Player, Season
from clubs.validators import folded
from matches.models import SEAT_FIELDS, Deal, Match, MatchStatus, played_by
from matches.presenters import kind_name, outcome
from scoring.engine import Side, side_net

from . import statistics
from .ladder import (
    DEFAULT_OPTIONS,
    LadderOptions,
    counted_indices,
    net_rounder,
    outcome_code,
    result_for,
)
from .models import RunStatus, Standing, StandingsRun

logger = logging.getLogger(__name__)

# The orders a ladder can be read in, by name: each its columns, ascending (a leading "-":
# descending), and its usual direction. Ties keep the ladder's order.
LADDER_SORTS: dict[str, tuple[tuple[str, ...], str]] = {
    "rank": (("position",), "asc"),
    "player": (("name", "position"), "asc"),
    "matches": (("matches", "-position"), "desc"),
    "counted": (("counted", "-position"), "desc"),
    "wins": (("wins", "-position"), "desc"),
    "draws": (("draws", "-position"), "desc"),
    "losses": (("losses", "-position"), "desc"),
    "points": (("points", "-position"), "desc"),
    "net": (("net_points", "-position"), "desc"),
    "average": (("average", "-position"), "desc"),
    "rating": (("rating", "-position"), "desc"),
    "imps": (("imps", "-position"), "desc"),
    "handicapped": (("handicapped", "-position"), "desc"),
}


@dataclass(frozen=True)
class LadderColumn:
    """A column of the season's ladder, as the page, the PDF, the download (CSV, XLSX) and the
    API show it: ``field``, the stored line's (``Standing``), read as ``path`` where that is
    another; ``header``, its heading in the download, and on the page and the PDF unless
    ``short``; ``sort``, its key in ``LADDER_SORTS`` when the page and the PDF show it (None:
    only the download and the API); ``shown_if``, the league option without which they do not
    (``best_matches``, ``by_points``, ``par``, ``by_handicap``); ``hide``, the class that hides
    it on a narrow screen; ``shape``, how the page writes it (``scoring.templatetags.ladder``);
    ``places``, the download's rounding."""

    field: str
    header: str | Promise
    short: str | Promise | None = None
    sort: str | None = None
    shown_if: str = ""
    hide: str = ""
    shape: str = ""
    places: int | None = None
    path: str = ""

    @property
    def label(self) -> str | Promise:
        """Its heading on the page and the PDF."""
        return self.short or self.header


LADDER_COLUMNS = (
    LadderColumn("position", gettext_lazy("Position")),
    LadderColumn("rank", gettext_lazy("Rank"), sort="rank", shape="rank"),
    LadderColumn("player", gettext_lazy("Player"), sort="player", path="player__name"),
    LadderColumn("qualified", gettext_lazy("Qualified")),
    LadderColumn("matches", gettext_lazy("Matches"), sort="matches"),
    LadderColumn(
        "counted",
        pgettext_lazy("matches counted", "Counted"),
        sort="counted",
        shown_if="best_matches",
        hide="hide-phone",
    ),
    LadderColumn(
        "wins", gettext_lazy("Wins"), pgettext_lazy("wins", "W"), sort="wins", hide="hide-phone"
    ),
    LadderColumn(
        "draws", gettext_lazy("Draws"), pgettext_lazy("draws", "D"), sort="draws", hide="hide-phone"
    ),
    LadderColumn(
        "losses",
        gettext_lazy("Losses"),
        pgettext_lazy("losses", "L"),
        sort="losses",
        hide="hide-phone",
    ),
    LadderColumn(
        "points", pgettext_lazy("league points", "Points"), sort="points", shown_if="by_points"
    ),
    LadderColumn("net_points", gettext_lazy("Net points"), sort="net", shape="signed"),
    LadderColumn(
        "average",
        gettext_lazy("Average"),
        sort="average",
        hide="hide-tablet",
        shape="signed_decimal",
        places=2,
    ),
    LadderColumn("best", gettext_lazy("Best")),
    LadderColumn("worst", gettext_lazy("Worst")),
    LadderColumn(
        "rating", gettext_lazy("Rating"), sort="rating", hide="hide-tablet", shape="whole", places=1
    ),
    # Last, so that a download read by position keeps its earlier columns.
    LadderColumn("imps", gettext_lazy("Par IMPs"), sort="imps", shown_if="par", shape="signed"),
    LadderColumn(
        "handicapped",
        gettext_lazy("Handicapped net"),
        sort="handicapped",
        shown_if="by_handicap",
        shape="signed",
    ),
)
"""The ladder's columns, each declared once, in the order every view of the ladder shows them."""


def ladder_options(values: Mapping[str, Any]) -> LadderOptions:
    """A club's ladder options from its ``LADDER_OPTIONS`` fields' values by name: each
    field is the option's name after ``ladder_`` (``ladder_best_matches`` -> ``best_matches``)."""
    return LadderOptions(**{name.removeprefix("ladder_"): values[name] for name in LADDER_OPTIONS})


def club_ladder_options(club: Club) -> LadderOptions:
    """The club's ladder options."""
    return ladder_options({name: getattr(club, name) for name in LADDER_OPTIONS})


def ladder_rows(
    *,
    season_id: int,
    min_matches: int | None = None,
    sort: str = "rank",
    descending: bool = False,
) -> QuerySet[Standing]:
    """The season's stored ladder, with each row's player: in ladder order, or by one of
    ``LADDER_SORTS`` (``descending`` turns it round); optionally only players with at least
    ``min_matches`` matches."""
    rows = Standing.objects.filter(season_id=season_id).select_related("player")
    if min_matches:
        rows = rows.filter(matches__gte=min_matches)
    order = []
    for column in LADDER_SORTS[sort][0]:
        field = column.removeprefix("-")
        term = Lower("player__name") if field == "name" else F(field)
        # A line without par IMPs (none of its matches read) comes last either way.
        if column.startswith("-") != descending:
            order.append(term.desc(nulls_last=True))
        else:
            order.append(term.asc(nulls_last=True))
    return rows.order_by(*order)


def ladder_page(
    *,
    season_id: int,
    number: str | int | None,
    size: int,
    search: str = "",
    sort: str = "rank",
    descending: bool = False,
) -> Page[Standing]:
    """One page of ``size`` rows of the season's ladder in the order of ``ladder_rows``
    (a number that is no page: the first or the last), optionally of only the players whose
    name contains ``search`` (any case, any accents). Names are compared here, not in the
    database, which has no accent-blind comparison everywhere: a search reads every row's
    name in order, then the rows of its page."""
    rows = ladder_rows(season_id=season_id, sort=sort, descending=descending)
    if not search:
        return Paginator(rows, size).get_page(number)
    wanted = folded(search)
    found = [pk for pk, name in rows.values_list("id", "player__name") if wanted in folded(name)]
    page = Paginator(found, size).get_page(number)
    by_id = rows.in_bulk(page.object_list)
    # The page of rows keeps the paginator of their ids: the same count and numbers.
    return Page(
        [by_id[pk] for pk in page.object_list],
        page.number,
        page.paginator,  # type: ignore[arg-type]
    )


def latest_run(*, season_id: int) -> StandingsRun | None:
    """The run that computed the season's stored ladder (its latest done run that changed
    it: a later one that found it as it was left it, issue 28), or None if the season's
    ladder was never computed."""
    return (
        StandingsRun.objects.filter(season_id=season_id, status=RunStatus.DONE, changed=True)
        .order_by("-id")
        .first()
    )


def seasons_with_activity() -> list[int]:
    """Ids of the seasons the nightly recalculation rebuilds: every season with a match, and
    every season with stored standings (so a season whose matches were all removed is
    emptied)."""
    has_match = Match.objects.filter(season_id=OuterRef("pk"))
    has_rows = Standing.objects.filter(season_id=OuterRef("pk"))
    return list(
        Season.objects.filter(Exists(has_match) | Exists(has_rows))
        .order_by("id")
        .values_list("id", flat=True)
    )


def seasons_for_the_night(*, today: date, margin: timedelta) -> list[int]:
    """Ids of the seasons the nightly run rebuilds: of those with activity
    (``seasons_with_activity``), the ones open ``today`` (a day either side, for the clubs'
    time zones), the ones never computed, and the ones behind their ladder (a complete match
    changed since its latest finished run began, ``seasons_behind`` over all time). A closed
    season left as it was since its last run is not rebuilt: the night's work grows with what
    is open or changed, not with every season ever played (bench/nightly.py)."""
    active = seasons_with_activity()
    day = timedelta(days=1)
    open_now = set(
        Season.objects.filter(
            pk__in=active, start_date__lte=today + day, end_date__gte=today - day
        ).values_list("pk", flat=True)
    )
    computed = set(
        StandingsRun.objects.filter(season_id__in=active, status=RunStatus.DONE)
        .values_list("season_id", flat=True)
        .distinct()
    )
    wanted = open_now | set(seasons_behind(since=datetime.min.replace(tzinfo=UTC), margin=margin))
    return [season for season in active if season in wanted or season not in computed]


def seasons_behind(*, since: datetime, margin: timedelta) -> list[int]:
    """Ids of the seasons whose ladder may not have seen a change: a complete match of the
    season (what the ladder counts: a deal of a match in progress queues no recalculation)
    changed (``updated_at``) since ``since`` and no later than ``margin`` before the season's
    latest finished run started (or the season has no finished run). ``margin`` covers a
    change saved before a run started and committed after that run read the matches. A match
    that stopped counting (its last deal deleted) is not seen here: its own queueing, or the
    nightly run, takes it off."""
    changed = dict(
        Match.objects.filter(updated_at__gte=since, status=MatchStatus.COMPLETE)
        .values("season_id")
        .annotate(last=Max("updated_at"))
        .order_by()
        .values_list("season_id", "last")
    )
    started = dict(
        StandingsRun.objects.filter(season_id__in=list(changed), status=RunStatus.DONE)
        .values("season_id")
        .annotate(start=Max("started_at"))
        .order_by()
        .values_list("season_id", "start")
    )
    return sorted(
        season
        for season, last in changed.items()
        if season not in started or last >= started[season] - margin
    )


def seasons_by_club(season_ids: Iterable[int] | None = None) -> dict[int, list[int]]:
    """The given seasons (default: every season with activity) grouped by club id, each
    list in season id order."""
    ids = seasons_with_activity() if season_ids is None else sorted(set(season_ids))
    clubs: dict[int, list[int]] = {}
    for season, club in (
        Season.objects.filter(id__in=ids).order_by("id").values_list("id", "club_id")
    ):
        clubs.setdefault(club, []).append(season)
    return clubs


def player_ratings(season_id: int, player_ids: Collection[int]) -> dict[int, float]:
    """Each player's rating on the stored ladder of the season or, for a player not on it yet,
    of the club's latest earlier season they are on (a rating starts again each season, so a
    season's first night reads last season's). Players on neither are left out."""
    season = Season.objects.filter(pk=season_id).values("club_id", "start_date").first()
    if season is None:
        return {}
    ratings: dict[int, float] = {}
    rows = (
        Standing.objects.filter(
            season__club_id=season["club_id"],
            season__start_date__lte=season["start_date"],
            player_id__in=list(player_ids),
        )
        .order_by("player_id", "-season__start_date", "-season_id")
        .values_list("player_id", "rating")
    )
    for player, rating in rows:
        ratings.setdefault(player, rating)
    return ratings


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One counted match of a player's season, from that player's side of the table."""

    match_id: int
    played_on: date
    kind: str
    side: str  # "NS" or "EW"
    partner: Player | None  # None at a table of two
    opponents: tuple[Player, ...]
    total_for: int
    total_against: int
    net_points: int  # as the ladder counts it: rounded when the club rounds
    result: str  # "win", "draw" or "loss"
    finished_early: bool
    counted: bool = True  # False: not among the player's best N the ladder counts
    imps: int | None = None  # the player's side's par IMPs; None: no par reading


def running_totals(history: Iterable[HistoryEntry]) -> list[int]:
    """The ladder's net after each match of a player's season history: the counted matches'
    nets added up (with best N, the others add nothing)."""
    return list(accumulate(entry.net_points if entry.counted else 0 for entry in history))


def ladder_options_of(*, season_id: int) -> LadderOptions:
    """The ladder options of the season's club (the defaults for an unknown season)."""
    values = (
        Season.objects.filter(id=season_id)
        .values(**{name: F(f"club__{name}") for name in LADDER_OPTIONS})
        .first()
    )
    return DEFAULT_OPTIONS if values is None else ladder_options(values)


def player_season_history(*, season_id: int, player_id: int) -> list[HistoryEntry]:
    """Each counted match the player played in the season, in playing order, with date,
    partner, opponents, the net points the ladder counted for it, the side's par IMPs (None
    without a par reading), and whether the ladder counts it (when the club counts only each
    player's best matches)."""
    options = ladder_options_of(season_id=season_id)
    rounder = net_rounder(options.rounding)
    matches = (
        Match.objects.filter(season_id=season_id, status=MatchStatus.COMPLETE)
        .filter(played_by(player_id))
        .select_related(*SEAT_FIELDS.values(), "table__session")
        .order_by("table__session__date", "id")
    )
    history = []
    for match in matches:
        north_south = player_id in (match.north_id, match.south_id)
        if north_south:
            side, partner = Side.NS, match.south if match.north_id == player_id else match.north
            opponents = (match.east, match.west)
        else:
            side, partner = Side.EW, match.west if match.east_id == player_id else match.east
            opponents = (match.north, match.south)
        net = side_net(match.total_ns, match.total_ew, side)
        imps = match.par_ns if match.par_ns is None or north_south else -match.par_ns
        history.append(
            HistoryEntry(
                match_id=match.id,
                played_on=match.table.session.date,
                kind=match.kind,
                side=side.value,
                partner=partner,
                opponents=tuple(player for player in opponents if player is not None),
                total_for=match.total_ns if north_south else match.total_ew,
                total_against=match.total_ew if north_south else match.total_ns,
                net_points=rounder(net) if rounder else net,
                result=result_for(match.winner, north_south=north_south),
                finished_early=match.finished_early,
                imps=imps,
            )
        )
    if options.best_matches and len(history) > options.best_matches:
        chosen = set(
            counted_indices(
                [entry.net_points for entry in history],
                [outcome_code(entry.result) for entry in history],
                options=options,
                imps=[entry.imps for entry in history],
            )
        )
        history = [
            entry if index in chosen else replace(entry, counted=False)
            for index, entry in enumerate(history)
        ]
    return history


# --- A player's statistics ------------------------------------------------------------------

_STAT_MATCH_COLUMNS = (
    "id",
    "kind",
    "north_id",
    "east_id",
    "south_id",
    "west_id",
    "total_ns",
    "total_ew",
    "winner",
    "first_dealer",
    "finished_early",
)
_STAT_DEAL_COLUMNS = ("match_id", "passed_out", "level", "strain", "doubling", "declarer", "tricks")


def _counted_matches(*, club_id: int, season_id: int | None, player_id: int) -> QuerySet[Match]:
    """The player's counted (complete) matches in the season, or in every season of the club
    (``season_id`` None): the seat-and-season indexes find them."""
    matches = Match.objects.filter(status=MatchStatus.COMPLETE).filter(played_by(player_id))
    if season_id is not None:
        return matches.filter(season_id=season_id)
    return matches.filter(season__club_id=club_id)


def _declared_by(player_id: int) -> Q:
    """Deals whose declarer sits in the player's seat of the deal's match."""
    declared = Q()
    for seat, field in SEAT_FIELDS.items():
        declared |= Q(declarer=seat.value, **{f"match__{field}_id": player_id})
    return declared


_SEAT_NAMES = tuple(f"{field}__name" for field in SEAT_FIELDS.values())


def _statistics_computed(
    *, club: Club, season_id: int | None, player_id: int
) -> statistics.PlayerStatistics:
    """Three queries: the counted matches with their players' names, the contracts declared
    counted by the database, and the deals of those matches streamed in order (for the engine
    to replay them: deal points are not stored)."""
    names: dict[int, str] = {}
    matches = []
    for row in (
        _counted_matches(club_id=club.pk, season_id=season_id, player_id=player_id)
        .order_by()
        .values_list(*_STAT_MATCH_COLUMNS, *_SEAT_NAMES)
    ):
        match = row[: len(_STAT_MATCH_COLUMNS)]
        seated = zip(match[2:6], row[len(_STAT_MATCH_COLUMNS) :], strict=True)
        names.update((pk, name) for pk, name in seated if pk is not None)
        matches.append(match)
    ids = [row[0] for row in matches]
    if not ids:  # nothing played: no deal to read
        return statistics.player_statistics(
            player_id, [], [], [], names={}, rules=club.rules(), rounding=club.ladder_rounding
        )
    contracts = (
        Deal.objects.filter(match_id__in=ids, passed_out=False)
        .filter(_declared_by(player_id))
        .order_by()
        .values("level", "strain", "doubling")
        .annotate(declared=Count("pk"), made=Count("pk", filter=Q(tricks__gte=F("level") + 6)))
        .values_list("level", "strain", "doubling", "declared", "made")
    )
    counts = [statistics.ContractCount(*row) for row in contracts]  # type: ignore[arg-type]
    deals = (
        Deal.objects.filter(match_id__in=ids)
        .order_by("match_id", "sequence")
        .values_list(*_STAT_DEAL_COLUMNS)
        .iterator(chunk_size=5000)
    )
    return statistics.player_statistics(
        player_id,
        matches,
        deals,
        counts,
        names=names,
        rules=club.rules(),
        rounding=club.ladder_rounding,
    )


def _statistics_scopes(*, club_id: int, season_id: int | None, player_id: int) -> list[Scope]:
    """What the statistics show: the club's data (names, options) and the player's matches in
    the season, or every match of the club for all time (``clubs.generations``)."""
    if season_id is None:
        return [("club", club_id), ("matches", club_id)]
    return [("club", club_id), ("player-matches", f"{season_id}-{player_id}")]


def player_statistics(
    *, club: Club, player_id: int, season_id: int | None = None
) -> statistics.PlayerStatistics:
    """The player's statistics in a season of ``club`` or, with no ``season_id``, in all the
    club's seasons (``scoring.statistics`` says what they are). With the read cache on
    (``API_READ_CACHE``), kept in the shared cache under the generations of what they show,
    read before they are computed: a deal recorded in one of the player's matches (in that
    season, or anywhere in the club for all time), a change to the club's players or options
    makes new ones. If the cache fails, they are computed."""
    if not settings.API_READ_CACHE:
        return _statistics_computed(club=club, season_id=season_id, player_id=player_id)
    scopes = _statistics_scopes(club_id=club.pk, season_id=season_id, player_id=player_id)
    key = ":".join(
        map(
            str,
            (settings.API_READ_CACHE_NAMESPACE, "player-statistics", club.pk, season_id, player_id),
        )
    )
    try:
        tokens, found = generations(scopes, read_also=[key])
    except Exception:
        logger.warning("the read cache failed; computing the statistics", exc_info=True)
        return _statistics_computed(club=club, season_id=season_id, player_id=player_id)
    entry = found.get(key)
    if entry is not None and entry[0] == tokens:
        return cast(statistics.PlayerStatistics, entry[1])  # what was kept below
    computed = _statistics_computed(club=club, season_id=season_id, player_id=player_id)
    try:
        cache.set(key, (tokens, computed), timeout=settings.API_READ_CACHE_SECONDS)
    except Exception:
        logger.warning("could not keep the statistics in the read cache", exc_info=True)
    return computed


# --- Exports (clubs.exports): each defined once, for its page's download and the API ----------


def ladder_export(*, season: Season, rows: QuerySet[Standing] | None = None) -> Export:
    """The season's stored ladder in ladder order, every line (``ladder_rows``, or ``rows``
    of it that a list's filters kept), in every one of ``LADDER_COLUMNS`` (the average to two
    decimals, the rating to one)."""
    if rows is None:
        rows = ladder_rows(season_id=season.pk)
    places = [column.places for column in LADDER_COLUMNS]
    paths = [column.path or column.field for column in LADDER_COLUMNS]
    lines = (
        tuple(
            value if digits is None else round(value, digits)
            for value, digits in zip(row, places, strict=True)
        )
        for row in rows.values_list(*paths).iterator(chunk_size=2000)
    )
    headers = tuple(column.header for column in LADDER_COLUMNS)
    return Export(f"{season.club.slug} ladder {season.name}", headers, lines)


_HISTORY_HEADERS = (
    gettext_lazy("Date"),
    gettext_lazy("Match"),
    gettext_lazy("Kind"),
    gettext_lazy("Side"),
    gettext_lazy("Partner"),
    gettext_lazy("Opponents"),
    gettext_lazy("For"),
    gettext_lazy("Against"),
    gettext_lazy("Net points"),
    gettext_lazy("Running total"),
    gettext_lazy("Result"),
    pgettext_lazy("a match on the ladder", "Counts"),
    gettext_lazy("Par IMPs"),
)


def player_history_export(*, season: Season, player: Player) -> Export:
    """The player's counted matches of the season as the player page lists them
    (``player_season_history``): date, match, kind, side, partner, opponents, points for and
    against, net points as the ladder counts them, the ladder's running total, the result,
    whether the match counts (not when the club counts a player's best N and it is not one)
    and the side's par IMPs (empty without a par reading)."""
    history = player_season_history(season_id=season.pk, player_id=player.pk)
    rows: list[list[Cell]] = []
    for entry, running in zip(history, running_totals(history), strict=True):
        rows.append(
            [
                entry.played_on,
                entry.match_id,
                kind_name(entry.kind),
                entry.side,
                entry.partner.name if entry.partner else "",
                " & ".join(opponent.name for opponent in entry.opponents),
                entry.total_for,
                entry.total_against,
                entry.net_points,
                running,
                outcome(entry.result),
                entry.counted,
                entry.imps,
            ]
        )
    name = f"{season.club.slug} {player.name} {season.name}"
    return Export(name, _HISTORY_HEADERS, rows)
