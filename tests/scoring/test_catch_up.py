"""The catch-up of ladders whose recalculation was lost: a change queues its own recalculation
when it commits, which is lost if Redis is down at that moment (bench/faults.py stops Redis
for 30 s) or the process dies between setting the season's "queued" mark and publishing the
task; every minute ``scoring.recalculate_seasons_behind`` queues it again."""

import os
import subprocess
import sys
from datetime import date, timedelta

import pytest
from celery.schedules import schedule as every
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app
from matches import services as match_services
from matches.models import Match, MatchStatus
from scoring.engine import Played
from scoring.models import RunStatus, Standing, StandingsRun
from scoring.selectors import seasons_behind
from scoring.services import standings_recalculate
from scoring.tasks import (
    PENDING_TTL,
    pending_key,
    recalculate_season,
    recalculate_seasons_behind,
    standings_refresh_on_commit,
)
from tests.deploy import ROOT
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db

A_DAY_AGO = timedelta(days=1)


def a_season_with_a_match():
    season = make_season(make_club())
    players = make_players(season.club, "Ann", "Bob", "Cid", "Dot")
    match = stored_match(season, date(2025, 2, 1), tuple(players), (500, 0), "NS")
    return season, players, match


def behind(margin=timedelta(0)) -> list[int]:
    return seasons_behind(since=timezone.now() - A_DAY_AGO, margin=margin)


def test_a_season_is_behind_until_a_run_starts_after_its_latest_change():
    season, _players, match = a_season_with_a_match()
    assert season.id in behind()  # never computed
    standings_recalculate(season_id=season.id)
    assert season.id not in behind()
    match.save()  # a change after that run started
    assert season.id in behind()
    standings_recalculate(season_id=season.id)
    assert season.id not in behind()
    # With a margin, a change saved shortly before the run started still counts: it may have
    # committed after the run read the matches.
    assert season.id in behind(margin=timedelta(minutes=1))


def test_only_changes_since_the_window_and_finished_runs_count():
    season, _players, match = a_season_with_a_match()
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now() - timedelta(days=2))
    assert season.id not in behind()  # older than the window: the nightly run covers it
    other, _players, _match = a_season_with_a_match()
    StandingsRun.objects.create(
        season=other,
        status=RunStatus.FAILED,
        started_at=timezone.now() + timedelta(minutes=5),
        finished_at=timezone.now() + timedelta(minutes=5),
    )
    assert other.id in behind()  # a failed run computed nothing


def test_a_match_in_progress_changed_puts_no_season_behind():
    """The ladder counts complete matches only: a deal of a match in progress queues no
    recalculation, and the catch-up queues none for it either."""
    season, _players, match = a_season_with_a_match()
    standings_recalculate(season_id=season.id)
    winner = match.winner
    Match.objects.filter(pk=match.pk).update(
        status=MatchStatus.IN_PROGRESS, winner="", updated_at=timezone.now()
    )
    assert season.id not in behind()
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.COMPLETE, winner=winner)
    assert season.id in behind()


def test_the_catch_up_runs_every_minute_and_drops_a_late_run():
    entry = settings.CELERY_BEAT_SCHEDULE["recalculate-standings-behind"]
    assert entry["task"] == recalculate_seasons_behind.name
    assert entry["task"] in app.tasks
    assert every(entry["schedule"]).seconds <= 60
    assert entry["options"]["expires"] < every(entry["schedule"]).seconds
    assert recalculate_seasons_behind.acks_late and recalculate_seasons_behind.reject_on_worker_lost


