"""The catch-up of ladders whose recalculation was lost: a change queues its own recalculation
when it commits, which is lost if Redis is down at that moment (bench/faults.py stops Redis
for 30 s); every minute ``scoring.recalculate_seasons_behind`` queues it again."""

from datetime import date, timedelta

import pytest
from celery.schedules import schedule as every
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app
from matches import services as match_services
from matches.models import Match
from scoring.models import RunStatus, Standing, StandingsRun
from scoring.selectors import seasons_behind
from scoring.services import pending_key, standings_recalculate
from scoring.tasks import recalculate_season, recalculate_seasons_behind
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
        match_services.deal_record(match=match, contract=contract, declarer="N", tricks=9)
    standings_recalculate(season_id=season.id)
    cache.delete(pending_key(season.id))

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as patched:
        patched.setattr(recalculate_season, "delay", broker_down)
        with django_capture_on_commit_callbacks(execute=True):
            # The deal completes the match; its own recalculation cannot be queued.
            match_services.deal_record(match=match, contract="4S", declarer="E", tricks=10)
    match.refresh_from_db()
    assert match.status == "complete"
    assert not Standing.objects.filter(season=season, matches__gt=0).exists()

    with django_capture_on_commit_callbacks(execute=True):  # the broker answers again
        assert recalculate_seasons_behind() == [season.id]
    run = StandingsRun.objects.filter(season=season, status=RunStatus.DONE).latest("id")
    assert run.matches_counted == 1
    assert Standing.objects.filter(season=season, matches=1).count() == 4
