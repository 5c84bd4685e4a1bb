"""Two recordings of the same deal at once, on PostgreSQL: the match row lock serializes
them, so exactly one wins and the other gets a clear conflict."""

import threading

import pytest
from django.db import connection

from matches.models import Deal, Match
from matches.services import MatchConflict, ScoredDeal, deal_record, match_create
from scoring.engine import Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players, seats_of


def record_at_once(match_id, entries):
    """Run ``deal_record`` for each entry in its own thread and connection, all released at
    the same moment; returns what each thread's call returned or raised."""
    barrier = threading.Barrier(len(entries))
    outcomes = [None] * len(entries)

    def run(index, entry):
        try:
            match = Match.objects.get(pk=match_id)
            barrier.wait(timeout=10)
            outcomes[index] = deal_record(match=match, **entry)
        except Exception as error:  # collected and asserted below
            outcomes[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=item) for item in enumerate(entries)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.fixture
def match(transactional_db, on_postgres):
    club = make_club()
    return match_create(
        club=club, kind="chicago", seats=seats_of(make_players(club)), played_on=PLAY_DATE
    )


def test_two_recordings_of_deal_one_exactly_one_wins(match):
    entry = {"result": Played("4S", "N", 10), "expected_sequence": 1}
    other = {"result": Played("3NT", "E", 9), "expected_sequence": 1}
    outcomes = record_at_once(match.pk, [entry, other])
    deals = [o for o in outcomes if isinstance(o, ScoredDeal)]
    conflicts = [o for o in outcomes if isinstance(o, MatchConflict)]
    assert len(deals) == 1 and len(conflicts) == 1, outcomes
    assert "already recorded" in str(conflicts[0])
    stored = list(Deal.objects.filter(match=match))
    assert [(d.sequence, d.contract) for d in stored] == [(1, deals[0].deal.contract)]
    match.refresh_from_db()
    assert match.total_ns + match.total_ew == deals[0].row.ns + deals[0].row.ew


def test_recordings_without_expected_sequence_queue_up(match):
    entries = [{"result": Played("1C", seat, 7)} for seat in "NESW"]
    outcomes = record_at_once(match.pk, entries)
    assert all(isinstance(o, ScoredDeal) for o in outcomes), outcomes
    assert sorted(o.deal.sequence for o in outcomes) == [1, 2, 3, 4]
    match.refresh_from_db()
    assert match.status == "complete"
