"""Writes of the scoring app: recalculating a season's standings.

``standings_recalculate`` rebuilds one season's ladder in one transaction, holding a lock on
the season row, so two recalculations of a season at once run one after the other and leave
one correct set of rows (the second sees everything the first saw, and more). Reading a ladder
never computes it: ``scoring.selectors`` reads the stored rows.

A change reaches the ladders through ``clubs.signals.seasons_changed``, whose receiver
(``scoring.tasks.seasons_refresh_on_commit``) enqueues the recalculation once it commits.
"""

from __future__ import annotations

import datetime
import logging
import time
from collections.abc import Iterable
from functools import partial
from itertools import groupby
from operator import itemgetter
from typing import Any

from django.db import connection, transaction
from django.db.models import F, QuerySet
from django.utils import timezone

from clubs.models import LADDER_OPTIONS, Player, Season
from clubs.transactions import retried
from matches.models import Match, MatchStatus

from .ladder import LadderRow, compute_ladder
from .models import RunStatus, RunTrigger, Standing, StandingsRun
from .selectors import ladder_options, latest_run, seasons_by_club
from .signals import ladders_changed

logger = logging.getLogger(__name__)

RUNS_KEPT = 10
"""Runs kept per season (the latest); older ones are deleted by each recalculation."""
_STREAM_CHUNK = 10_000  # matches per fetch from the server-side cursor
# A counted_matches row (its season first) -> CountedMatch order.
_WITHOUT_SEASON = itemgetter(*range(1, 10))

# The columns of a counted match, in scoring.ladder.CountedMatch order.
COUNTED_MATCH_FIELDS = (
    "north_id",
    "east_id",
    "south_id",
    "west_id",
    "total_ns",
    "total_ew",
    "winner",
    "par_ns",
    "table__session_id",
)
# The columns of a standings row, as written.
STANDING_FIELDS = (
    "run_id",
    "season_id",
    "player_id",
    "position",
    "rank",
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
    "nets",
    "imps",
    "handicapped",
    "updated_at",  # COPY runs no auto_now: the recalculation gives it
)


# What a line shows, as stored: the STANDING_FIELDS between the player and updated_at.
_LINE = STANDING_FIELDS[3:-1]


def _line(row: LadderRow) -> tuple[Any, ...]:
    """A computed ladder row as its stored line's ``_LINE`` columns."""
    return (
        row.position,
        row.rank,
        row.qualified,
        row.matches,
        row.counted,
        row.wins,
        row.draws,
        row.losses,
        row.points,
        row.net_points,
        row.average,
        row.best,
        row.worst,
        row.rating,
        " ".join(map(str, row.nets)),
        row.imps,
        row.handicapped,
    )


def _stored_lines(season_ids: list[int]) -> dict[int, dict[int, tuple[tuple[Any, ...], Any]]]:
    """The seasons' stored lines: by season, by player, (the ``_LINE`` columns, updated_at)."""
    stored: dict[int, dict[int, tuple[tuple[Any, ...], Any]]] = {
        season: {} for season in season_ids
    }
    for season, player, updated, *line in Standing.objects.filter(
        season_id__in=season_ids
    ).values_list("season_id", "player_id", "updated_at", *_LINE):
        stored[season][player] = (tuple(line), updated)
    return stored


def counted_matches(season_ids: Iterable[int]) -> QuerySet[Match, tuple[Any, ...]]:
    """The counted (complete) matches of the seasons, as (season id, *CountedMatch) rows, by
    season and in playing order: session date, then match id (the order matches were
    entered). Abandoned and in-progress matches do not count."""
    return (
        Match.objects.filter(
            table__session__season_id__in=list(season_ids), status=MatchStatus.COMPLETE
        )
        .order_by("table__session__season_id", "table__session__date", "id")
        .values_list("table__session__season_id", *COUNTED_MATCH_FIELDS)
    )


