"""The events list's cursor (issue 28): a client that follows ``since`` (the id of the last
event listed) sees every event exactly once, however the writers' transactions interleave.

On PostgreSQL these run real concurrent transactions, each thread with its own connection: a
transaction that wrote an event and is still open while a later event commits must not make
the poller step over it. (SQLite runs one writer at a time: there ids commit in order.)
"""

import random
import threading
import time

import psycopg
import pytest
from django.db import connection, transaction

from api.events import event_record
from api.models import Event, EventType
from matches import services as match_services
from scoring.engine import PassedOut
from tests.api.conftest import PLAYED_ON, build_world

EVENTS = "/api/v1/events/"


class Poller:
    """A client following docs/api/webhooks.md: ``since`` = the id of the last event listed, every
    page of the answer read."""

    def __init__(self, client, since: int = 0):
        self.client = client
        self.since = since
        self.seen: list[int] = []

    def poll(self) -> list[int]:
        got: list[int] = []
        page = 1
        while True:
            response = self.client.get(EVENTS, {"since": self.since, "page": page})
            assert response.status_code == 200, response.content
            body = response.json()
            got += [event["id"] for event in body["results"]]
            if not body["next"]:
                break
            page += 1
        if got:
            self.since = got[-1]
        self.seen += got
        return got

    def poll_until(self, wanted: list[int], seconds: float = 30) -> None:
        """Poll until every wanted event was listed (or ``seconds`` passed): an event is
        listed once every older transaction of this database is over, another test's too."""
        deadline = time.monotonic() + seconds
        while not set(wanted) <= set(self.seen) and time.monotonic() < deadline:
            self.poll()
            time.sleep(0.02)


def _last_id() -> int:
    return Event.objects.order_by("-id").values_list("id", flat=True).first() or 0


def _write(club_id: int) -> int:
    return event_record(club_id=club_id, type=EventType.DEAL_RECORDED, data={}).pk


def _in_thread(target) -> threading.Thread:
    def run():
        try:
            target()
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_an_event_committed_after_a_later_one_is_not_skipped(on_postgres):
    """The deal that completes a match takes longer: a later id commits first."""
    world = build_world()
    club = world.a.club.pk
    poller = Poller(world.client("director_a"), since=_last_id())
    written, release = threading.Event(), threading.Event()
    slow: list[int] = []

    def slow_writer():
        with transaction.atomic():
            slow.append(_write(club))
            written.set()
            assert release.wait(10)

    thread = _in_thread(slow_writer)
    assert written.wait(10)
    fast = _write(club)  # a later id, committed at once
    assert fast > slow[0]
    poller.poll()  # the slow one is not committed yet: the fast one may wait for it
    release.set()
    thread.join()
    poller.poll_until([slow[0], fast])
    assert sorted(poller.seen) == sorted([slow[0], fast])  # each exactly once


@pytest.mark.django_db(transaction=True)
def test_an_older_transaction_writing_a_later_id_does_not_hide_a_younger_ones_event(
    on_postgres,
):
    """The transaction that began first (the smaller transaction id) writes its event last
    and commits while a younger one, whose event has the smaller id, is still open: listing
    ids in order below the oldest open transaction would step over the younger one's."""
    world = build_world()
    club = world.a.club.pk
    poller = Poller(world.client("director_a"), since=_last_id())
    old_began, young_wrote, old_may_write, young_may_commit = (threading.Event() for _ in "1234")
    ids: dict[str, int] = {}

    def old():
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_current_xact_id()")  # its transaction id, taken now
            old_began.set()
            assert old_may_write.wait(10)
            ids["old"] = _write(club)

    def young():
        assert old_began.wait(10)
        with transaction.atomic():
            ids["young"] = _write(club)
            young_wrote.set()
            assert young_may_commit.wait(10)

    threads = [_in_thread(old), _in_thread(young)]
    assert young_wrote.wait(10)
    old_may_write.set()
    threads[0].join()  # the old one committed, the young one is open
    assert ids["old"] > ids["young"]
    poller.poll()
    young_may_commit.set()
    threads[1].join()
    poller.poll_until(list(ids.values()))
    assert sorted(poller.seen) == sorted(ids.values())


