"""Ladders through a real Celery worker, on PostgreSQL and Redis (CI's second run).

Each test starts its own worker as a subprocess (``celery -A config worker --pool=solo``) on
the test database (pytest-django's ``test_<name>``, passed as DATABASE_URL) and the suite's
Redis, with a visibility timeout of a few seconds so that a killed worker's task comes back
quickly. The data is committed (``transactional_db``) so that the worker sees it.
"""

import os
import signal
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import connection
from rest_framework.test import APIClient

from clubs.models import Player
from clubs.services import club_create, player_create, season_create
from config.celery import app as celery_app
from matches.services import match_create
from scoring.ladder import LadderOptions, compute_ladder
from scoring.models import RunStatus, Standing, StandingsRun
from scoring.services import counted_matches, standings_recalculate
from scoring.tasks import pending_key, recalculate_season
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

ROOT = Path(__file__).resolve().parents[2]
CELERY = Path(sys.executable).parent / "celery"
# Seconds before Redis hands out again a task that was not acknowledged: longer than any run
# here (or a live run would be handed out twice), short enough to wait for after a kill.
VISIBILITY_TIMEOUT = 4
WAIT = 45  # seconds at most for anything a worker does (a few, normally)


class Worker:
    def __init__(self, name: str, env: dict, log: Path):
        self.name, self.log = name, log
        self._out = log.open("wb")
        self.process = subprocess.Popen(
            [
                str(CELERY),
                "-A",
                "config",
                "worker",
                "--pool=solo",
                "--concurrency=1",
                "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                f"--hostname={name}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
        )

    def text(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, needle: str, timeout: float = WAIT) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.text():
            if self.process.poll() is not None:
                pytest.fail(f"worker {self.name} exited:\n{self.text()}")
            if time.monotonic() > deadline:
                pytest.fail(f"worker {self.name} never logged {needle!r}:\n{self.text()}")
            time.sleep(0.05)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.kill()  # the test is over: nothing of the worker's is left to finish
        self._out.close()


@pytest.fixture
def workers(test_database_url, with_redis, transactional_db, tmp_path):
    """Start workers with ``workers(name)``; all are stopped at the end."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": test_database_url,
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "LOG_FORMAT": "plain",
        "LOG_LEVEL": "INFO",
    }
    celery_app.control.purge()  # tasks other tests left in the queue without a worker
    started: list[Worker] = []

    def start(name: str) -> Worker:
        worker = Worker(name, env, tmp_path / f"{name}.log")
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def wait_until(condition, what: str, timeout: float = WAIT):
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)
    return value


def stored_ladder(season_id: int) -> list[tuple]:
    return list(
        Standing.objects.filter(season_id=season_id)
        .order_by("position")
        .values_list(
            "player_id", "rank", "qualified", "matches", "wins", "draws", "losses",
            "net_points", "average", "best", "worst", "rating",
        )
    )  # fmt: skip


def computed_ladder(season_id: int, min_matches: int = 0) -> list[tuple]:
    """The ladder straight from scoring.ladder, in the same shape."""
    rows = [row[1:] for row in counted_matches([season_id])]
    names = dict(Player.objects.values_list("id", "name"))
    return [
        (
            row.player_id, row.rank, row.qualified, row.matches, row.wins, row.draws,
            row.losses, row.net_points, row.average, row.best, row.worst, row.rating,
        )
        for row in compute_ladder(rows, names=names, options=LadderOptions(min_matches))
    ]  # fmt: skip


def a_season_with_matches(matches: int = 6):
    season = make_season(make_club())
    players = make_players(season.club, "Ann", "Bob", "Cid", "Dot", "Eve", "Fay")
    for n in range(matches):
        seats = tuple(players[(n + i) % 6] for i in range(4))
        stored_match(season, date(2025, 2, 1 + n), seats, (100 * n, 250), "NS" if n > 2 else "EW")
    return season, players


def test_deals_recorded_through_the_api_update_the_ladder_through_the_worker(workers):
    worker = workers("ladder")
    director = get_user_model().objects.create_user(username="worker-boss", password="pw")
    club = club_create(creator=director, name="Worker Club", slug="worker-club", country="GR")
    season = season_create(
        club=club, name="2025", start_date=date(2025, 1, 1), end_date=date(2025, 12, 31)
    )
    cache.delete(pending_key(season.id))
    seats = {
        seat: player_create(club=club, name=name) for seat, name in zip("NESW", "ABCD", strict=True)
    }
    match = match_create(club=club, kind="chicago", seats=seats, played_on=date(2025, 3, 14))
    api = APIClient()
    api.force_authenticate(director)
    for deal in (
        {"contract": "2S", "declarer": "N", "tricks": 8},
        {"passed_out": True},
        {"contract": "2H", "declarer": "S", "tricks": 9},
        {"contract": "3NT", "declarer": "E", "tricks": 8},
        {"contract": "1C", "declarer": "W", "tricks": 7},
    ):
        # Each request commits its deal, then enqueues the season's recalculation.
        response = api.post(f"/api/v1/matches/{match.id}/deals/", deal, format="json")
        assert response.status_code == 201, response.json()

    # The runs before the last deal counted no match; wait for the one after it.
    run = wait_until(
        lambda: StandingsRun.objects.filter(season=season, matches_counted=1).first(),
        "the worker's run after the fourth counted deal",
    )
    assert run.status == RunStatus.DONE and run.trigger == "change"
    assert sorted(
        Standing.objects.filter(season=season).values_list("player__name", "net_points")
    ) == [("A", 380), ("B", -380), ("C", 380), ("D", -380)]
    worker.wait_for(f"standings run done: season={season.id} run={run.id} matches=1")


def test_a_worker_killed_mid_run_leaves_the_old_rows_and_the_redelivered_run_finishes(
    workers,
):
    season, players = a_season_with_matches()
    before = standings_recalculate(season_id=season.id)
    old_rows = stored_ladder(season.id)
    # A change the ladder has not seen yet, so that the killed run would have changed it.
    stored_match(season, date(2025, 3, 1), tuple(players[:4]), (0, 2000), "EW")
    expected = computed_ladder(season.id)
    assert expected != old_rows

    first = workers("doomed")
    recalculate_season.apply_async((season.id,), {"trigger": "other", "pause": 1.5})
    first.wait_for(f"standings run started: season={season.id}")

    def inside_the_transaction():  # the worker holds the season's row lock and sleeps
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND state = 'idle in transaction' AND pid <> pg_backend_pid()"
            )
            return cursor.fetchone()[0] > 0

    wait_until(inside_the_transaction, "the worker to be inside its transaction")
    first.kill()

    assert stored_ladder(season.id) == old_rows  # its transaction was rolled back
    assert list(StandingsRun.objects.filter(season=season).values_list("id", flat=True)) == [
        before.id
    ]

    second = workers("heir")
    run = wait_until(
        lambda: StandingsRun.objects.filter(season=season).exclude(id=before.id).first(),
        "the redelivered run",
    )
    assert (run.status, run.trigger, run.matches_counted) == (RunStatus.DONE, "other", 7)
    assert stored_ladder(season.id) == expected
    second.wait_for(f"standings run done: season={season.id} run={run.id}")
    assert "redelivered=True" in second.text()


def test_two_recalculations_of_a_season_at_once_leave_one_correct_set(workers):
    season, _players = a_season_with_matches()
    expected = computed_ladder(season.id)
    first, second = workers("one"), workers("two")
    first.wait_for("ready.")
    second.wait_for("ready.")

    for _ in range(2):
        recalculate_season.apply_async((season.id,), {"trigger": "other", "pause": 1.0})

    runs = wait_until(
        lambda: (
            list(StandingsRun.objects.filter(season=season, status=RunStatus.DONE).order_by("id"))
            if StandingsRun.objects.filter(season=season, status=RunStatus.DONE).count() == 2
            else None
        ),
        "both runs",
    )
    # Each worker ran one, at the same time: the second waited for the first's lock.
    for worker in (first, second):
        worker.wait_for(f"standings run done: season={season.id}")
    assert runs[1].started_at < runs[0].finished_at
    assert runs[1].finished_at >= runs[0].finished_at
    assert stored_ladder(season.id) == expected
    # The second found the ladder as the first left it: the rows stay the first's (issue 28).
    assert set(Standing.objects.filter(season=season).values_list("run", flat=True)) == {runs[0].id}
    assert [run.changed for run in runs] == [True, False]