def _with_player_names(names: dict[int, str], player_ids: set[int]) -> dict[int, str]:
    """``names`` after reading the names of the players not yet in it."""
    missing = sorted(player_ids - names.keys())
    chunk = connection.features.max_query_params or len(missing) or 1
    for start in range(0, len(missing), chunk):
        ids = missing[start : start + chunk]
        names.update(Player.objects.filter(id__in=ids).values_list("id", "name"))
    return names


def _write_standings(rows: list[tuple[Any, ...]]) -> None:
    """Insert standings rows (tuples in STANDING_FIELDS order): COPY on PostgreSQL, the
    fastest way in, and bulk_create elsewhere."""
    if connection.vendor == "postgresql":
        columns = ", ".join(field for field in STANDING_FIELDS)
        with (
            connection.cursor() as cursor,
            cursor.cursor.copy(f"COPY {Standing._meta.db_table} ({columns}) FROM STDIN") as copy,
        ):
            for row in rows:
                copy.write_row(row)
        return
    Standing.objects.bulk_create(
        (Standing(**dict(zip(STANDING_FIELDS, row, strict=True))) for row in rows),
        batch_size=500,
    )


def standings_recalculate(
    *,
    season_id: int,
    trigger: str = RunTrigger.OTHER,
    pause: float = 0.0,
) -> StandingsRun:
    """Rebuild the standings of one season from its counted matches, in one transaction.

    Locks the season row first (``SELECT ... FOR UPDATE``; on SQLite the transaction takes
    the database's write lock at BEGIN), so concurrent recalculations of one season queue up
    and the last one to commit leaves the rows of everything committed before it read. Replaces
    the season's rows, records the run and prunes older runs. Idempotent. Raises
    ``Season.DoesNotExist`` for an unknown season. ``pause`` (seconds) waits inside the
    transaction after taking the lock: only tests use it, to stop a run half-way.

    If the recalculation raises, nothing it wrote stays and a "failed" run records the error.
    """
    runs = standings_recalculate_seasons(season_ids=[season_id], trigger=trigger, pause=pause)
    if not runs:
        raise Season.DoesNotExist(f"no season with id {season_id}")
    return runs[0]


