"""The players' pad in each of its states, for the page checks (test_a11y, test_phones): a
table's entry link in each state, to open in a browser (``/t/<token>/`` then ``/table/``)."""

from datetime import timedelta

from clubs.services import player_create
from nights.models import TableCode
from nights.services import (
    night_round_start,
    night_start,
    table_entry_answer,
    table_entry_submit,
)
from nights.table_selectors import current_match
from scoring.engine import Played
from tests.web.conftest import DAY, WORKED_CHICAGO, play

PLAYED_TWO = [("3NT", "N", 9), ("3NT", "N", 9)]


def _code(night, number):
    return TableCode.objects.get(night=night, table_number=number, revoked_at=None)


def _enter(code, seat, contract="4S", declarer="N", tricks=10):
    match = current_match(code=code)
    return table_entry_submit(
        code=code,
        sequence=match.deals.count() + 1,
        entered_by=match.seat_ids[seat],
        result=Played(contract, declarer, tricks),
    )


def pad_tables(club, players, *, first_day=DAY + timedelta(days=10)) -> dict[str, str]:
    """Entry links by the state their table's pad is in: a Chicago with a deal recorded and
    the next waiting for the other side; Draw Bridge at a table of two, a deal rejected; a
    match over; a match with no deal yet."""
    more = [player_create(club=club, name=f"Pad player {n}") for n in range(1, 3)]
    first = night_start(
        club=club,
        date=first_day,
        players=players[:6],
        movement="round_robin",
        rounds=3,
        remainder="two_player",
    )
    night_round_start(night=first)
    chicago, two = _code(first, 1), _code(first, 2)
    entry = _enter(chicago, "N")
    match = current_match(code=chicago)
    table_entry_answer(code=chicago, entry=entry.pk, player=match.seat_ids["E"], accept=True)
    _enter(chicago, "E", contract="3NT", declarer="E", tricks=9)
    rejected = _enter(two, "N", contract="3NT", declarer="N", tricks=9)
    table_entry_answer(
        code=two, entry=rejected.pk, player=current_match(code=two).seat_ids["E"], accept=False
    )
    second = night_start(
        club=club,
        date=first_day + timedelta(days=1),
        players=[*players[:6], *more],
        movement="round_robin",
        rounds=3,
    )
    night_round_start(night=second)
    over, fresh = _code(second, 1), _code(second, 2)
    played = current_match(code=over)
    play(played, WORKED_CHICAGO)
    return {
        "pad: a deal waiting": chicago.token,
        "pad: Draw Bridge, a deal rejected": two.token,
        "pad: the match over": over.token,
        "pad: the first deal": fresh.token,
    }
