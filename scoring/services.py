"""Writes of the scoring app: recalculating a season's standings.

``standings_recalculate`` rebuilds one season's ladder in one transaction, holding a lock on
the season row, so two recalculations of a season at once run one after the other and leave
one correct set of rows (the second sees everything the first saw, and more). Reading a ladder
never computes it: ``scoring.selectors`` reads the stored rows.

``standings_refresh_on_commit`` is what the match services call after a change: once the
transaction commits, it enqueues ``scoring.tasks.recalculate_season`` (run in-process on the
embedded default, so the ladder is current when the request returns).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from clubs.models import Player, Season
from matches.models import Match, MatchStatus

from .ladder import compute_ladder
from .models import RunStatus, RunTrigger, Standing, StandingsRun

logger = logging.getLogger(__name__)

RUNS_KEPT = 10
"""Runs kept per season (the latest); older ones are deleted by each recalculation."""
PENDING_TTL = 10 * 60
"""Seconds a "recalculation already queued" mark lives, in case its task is lost."""
_NAMES_CHUNK = 500  # player ids per query when reading names (SQLite's variable limit)

# The columns of a counted match, in scoring.ladder.CountedMatch order.
COUNTED_MATCH_FIELDS = (
    "north_id",
    "east_id",
    "south_id",
    "west_id",
    "total_ns",
    "total_ew",
    "winner",
)


def counted_matches(season_id: int):
    """A season's counted (complete) matches in playing order: session date, then match id
    (the order matches were entered). Abandoned and in-progress matches do not count."""
    return (
        Match.objects.filter(table__session__season_id=season_id, status=MatchStatus.COMPLETE)
        .order_by("table__session__date", "id")
        .values_list(*COUNTED_MATCH_FIELDS)
    )


def _player_names(player_ids: Iterable[int]) -> dict[int, str]:
    ids = sorted(player_ids)
    names: dict[int, str] = {}
    for start in range(0, len(ids), _NAMES_CHUNK):
        chunk = ids[start : start + _NAMES_CHUNK]
        names.update(Player.objects.filter(id__in=chunk).values_list("id", "name"))
    return names


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
    started = timezone.now()
    try:
        with transaction.atomic():
            club = (
                Season.objects.select_for_update(of=("self",))
                .filter(id=season_id)
                .values_list("club__ladder_min_matches", "club__ladder_rounding")
                .first()
            )
            if club is None:
                raise Season.DoesNotExist(f"no season with id {season_id}")
            min_matches, rounding = club
            if pause:
                time.sleep(pause)
            rows = list(counted_matches(season_id))
            players = {player for row in rows for player in row[:4] if player is not None}
            ladder = compute_ladder(
                rows, names=_player_names(players), min_matches=min_matches, rounding=rounding
            )
            Standing.objects.filter(season_id=season_id).delete()
            run = StandingsRun.objects.create(
                season_id=season_id,
                trigger=trigger,
                started_at=started,
                matches_counted=len(rows),
                players_ranked=len(ladder),
            )
            Standing.objects.bulk_create(
                (
                    Standing(
                        run_id=run.id,
                        season_id=season_id,
                        player_id=row.player_id,
                        position=row.position,
                        rank=row.rank,
                        qualified=row.qualified,
                        matches=row.matches,
                        wins=row.wins,
                        draws=row.draws,
                        losses=row.losses,
                        net_points=row.net_points,
                        average=row.average,
                        best=row.best,
                        worst=row.worst,
                        rating=row.rating,
                    )
                    for row in ladder
                ),
                batch_size=1000,
            )
            run.status = RunStatus.DONE
            run.finished_at = timezone.now()
            run.save(update_fields=["status", "finished_at"])
            _prune_runs(season_id)
            return run
    except Season.DoesNotExist:
        raise
    except Exception as error:
        _record_failure(season_id, trigger=trigger, started=started, error=error)
        raise


def _prune_runs(season_id: int) -> None:
    old = list(
        StandingsRun.objects.filter(season_id=season_id)
        .order_by("-id")
        .values_list("id", flat=True)[RUNS_KEPT:]
    )
    if old:
        StandingsRun.objects.filter(id__in=old).delete()


def _record_failure(season_id: int, *, trigger: str, started, error: BaseException) -> None:
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


def pending_key(season_id: int) -> str:
    """The cache key that marks a recalculation of the season as queued and not started."""
    return f"standings-pending:{settings.DATABASES['default']['NAME']}:{season_id}"


def standings_refresh_on_commit(*, season_id: int) -> None:
    """Enqueue a recalculation of the season once the current transaction commits (at once
    outside a transaction). Changes that commit while a recalculation of the season is queued
    and not yet started share it: that run reads after they committed."""

    def enqueue() -> None:
        from .tasks import recalculate_season

        key = pending_key(season_id)
        if not cache.add(key, 1, timeout=PENDING_TTL):
            return  # one is queued and has not started: it will see this change
        try:
            recalculate_season.delay(season_id, trigger=RunTrigger.CHANGE)
        except Exception:
            cache.delete(key)
            raise

    transaction.on_commit(enqueue, robust=True)


def standings_recalculate_all(
    *, season_ids: Iterable[int] | None = None, trigger: str = RunTrigger.COMMAND
) -> list[StandingsRun]:
    """Recalculate the given seasons (default: every season with activity), one transaction
    each, in this process. For ``manage.py recalculate_standings`` and the benchmark."""
    from .selectors import seasons_with_activity

    ids = list(season_ids) if season_ids is not None else seasons_with_activity()
    return [standings_recalculate(season_id=season_id, trigger=trigger) for season_id in ids]
