"""Webhooks end to end through a real Celery worker, on PostgreSQL and Redis (CI's second
run): a local receiver on 127.0.0.1 (allowed by WEBHOOKS_ALLOW_HTTP_LOOPBACK), workers started
as subprocesses with beat inside (the sweep every second, a one-second backoff, a three-second
claim). A receiver that answers 500 and a worker killed while sending lose no event: each is
delivered at least once, with its id to tell repeats apart."""

import contextlib
import os
import signal
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from api import webhooks
from api.models import Delivery, DeliveryStatus, Event, WebhookEndpoint
from config.celery import app as celery_app
from matches import services as match_services
from scoring.engine import Played
from scoring.models import RunStatus, StandingsRun
from scoring.tasks import pending_key
from tests.api.conftest import build_club
from tests.deploy import procfile_argv
from tests.scoring.conftest import test_database_url  # noqa: F401  (a fixture)
from tests.scoring.test_worker import CELERY, ROOT, VISIBILITY_TIMEOUT, Worker, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


class Receiver:
    """Answers each POST with the next of ``codes`` (then 200); ``hold`` makes the next
    request wait until ``release`` is set. ``delivered``: event ids answered 2xx."""

    def __init__(self, codes=()):
        self.codes = list(codes)
        self.received: list[tuple[str, int]] = []  # (event id, code answered)
        self.hold = False
        self.holding = threading.Event()
        self.release = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                if receiver.hold:
                    receiver.hold = False
                    receiver.holding.set()
                    receiver.release.wait(30)
                code = receiver.codes.pop(0) if receiver.codes else 200
                receiver.received.append((self.headers["Partscore-Event-Id"], code))
                try:
                    self.send_response(code)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                except OSError:
                    pass  # the worker that asked is gone

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def delivered(self) -> set[str]:
        return {event for event, code in self.received if 200 <= code < 300}

    def close(self):
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver():
    made: list[Receiver] = []

    def make(codes=()):
        made.append(Receiver(codes))
        return made[-1]

    yield make
    for server in made:
        server.close()