def standings_recalculate_seasons(
    *,
    season_ids: Iterable[int],
    trigger: str = RunTrigger.OTHER,
    pause: float = 0.0,
) -> list[StandingsRun]:
    """Rebuild the standings of several seasons in one transaction (the nightly run of a
    club's seasons): as ``standings_recalculate`` for each, but reading all their matches in
    one pass through a server-side cursor. Seasons that do not exist are skipped. Returns
    the runs in season id order."""
    ids = sorted(set(season_ids))
    started = timezone.now()

    def recalculate() -> list[StandingsRun]:
        nonlocal ids
        with transaction.atomic():
            # Locks in id order, as every recalculation takes them: no deadlock. FOR NO KEY
            # UPDATE: recalculations (and history imports) of a season queue up, while the
            # foreign-key checks of the rows that name the season (a new match, session or
            # event) never wait for them (they take FOR KEY SHARE, which FOR UPDATE blocks).
            options = {
                values["id"]: ladder_options(values)
                for values in Season.objects.select_for_update(of=("self",), no_key=True)
                .filter(id__in=ids)
                .order_by("id")
                .values("id", **{name: F(f"club__{name}") for name in LADDER_OPTIONS})
            }
            ids = [season for season in ids if season in options]
            if not ids:
                return []
            if pause:
                time.sleep(pause)
            names: dict[int, str] = {}
            ladders: dict[int, tuple[int, list[LadderRow]]] = {season: (0, []) for season in ids}
            stream = counted_matches(ids).iterator(chunk_size=_STREAM_CHUNK)
            for season, group in groupby(stream, key=itemgetter(0)):
                rows = list(map(_WITHOUT_SEASON, group))
                ladder = compute_ladder(
                    rows, names=partial(_with_player_names, names), options=options[season]
                )
                ladders[season] = (len(rows), ladder)

            # Only a season whose ladder came out other than stored (or never computed) is
            # rewritten and announced: no event, new ETag or updated_at for no change. A line
            # that came out as it was keeps its updated_at.
            stored = _stored_lines(ids)
            computed = set(
                StandingsRun.objects.filter(season_id__in=ids, status=RunStatus.DONE, changed=True)
                .values_list("season_id", flat=True)
                .distinct()
            )
            changed = [
                season
                for season in ids
                if season not in computed
                or {row.player_id: _line(row) for row in ladders[season][1]}
                != {player: line for player, (line, _at) in stored[season].items()}
            ]
            Standing.objects.filter(season_id__in=changed).delete()
            runs = [
                StandingsRun.objects.create(
                    season_id=season,
                    trigger=trigger,
                    started_at=started,
                    matches_counted=ladders[season][0],
                    players_ranked=len(ladders[season][1]),
                    nets_low=min((min(row.nets) for row in ladders[season][1]), default=0),
                    nets_high=max((max(row.nets) for row in ladders[season][1]), default=0),
                    changed=season in changed,
                )
                for season in ids
            ]
            written = timezone.now()

            lines = []
            for run in runs:
                if not run.changed:
                    continue
                for row in ladders[run.season_id][1]:
                    line = _line(row)
                    was = stored[run.season_id].get(row.player_id)
                    at = was[1] if was is not None and was[0] == line else written
                    lines.append((run.id, run.season_id, row.player_id, *line, at))
            _write_standings(lines)
            finished = timezone.now()
            StandingsRun.objects.filter(id__in=[run.id for run in runs]).update(
                status=RunStatus.DONE, finished_at=finished
            )
            for run in runs:
                run.status, run.finished_at = RunStatus.DONE, finished
                _prune_runs(run.season_id)
            if changed:
                ladders_changed.send(sender=Season, season_ids=changed)
            return runs

    try:
        # Run again if the database ends it to break a deadlock (clubs.transactions).
        return retried(recalculate)()
    except Exception as error:
        for season in ids:
            _record_failure(season, trigger=trigger, started=started, error=error)
        raise


def _prune_runs(season_id: int) -> None:
    """Delete the season's runs but the latest ``RUNS_KEPT`` and the one whose rows are stored
    (its latest that changed the ladder: the rows go with their run)."""
    old = list(
        StandingsRun.objects.filter(season_id=season_id)
        .order_by("-id")
        .values_list("id", flat=True)[RUNS_KEPT:]
    )
    if old:
        shown = latest_run(season_id=season_id)
        pruned = StandingsRun.objects.filter(id__in=old)
        if shown is not None:
            pruned = pruned.exclude(id=shown.pk)
        pruned.delete()


def _record_failure(
    season_id: int, *, trigger: str, started: datetime.datetime, error: BaseException
) -> None:
    """Leave a "failed" run behind a recalculation that raised (its own rows were rolled
    back). Never raises: the original error is what the caller must see."""
    try:
        if transaction.get_connection().needs_rollback:
            return  # inside a caller's transaction that is rolling back: nothing would stay
        StandingsRun.objects.create(
            season_id=season_id,
            status=RunStatus.FAILED,
            trigger=trigger,
            started_at=started,
            finished_at=timezone.now(),
            error=f"{type(error).__name__}: {error}"[:2000],
        )
    except Exception:
        logger.exception("could not record the failed standings run of season %s", season_id)


def standings_recalculate_all(
    *, season_ids: Iterable[int] | None = None, trigger: str = RunTrigger.COMMAND
) -> list[StandingsRun]:
    """Recalculate the given seasons (default: every season with activity) in this process:
    one transaction per club, for ``manage.py recalculate_standings`` and the benchmark."""
    runs = []
    for club_season_ids in seasons_by_club(season_ids).values():
        runs += standings_recalculate_seasons(season_ids=club_season_ids, trigger=trigger)
    return runs