def test_a_deal_recorded_while_the_broker_is_down_reaches_the_ladder_by_the_catch_up(
    eager_tasks, monkeypatch, django_capture_on_commit_callbacks
):
    season = make_season(make_club())
    players = make_players(season.club, "Ann", "Bob", "Cid", "Dot")
    match = match_services.match_create(
        club=season.club, kind="chicago", seats=dict(zip("NESW", players, strict=True)),
        played_on=date(2025, 3, 1),
    )  # fmt: skip
    for contract in ("1NT", "2S", "3H"):
        match_services.deal_record(match=match, result=Played(contract, "N", 9))
    standings_recalculate(season_id=season.id)
    cache.delete(pending_key(season.id))

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as patched:
        patched.setattr(recalculate_season, "delay", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            # The deal completes the match; its own recalculation cannot be queued.
            match_services.deal_record(match=match, result=Played("4S", "E", 10))
    match.refresh_from_db()
    assert match.status == "complete"
    assert not Standing.objects.filter(season=season, matches__gt=0).exists()

    with django_capture_on_commit_callbacks(execute=True):  # the broker answers again
        assert recalculate_seasons_behind() == [season.id]
    run = StandingsRun.objects.filter(season=season, status=RunStatus.DONE).latest("id")
    assert run.matches_counted == 1
    assert Standing.objects.filter(season=season, matches=1).count() == 4


def a_season_behind_its_ladder():
    season, _players, match = a_season_with_a_match()
    standings_recalculate(season_id=season.id)
    match.save()  # a change the ladder has not seen
    return season


def test_the_catch_up_queues_a_season_whose_mark_outlived_its_task(eager_tasks, caplog):
    season = a_season_behind_its_ladder()
    # What a process killed between setting the mark and publishing the task leaves behind:
    # the mark, and no task.
    assert cache.add(pending_key(season.id), 1, timeout=PENDING_TTL)

    with caplog.at_level("INFO", logger="scoring.tasks"):
        assert recalculate_seasons_behind() == [season.id]

    assert season.id not in behind()  # the queued run read the change
    assert f"standings catch-up: queued seasons={season.id}" in caplog.text


def test_the_catch_up_logs_only_what_it_queued(monkeypatch, caplog):
    season = a_season_behind_its_ladder()
    cache.delete(pending_key(season.id))

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(recalculate_season, "delay", broker_down)
    with caplog.at_level("INFO", logger="scoring.tasks"):
        assert recalculate_seasons_behind() == []

    assert "queued" not in caplog.text
    [record] = [record for record in caplog.records if record.name == "scoring.tasks"]
    assert record.levelname == "ERROR"
    assert record.getMessage().startswith(
        f"standings catch-up: could not queue seasons={season.id}: OperationalError"
    )
    assert cache.get(pending_key(season.id)) is None  # the next change tries again


def test_changes_that_commit_after_the_catch_up_queued_a_run_share_it(
    monkeypatch, django_capture_on_commit_callbacks
):
    season = a_season_behind_its_ladder()
    cache.delete(pending_key(season.id))
    queued = []
    monkeypatch.setattr(recalculate_season, "delay", lambda *a, **kw: queued.append(a))

    assert recalculate_seasons_behind() == [season.id]
    with django_capture_on_commit_callbacks(execute=True):
        standings_refresh_on_commit(season_id=season.id)
    assert queued == [(season.id,)]
    cache.delete(pending_key(season.id))


KILLED_BEFORE_PUBLISHING = """
import os, signal, sys
import django

django.setup()
from scoring import tasks

# The process dies after the commit, between setting the mark and publishing the task.
tasks.recalculate_season.delay = lambda *args, **kwargs: os.kill(os.getpid(), signal.SIGKILL)
tasks.standings_refresh_on_commit(season_id=int(sys.argv[1]))
print("published")
"""


def test_a_process_killed_before_publishing_its_task_is_caught_up(
    test_database_url, with_redis, eager_tasks
):
    season = a_season_behind_its_ladder()
    cache.delete(pending_key(season.id))
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": test_database_url,
        "REDIS_URL": settings.REDIS_URL,
    }
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_BEFORE_PUBLISHING, str(season.id)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert killed.returncode == -9, killed.stderr
    assert "published" not in killed.stdout
    assert cache.get(pending_key(season.id)) == 1  # its mark outlived it, in the shared cache

    assert recalculate_seasons_behind() == [season.id]
    assert season.id not in behind()