class BeatWorker(Worker):
    """A worker that runs beat too (``--beat``), its schedule file its own, and consumes both
    queues (the deliveries' ``webhooks`` and the default). Beat runs in a
    child process of the worker: both are killed together (their own process group), or a
    beat left running would go on queuing the schedule's tasks for the tests after this one."""

    def __init__(self, name: str, env: dict, log: Path):
        self.name, self.log = name, log
        self._out = log.open("wb")
        self.process = subprocess.Popen(
            [
                str(CELERY), "-A", "config", "worker", "--beat",
                f"--schedule={log.with_suffix('.beat')}",
                "--queues=celery,webhooks", "--pool=solo", "--concurrency=1", "--loglevel=INFO",
                "--without-gossip",
                "--without-mingle", "--without-heartbeat", f"--hostname={name}@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        self.kill()  # also a beat whose worker was killed before
        self._out.close()


@pytest.fixture
def hook_workers(test_database_url, with_redis, transactional_db, tmp_path):  # noqa: F811
    """Start workers with ``hook_workers(name)``; all are killed at the end."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": test_database_url,
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT),
        "LOG_FORMAT": "plain",
        "LOG_LEVEL": "INFO",
        "WEBHOOKS_ALLOW_HTTP_LOOPBACK": "1",
        "WEBHOOKS_BACKOFF_SECONDS": "1",
        "WEBHOOKS_BACKOFF_MAX_SECONDS": "1",
        "WEBHOOKS_LEASE_SECONDS": "3",
        "WEBHOOKS_SWEEP_SECONDS": "1",
    }
    queues_purged()  # tasks other tests left in the queues without a worker
    started: list[Worker] = []

    def start(name: str) -> Worker:
        worker = BeatWorker(name, env, tmp_path / f"{name}.log")
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def an_endpoint(world_club, url) -> WebhookEndpoint:
    return WebhookEndpoint.objects.create(
        club=world_club,
        url=url,
        events=["deal.recorded", "match.completed"],
        secret=webhooks.new_secret(),
    )


@pytest.fixture
def a_match(transactional_db):
    """A club with a Chicago that has one deal (committed: the workers read it)."""
    return build_club("Hooks", "hooks", "hooks-director")


def test_a_receiver_answering_500_gets_the_event_after_retries(hook_workers, receiver, a_match):
    server = receiver([500, 500])
    an_endpoint(a_match.club, server.url)
    hook_workers("retrying")
    match_services.deal_record(match=a_match.match, result=Played("3NT", "N", 9))
    event = Event.objects.filter(type="deal.recorded").latest("id")
    wait_until(lambda: str(event.pk) in server.delivered(), "the event delivered")
    assert [code for _event, code in server.received] == [500, 500, 200]
    delivery = Delivery.objects.get(event=event)
    wait_until(
        lambda: Delivery.objects.get(pk=delivery.pk).status == DeliveryStatus.SUCCEEDED,
        "the delivery marked delivered",
    )
    assert Delivery.objects.get(pk=delivery.pk).attempts == 3


def test_a_worker_killed_while_sending_loses_no_event(hook_workers, receiver, a_match):
    server = receiver()
    server.hold = True  # the first request waits: its worker is killed meanwhile
    an_endpoint(a_match.club, server.url)
    first = hook_workers("doomed")
    for deal in [Played("1C", "E", 6), Played("2H", "S", 8), Played("1S", "W", 6)]:
        match_services.deal_record(match=a_match.match, result=deal)
    expected = {
        str(pk)
        for pk in Event.objects.filter(club=a_match.club).values_list("pk", flat=True)
        if Delivery.objects.filter(event_id=pk).exists()
    }
    assert len(expected) == 4  # three deals and the match completed
    assert server.holding.wait(45), first.text()
    first.kill()
    server.release.set()
    hook_workers("heir")
    wait_until(lambda: expected <= server.delivered(), "every event delivered")
    wait_until(
        lambda: (
            set(Delivery.objects.filter(event__club=a_match.club).values_list("status", flat=True))
            == {DeliveryStatus.SUCCEEDED}
        ),
        "every delivery marked delivered",
    )
    assert {event for event, _code in server.received} == expected


# --- a queue of their own: a slow receiver never holds a ladder (issue 28) -------------------


class ProcfileWorker(Worker):
    """A worker started with the Procfile's command line for ``process`` (so its queues), in
    one process (the solo pool: the fewest a deployment could have), in its own process
    group (killed whole at the end)."""

    def __init__(self, process: str, env: dict, log: Path):
        self.name, self.log = process, log
        self._out = log.open("wb")
        self.process = subprocess.Popen(
            [
                *procfile_argv(process),
                "--pool=solo", "--concurrency=1", "--without-gossip", "--without-mingle",
                "--without-heartbeat", f"--hostname={process}-test@%h",
            ],
            cwd=ROOT,
            env=env,
            stdout=self._out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)
        self._out.close()


def queues_purged() -> None:
    """Tasks other tests left in either queue without a worker."""
    with celery_app.connection_for_write() as connection:
        for queue in (settings.CELERY_TASK_DEFAULT_QUEUE, "webhooks"):
            connection.default_channel.queue_purge(queue)


class SlowReceiver:
    """Answers each POST after ``seconds`` (or at once when closed)."""

    def __init__(self, seconds: float):
        self.requests = 0
        self.closing = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                receiver.requests += 1
                receiver.closing.wait(seconds)
                with contextlib.suppress(OSError):
                    self.send_response(200)
                    self.send_header("Content-Length", "0")
                    self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.closing.set()
        self.server.shutdown()
        self.server.server_close()


def test_a_slow_receiver_does_not_delay_a_ladder(
    test_database_url,  # noqa: F811
    with_redis,
    transactional_db,
    tmp_path,
):
    queues_purged()
    side = build_club("Slow", "slow", "slow-director")  # a Chicago with its first deal
    cache.delete(pending_key(side.season.id))  # a mark an earlier run left for this id
    receiver = SlowReceiver(seconds=10)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.test_settings",
        "DATABASE_URL": test_database_url,
        "REDIS_URL": settings.REDIS_URL,
        "CELERY_VISIBILITY_TIMEOUT": "60",
        "LOG_FORMAT": "plain",
        "LOG_LEVEL": "INFO",
        "WEBHOOKS_ALLOW_HTTP_LOOPBACK": "1",
        "WEBHOOKS_TIMEOUT": "15",  # the worker waits the receiver's 10 s out
        "WEBHOOKS_LEASE_SECONDS": "30",
    }
    workers = [
        ProcfileWorker(name, env, tmp_path / f"{name}.log") for name in ("worker", "webhooks")
    ]
    try:
        for worker in workers:
            worker.wait_for("ready.")
        WebhookEndpoint.objects.create(
            club=side.club, url=receiver.url, events=["deal.recorded"], secret="whsec_s"
        )
        match_services.deal_record(match=side.match, result=Played("2H", "E", 8))
        wait_until(lambda: receiver.requests == 1, "the receiver to be sent the first deal")
        # A worker now waits on the receiver; more deliveries queue up behind it.
        match_services.deal_record(match=side.match, result=Played("1NT", "S", 7))
        match_services.deal_record(match=side.match, result=Played("3C", "W", 9))
        committed_at = timezone.now()  # the fourth deal, which completes the match, is in
        run = wait_until(
            lambda: StandingsRun.objects.filter(
                season=side.season, matches_counted=1, status=RunStatus.DONE
            ).first(),
            "the ladder's recalculation after the match was completed",
            timeout=20,
        )
        late = (run.finished_at - committed_at).total_seconds()
        assert late < 1, f"the ladder was {late:.1f} s late: {workers[0].text()}"
        assert receiver.requests == 1  # still the first delivery: the receiver was slow
    finally:
        receiver.close()
        for worker in workers:
            worker.stop()
