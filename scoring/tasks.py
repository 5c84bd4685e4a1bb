"""Celery tasks that keep season ladders current (thin wrappers around ``scoring.services``),
and their enqueueing: a change's recalculation is queued once it commits, at most one queued
and not started per season.

Both acknowledge late and are re-queued if their worker dies (``acks_late`` and
``reject_on_worker_lost``, set for every task in settings and repeated here): a recalculation
is one transaction and idempotent, so running it again after a lost worker is always right.
A worker killed outright (SIGKILL, a lost machine) leaves its message unacknowledged in Redis,
which hands it out again after the broker's visibility timeout
(``CELERY_VISIBILITY_TIMEOUT``). Each run logs one line.
"""

import logging
import time
from collections.abc import Iterable
from datetime import timedelta

from celery import Task, shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from clubs.models import Season

from . import services
from .models import RunTrigger
from .selectors import seasons_behind, seasons_by_club, seasons_for_the_night

logger = logging.getLogger(__name__)

# A season of 25,000 matches takes under a second, ten of them a few seconds.
SEASON_SOFT_TIME_LIMIT = 5 * 60
SEASON_TIME_LIMIT = 6 * 60
NIGHTLY_SOFT_TIME_LIMIT = 60  # only enqueues one task per club
NIGHTLY_TIME_LIMIT = 90
# The catch-up (every minute): changes of the last day (older ones the nightly run covers),
# and a change saved up to a minute before a run started may have committed after it read.
CATCH_UP_WINDOW = timedelta(days=1)
CATCH_UP_MARGIN = timedelta(minutes=1)
PENDING_TTL = 10 * 60
"""Seconds a "recalculation already queued" mark lives, in case its task is lost (the
catch-up, ``standings_enqueue``, does not trust the mark: it queues regardless)."""


@shared_task(  # type: ignore[untyped-decorator]  # celery ships no types
    bind=True,
    name="scoring.recalculate_season",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=SEASON_SOFT_TIME_LIMIT,
    time_limit=SEASON_TIME_LIMIT,
)
def recalculate_season(
    self: Task, season_id: int, *, trigger: str = RunTrigger.CHANGE, pause: float = 0.0
) -> int | None:
    """Rebuild one season's standings; returns the run id (None if the season is gone).
    ``pause`` is for tests only: seconds to wait inside the transaction."""
    # From now on a new change enqueues a new run: this one may read before it commits.
    cache.delete(pending_key(season_id))
    redelivered = bool((self.request.delivery_info or {}).get("redelivered"))
    logger.info(
        "standings run started: season=%s trigger=%s task=%s redelivered=%s",
        season_id,
        trigger,
        self.request.id,
        redelivered,
    )
    start = time.perf_counter()
    try:
        run = services.standings_recalculate(season_id=season_id, trigger=trigger, pause=pause)
    except Season.DoesNotExist:
        logger.warning("standings run skipped: season=%s no longer exists", season_id)
        return None
    except Exception:
        logger.exception(
            "standings run failed: season=%s trigger=%s task=%s after %.3fs",
            season_id,
            trigger,
            self.request.id,
            time.perf_counter() - start,
        )
        raise
    logger.info(
        "standings run done: season=%s run=%s matches=%s players=%s seconds=%.3f "
        "trigger=%s task=%s redelivered=%s",
        season_id,
        run.id,
        run.matches_counted,
        run.players_ranked,
        time.perf_counter() - start,
        trigger,
        self.request.id,
        redelivered,
    )
    return run.id


@shared_task(  # type: ignore[untyped-decorator]  # celery ships no types
    bind=True,
    name="scoring.recalculate_seasons",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=SEASON_SOFT_TIME_LIMIT,
    time_limit=SEASON_TIME_LIMIT,
)
def recalculate_seasons(
    self: Task, season_ids: list[int], *, trigger: str = RunTrigger.NIGHTLY
) -> list[int]:
    """Rebuild several seasons' standings (one club's, for the nightly run) in one
    transaction; returns the run ids."""
    start = time.perf_counter()
    runs = services.standings_recalculate_seasons(season_ids=season_ids, trigger=trigger)
    logger.info(
        "standings runs done: seasons=%s runs=%s matches=%s players=%s seconds=%.3f "
        "trigger=%s task=%s redelivered=%s",
        ",".join(str(run.season_id) for run in runs),
        ",".join(str(run.id) for run in runs),
        sum(run.matches_counted for run in runs),
        sum(run.players_ranked for run in runs),
        time.perf_counter() - start,
        trigger,
        self.request.id,
        bool((self.request.delivery_info or {}).get("redelivered")),
    )
    return [run.id for run in runs]


