"""A round taken back while a deal is being recorded at one of its tables, on PostgreSQL (real
row locks, each thread on its own connection): whichever takes the match's row first wins,
and a deal never lands on a deleted match. The undo locks the night, then the round's
matches; recording a deal (by the director, or entered at the table) locks the match."""

import threading
import time

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction

from matches.models import Deal, Match
from matches.services import deal_record
from nights.models import Round, TableCode, TableEntry
from nights.services import night_round_undo, table_entry_submit
from scoring.engine import PassedOut
from tests.nights.tables import started_night

pytestmark = pytest.mark.django_db(transaction=True)

HOLD = 1.0  # seconds the first holds its locks, long enough for the second to wait on them


def in_thread(work, raised: list, started: threading.Event | None = None):
    def run():
        try:
            if started is not None:
                started.wait(timeout=30)
            work()
        except BaseException as error:  # asserted by the test
            raised.append(error)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


def test_a_deal_recorded_first_stops_the_round_being_taken_back(on_postgres):
    night = started_night()
    match = Match.objects.filter(table__session=night.session).order_by("pk").first()
    locked = threading.Event()
    raised_deal: list = []
    raised_undo: list = []

    def record():
        with transaction.atomic():
            deal_record(match=match.pk, result=PassedOut())
            locked.set()
            time.sleep(HOLD)  # the undo waits on the match's row meanwhile

    def undo():
        night_round_undo(night=night, number=1)

    recorder = in_thread(record, raised_deal)
    undoer = in_thread(undo, raised_undo, started=locked)
    recorder.join(timeout=60)
    undoer.join(timeout=60)
    assert raised_deal == []
    [error] = raised_undo
    assert isinstance(error, ValidationError)
    assert error.error_dict["round"][0].code == "deal_recorded"
    assert Deal.objects.filter(match=match).count() == 1
    assert Round.objects.filter(night=night).count() == 1


def test_a_round_taken_back_first_leaves_no_deal_nor_entry_behind(on_postgres):
    night = started_night()
    one, two = Match.objects.filter(table__session=night.session).order_by("table__number")
    code = TableCode.objects.get(night=night, table_number=2, revoked_at=None)
    locked = threading.Event()
    raised_undo: list = []
    raised_deal: list = []
    raised_entry: list = []

    def undo():
        with transaction.atomic():
            night_round_undo(night=night, number=1)
            locked.set()
            time.sleep(HOLD)  # the deal and the entry wait on the matches' rows meanwhile

    def record():
        deal_record(match=one.pk, result=PassedOut())

    def enter():
        table_entry_submit(code=code, sequence=1, entered_by=two.north_id, result=PassedOut())

    undoer = in_thread(undo, raised_undo)
    locked.wait(timeout=30)
    recorder = in_thread(record, raised_deal)
    enterer = in_thread(enter, raised_entry)
    for thread in (undoer, recorder, enterer):
        thread.join(timeout=60)
    assert raised_undo == []
    for raised in (raised_deal, raised_entry):
        [error] = raised
        assert isinstance(error, ValidationError), error
        assert "match" in error.error_dict or "code" in error.error_dict
    assert not Match.objects.filter(pk__in=[one.pk, two.pk]).exists()
    assert not Deal.objects.exists() and not TableEntry.objects.exists()
    assert not Round.objects.filter(night=night).exists()
