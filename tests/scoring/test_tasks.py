"""The Celery tasks and their configuration: late acknowledgement, re-queueing, time limits,
one log line per run, the nightly schedule."""

import logging
from datetime import UTC, date, datetime, timedelta

import pytest
from celery.schedules import crontab
from django.conf import settings
from django.core.cache import cache

from config.celery import app
from scoring.models import Standing, StandingsRun
from scoring.tasks import (
    pending_key,
    recalculate_active_seasons,
    recalculate_season,
    recalculate_seasons,
    standings_refresh_on_commit,
)
from tests.scoring.factories import make_club, make_players, make_season, stored_match


def test_tasks_acknowledge_late_are_requeued_when_their_worker_dies_and_have_time_limits():
    assert settings.CELERY_TASK_ACKS_LATE is True
    assert settings.CELERY_TASK_REJECT_ON_WORKER_LOST is True
    for task in (recalculate_season, recalculate_seasons, recalculate_active_seasons):
        assert task.acks_late is True
        assert task.reject_on_worker_lost is True
        assert 0 < task.soft_time_limit < task.time_limit <= settings.CELERY_TASK_TIME_LIMIT
    # A dead worker's task goes back to the queue only after the visibility timeout, which
    # must be longer than any task may run (or a live task would be handed out twice).
    visibility = settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"]
    assert visibility > recalculate_season.time_limit or visibility < 60  # tests use seconds


def test_the_nightly_recalculation_is_scheduled_at_03_15_utc():
    entry = settings.CELERY_BEAT_SCHEDULE["recalculate-standings-nightly"]
    assert entry["task"] == recalculate_active_seasons.name
    assert entry["task"] in app.tasks
    schedule = entry["schedule"]
    assert isinstance(schedule, crontab)
    assert (schedule.hour, schedule.minute) == ({3}, {15})
    assert app.conf.timezone == "UTC"
    schedule.tz = UTC
    # Seen at 03:14 UTC, the next run is due in 60 seconds.
    now = datetime(2025, 6, 1, 3, 14, tzinfo=UTC)
    schedule.nowfun = lambda: now
    assert schedule.remaining_estimate(datetime(2025, 5, 31, 3, 15, tzinfo=UTC)) == (
        datetime(2025, 6, 1, 3, 15, tzinfo=UTC) - now
    )


@pytest.mark.django_db
def test_a_run_logs_one_line_and_returns_its_run(eager_tasks, caplog):
    season = make_season(make_club())
    ann, bob = make_players(season.club, "Ann", "Bob")
    stored_match(season, date(2025, 2, 1), (ann, bob), (500, 0), "NS")

    with caplog.at_level(logging.INFO, logger="scoring.tasks"):
        run_id = recalculate_season.delay(season.id).get()

    run = StandingsRun.objects.get(id=run_id)
    assert (run.season_id, run.trigger, run.matches_counted) == (season.id, "change", 1)
    done = [r.getMessage() for r in caplog.records if "standings run done" in r.getMessage()]
    assert len(done) == 1
    assert f"season={season.id} run={run_id} matches=1 players=2" in done[0]


@pytest.mark.django_db
def test_a_run_for_a_season_that_is_gone_is_skipped(eager_tasks, caplog):
    with caplog.at_level(logging.INFO, logger="scoring.tasks"):
        assert recalculate_season.delay(987654).get() is None
    assert "season=987654 no longer exists" in caplog.text


@pytest.mark.django_db
def test_the_nightly_task_recalculates_every_season_with_activity_one_task_per_club(
    eager_tasks, monkeypatch
):
    club, other_club = make_club(), make_club()
    busy, idle = make_season(club, 2025), make_season(club, 2024)
    older = make_season(club, 2023)
    elsewhere = make_season(other_club, 2025)
    ann, bob = make_players(club, "Ann", "Bob")
    stored_match(busy, date(2025, 2, 1), (ann, bob), (500, 0), "NS")
    stored_match(older, date(2023, 2, 1), (ann, bob), (0, 0), "", status="abandoned")
    cid, dot = make_players(other_club, "Cid", "Dot")
    stored_match(elsewhere, date(2025, 2, 1), (cid, dot), (0, 90), "EW")
    batches = []
    original = recalculate_seasons.delay
    monkeypatch.setattr(
        recalculate_seasons, "delay", lambda ids, **kw: batches.append(ids) or original(ids, **kw)
    )

    assert sorted(recalculate_active_seasons.delay().get()) == sorted(
        [busy.id, older.id, elsewhere.id]
    )

    assert sorted(batches) == sorted([sorted([busy.id, older.id]), [elsewhere.id]])
    assert set(StandingsRun.objects.values_list("season", "trigger")) == {
        (busy.id, "nightly"),
        (older.id, "nightly"),
        (elsewhere.id, "nightly"),
    }
    assert Standing.objects.filter(season=busy).count() == 2
    assert Standing.objects.filter(season=elsewhere).count() == 2
    assert not StandingsRun.objects.filter(season=idle).exists()