@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_and_a_fast_poller_see_every_event_once(on_postgres):
    """Three clients record deals, each transaction held open a random while after its
    event; a fourth polls every few milliseconds. It sees each event once, none skipped."""
    world = build_world()
    matches = [world.a.match]
    for _ in range(2):
        matches.append(
            match_services.match_create(
                club=world.a.club,
                kind="chicago",
                seats=dict(zip("NESW", world.a.players, strict=True)),
                played_on=PLAYED_ON,
            )
        )
    start = _last_id()
    poller = Poller(world.client("director_a"), since=start)
    done = threading.Event()
    failures: list[BaseException] = []

    def writer(match, seed: int):
        chance = random.Random(seed)
        try:
            for _ in range(3):
                with transaction.atomic():
                    match_services.deal_record(match=match, result=PassedOut())
                    time.sleep(chance.uniform(0, 0.15))
        except BaseException as error:  # reported by the test below
            failures.append(error)

    def poll():
        while not done.is_set():
            poller.poll()
            time.sleep(0.005)

    polling = _in_thread(poll)
    writers = [_in_thread(lambda m=m, n=n: writer(m, n)) for n, m in enumerate(matches)]
    for thread in writers:
        thread.join()
    done.set()
    polling.join()
    assert not failures, failures
    written = list(Event.objects.filter(pk__gt=start).values_list("pk", flat=True))
    poller.poll_until(written)
    assert len(written) >= 9
    assert len(poller.seen) == len(set(poller.seen))  # none twice
    assert sorted(poller.seen) == sorted(written)  # none skipped


@pytest.mark.django_db
def test_the_cursor_resumes_after_the_last_event_listed(world, director_a):
    """On any database: ``since`` = the last event listed lists what came after it, and an
    id no event has any more (its club removed) resumes after the events before it."""
    club = world.a.club.pk
    first = _write(club)
    second = _write(club)
    third = _write(club)
    poller = Poller(director_a, since=first)
    assert poller.poll() == [second, third]
    assert poller.poll() == []
    fourth = _write(club)
    assert poller.poll() == [fourth]
    Event.objects.filter(pk=second).delete()
    assert Poller(director_a, since=second).poll() == [third, fourth]
    assert Poller(director_a, since=fourth + 1000).poll() == []


@pytest.mark.django_db(transaction=True)
def test_an_event_held_back_by_an_older_transaction_is_not_hidden_by_a_304(on_postgres):
    """The list grows when an older transaction ends, whatever it wrote: its Last-Modified is
    when it was read, so If-Modified-Since never answers 304 over an event it now lists."""
    world = build_world()
    client = world.client("director_a")
    poller = Poller(client, since=_last_id())
    began, may_end = threading.Event(), threading.Event()

    def older():  # a transaction of nobody's club data, older than the event
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_current_xact_id()")
            began.set()
            assert may_end.wait(10)

    thread = _in_thread(older)
    assert began.wait(10)
    event = _write(world.a.club.pk)
    first = client.get(EVENTS, {"since": poller.since})
    assert first.status_code == 200 and event not in [e["id"] for e in first.json()["results"]]
    may_end.set()
    thread.join()
    deadline = time.monotonic() + 30  # another test's transaction may hold the list back
    while time.monotonic() < deadline:
        again = client.get(
            EVENTS, {"since": poller.since}, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"]
        )
        if again.status_code == 200 and again.json()["results"]:
            break
        time.sleep(0.05)
    assert again.status_code == 200
    assert [e["id"] for e in again.json()["results"]] == [event]


@pytest.mark.django_db(transaction=True)
def test_a_transaction_of_another_database_holds_nothing_back(on_postgres):
    """Transaction ids are the server's: an older transaction still open in another database
    on the same server (another site, a parallel test worker) writes no event here, so the
    list does not wait for it; one of this database, opened the same way, does."""
    world = build_world()
    client = world.client("director_a")
    poller = Poller(client, since=_last_id())
    params = connection.get_connection_params()
    elsewhere = psycopg.connect(**{**params, "dbname": "postgres"}, autocommit=False)
    here = psycopg.connect(**params, autocommit=False)
    try:
        for other in (elsewhere, here):
            other.execute("SELECT pg_current_xact_id()")  # an id, older than the events'
        first = _write(world.a.club.pk)
        here.rollback()  # this database's older transaction ends: the event is final
        poller.poll_until([first])
        assert poller.seen == [first]
        here.execute("SELECT pg_current_xact_id()")
        second = _write(world.a.club.pk)
        assert poller.poll() == []  # held back by this database's older transaction
        here.rollback()
        poller.poll_until([second])
        assert poller.seen == [first, second]  # the other database's is open all along
        assert elsewhere.info.transaction_status == psycopg.pq.TransactionStatus.INTRANS
    finally:
        elsewhere.close()
        here.close()