@shared_task(  # type: ignore[untyped-decorator]  # celery ships no types
    name="scoring.recalculate_active_seasons",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=NIGHTLY_SOFT_TIME_LIMIT,
    time_limit=NIGHTLY_TIME_LIMIT,
)
def recalculate_active_seasons() -> list[int]:
    """The nightly recalculation: one ``recalculate_seasons`` task per club (so a lost worker
    repeats one club, not all of them, and the clubs spread over the workers), for its seasons
    that are open, never computed or behind their ladder (``seasons_for_the_night``)."""
    today = timezone.now().date()
    clubs = seasons_by_club(seasons_for_the_night(today=today, margin=CATCH_UP_MARGIN))
    for season_ids in clubs.values():
        recalculate_seasons.delay(season_ids, trigger=RunTrigger.NIGHTLY)
    logger.info(
        "nightly standings: %s seasons of %s clubs enqueued",
        sum(len(ids) for ids in clubs.values()),
        len(clubs),
    )
    return [season for ids in clubs.values() for season in ids]


@shared_task(  # type: ignore[untyped-decorator]  # celery ships no types
    name="scoring.recalculate_seasons_behind",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=NIGHTLY_SOFT_TIME_LIMIT,
    time_limit=NIGHTLY_TIME_LIMIT,
)
def recalculate_seasons_behind() -> list[int]:
    """The catch-up, every minute (beat): queue a recalculation of every season with a match
    changed since its ladder's latest run started. A change queues its own recalculation when
    it commits, but that is lost if the broker is down at that moment (Redis stopped) or the
    process dies right after the commit, or between setting the season's "queued" mark and
    publishing the task; this queues it again once the broker answers, whatever the mark says.
    Returns the seasons it queued."""
    seasons = seasons_behind(since=timezone.now() - CATCH_UP_WINDOW, margin=CATCH_UP_MARGIN)
    queued, failed = [], []
    error: Exception | None = None
    for season_id in seasons:
        try:
            standings_enqueue(season_id=season_id)
        except Exception as exc:
            failed.append(season_id)
            error = exc
        else:
            queued.append(season_id)
    if queued:
        logger.info("standings catch-up: queued seasons=%s", ",".join(map(str, queued)))
    if failed:
        logger.error(
            "standings catch-up: could not queue seasons=%s: %s: %s",
            ",".join(map(str, failed)),
            type(error).__name__,
            error,
        )
    return queued


# --- enqueueing ----------------------------------------------------------------------------


def seasons_refresh_on_commit(*, season_ids: Iterable[int], **signal: object) -> None:
    """The receiver of ``clubs.signals.seasons_changed`` (connected in ``ScoringConfig.ready``):
    each season's ladder is recalculated once the change commits."""
    for season_id in sorted(season_ids):
        standings_refresh_on_commit(season_id=season_id)


def pending_key(season_id: int) -> str:
    """The cache key that marks a recalculation of the season as queued and not started."""
    return f"standings-pending:{settings.DATABASES['default']['NAME']}:{season_id}"


def standings_refresh_on_commit(*, season_id: int) -> None:
    """Enqueue a recalculation of the season once the current transaction commits (at once
    outside a transaction). Changes that commit while a recalculation of the season is queued
    and not yet started share it: that run reads after they committed."""

    def enqueue() -> None:
        if cache.add(pending_key(season_id), 1, timeout=PENDING_TTL):
            _publish(season_id)
        # Otherwise one is queued and has not started: it will see this change.

    transaction.on_commit(enqueue, robust=True)


def standings_enqueue(*, season_id: int) -> None:
    """Enqueue a recalculation of the season now, whatever the "queued" mark says: the
    catch-up's way, since a mark outlives a process killed after setting it and before
    publishing its task. The mark is set again, so changes that commit before this run
    starts share it. Raises if the broker does not take the task."""
    cache.set(pending_key(season_id), 1, timeout=PENDING_TTL)
    _publish(season_id)


def _publish(season_id: int) -> None:
    """Send the season's recalculation task, its "queued" mark already set; drop the mark
    if the broker does not take the task, so that the next change tries again."""
    try:
        recalculate_season.delay(season_id, trigger=RunTrigger.CHANGE)
    except Exception:
        cache.delete(pending_key(season_id))
        raise