# --- enqueueing ----------------------------------------------------------------------------


@pytest.fixture
def season(db):
    return make_season(make_club())


def test_refresh_on_commit_recalculates_after_the_commit(
    season, eager_tasks, django_capture_on_commit_callbacks
):
    players = tuple(make_players(season.club, "Ann", "Bob"))
    stored_match(season, date(2025, 3, 4), players, (500, 0), "NS")
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        standings_refresh_on_commit(season_id=season.id)
    assert len(callbacks) == 1
    assert not StandingsRun.objects.exists()  # nothing before the commit

    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh_on_commit(season_id=season.id)

    run = StandingsRun.objects.get(season=season)
    assert (run.trigger, run.matches_counted) == ("change", 1)
    assert [row.player.name for row in Standing.objects.filter(season=season)] == ["Ann", "Bob"]
    assert cache.get(pending_key(season.id)) is None


def test_changes_while_a_run_is_queued_share_it(
    season, eager_tasks, django_capture_on_commit_callbacks, monkeypatch
):
    queued = []
    monkeypatch.setattr(recalculate_season, "delay", lambda *a, **kw: queued.append((a, kw)))
    cache.delete(pending_key(season.id))
    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh_on_commit(season_id=season.id)
    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh_on_commit(season_id=season.id)
    assert queued == [((season.id,), {"trigger": "change"})]

    # Once the queued run starts, the next change queues another.
    monkeypatch.undo()
    recalculate_season.delay(season.id)
    monkeypatch.setattr(recalculate_season, "delay", lambda *a, **kw: queued.append((a, kw)))
    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh_on_commit(season_id=season.id)
    assert len(queued) == 2
    cache.delete(pending_key(season.id))


def test_a_broker_failure_does_not_block_later_refreshes(
    season, django_capture_on_commit_callbacks, monkeypatch
):
    def down(*args, **kwargs):
        raise ConnectionError("broker down")

    monkeypatch.setattr(recalculate_season, "delay", down)
    cache.delete(pending_key(season.id))
    with django_capture_on_commit_callbacks(execute=True):  # robust: the request goes on
        standings_refresh_on_commit(season_id=season.id)
    assert cache.get(pending_key(season.id)) is None


@pytest.mark.django_db
def test_the_nightly_task_leaves_a_closed_season_that_did_not_change(eager_tasks, monkeypatch):
    """Issue 32: the night's work grows with what is open or changed, not with every season
    ever played. Computed once, a closed season is rebuilt again only after a change."""
    from django.utils import timezone

    from matches.models import Match

    today = timezone.now().date()
    club = make_club()
    ann, bob = make_players(club, "Ann", "Bob")
    current = make_season(club, today.year)
    closed = make_season(club, today.year - 3)
    stored_match(current, date(today.year, 1, 1), (ann, bob), (500, 0), "NS")
    old_match = stored_match(closed, date(today.year - 3, 2, 1), (ann, bob), (0, 90), "EW")
    an_hour = timedelta(hours=1)
    Match.objects.update(updated_at=timezone.now() - an_hour)  # played long before the night
    assert sorted(recalculate_active_seasons.delay().get()) == sorted([current.id, closed.id])
    assert recalculate_active_seasons.delay().get() == [current.id]  # open: every night
    Match.objects.filter(pk=old_match.pk).update(updated_at=timezone.now())  # corrected
    assert sorted(recalculate_active_seasons.delay().get()) == sorted([current.id, closed.id])
    last_run = StandingsRun.objects.filter(season=closed).latest("started_at")
    Match.objects.filter(pk=old_match.pk).update(updated_at=last_run.started_at - an_hour)
    assert recalculate_active_seasons.delay().get() == [current.id]
