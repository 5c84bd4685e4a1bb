"""The evening when it does not go to plan (docs/nights.md): a round started by mistake taken
back, a wrong seat put right, a match that cannot finish ended by the director, and a closed
night reopened. Through the services, errors keyed by field."""

import datetime

import pytest
from django.core.exceptions import ValidationError

from clubs.models import Table
from matches.models import Match, MatchStatus
from matches.services import (
    MatchConflict,
    deal_record,
    match_abandon,
    match_delete,
    match_seats_change,
)
from nights.models import EntryState, Round, TableCode, TableEntry
from nights.selectors import night_plan, night_results
from nights.services import (
    night_close,
    night_reopen,
    night_round_start,
    night_round_undo,
    night_seats_swap,
    table_code_renew,
    table_entry_submit,
)
from scoring.engine import PassedOut, Played
from tests.nights.test_services import play, play_round, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    from tests.clubs.factories import make_club

    return make_club()


def codes(night):
    return {c.table_number: c.short_code for c in TableCode.objects.filter(night=night)}


def live(night):
    return {
        c.table_number: c.short_code for c in TableCode.objects.filter(night=night, revoked_at=None)
    }


def field(error, name):
    return error.value.message_dict[name]


# --- a round taken back -----------------------------------------------------------------------


def test_a_round_taken_back_leaves_the_night_as_before(club):
    night, _ = start(club, 9, rounds=3)  # two tables, one sits out
    planned = night_plan(night=night).rounds[0]
    night_round_start(night=night)
    assert set(codes(night)) == {1, 2}
    night_round_undo(night=night, number=1)
    assert not Round.objects.filter(night=night).exists()
    assert not Match.objects.filter(table__session=night.session).exists()
    assert not Table.objects.filter(session=night.session).exists()
    assert codes(night) == {}
    plan = night_plan(night=night)
    assert plan.next.number == 1 and not plan.next.waiting
    assert plan.rounds[0] == planned
    # Started again, the round is the same round.
    again = night_round_start(night=night)
    assert again.number == 1 and again.sitting_out == [p.id for p in planned.sitting_out]


def test_the_codes_of_an_earlier_round_stay_only_the_rounds_own_go(club):
    # A fixed night: one table in round 1, a second one added in round 2.
    from scoring.engine import Round as PlannedRound
    from scoring.engine import Table as PlannedTable

    night, players = start(club, 12, movement="fixed", rounds=3)
    ids = [p.pk for p in players]
    first = night_round_start(night=night, seating=PlannedRound((PlannedTable(1, *ids[:4]),)))
    play_round(first)
    renewed = table_code_renew(night=night, table_number=1)
    before = live(night)
    seating = PlannedRound((PlannedTable(1, *ids[4:8]), PlannedTable(2, *ids[8:12])))
    second = night_round_start(night=night, seating=seating)
    assert set(live(night)) == {1, 2}
    table_code_renew(night=night, table_number=1)  # renewed during round 2: stays
    table_code_renew(night=night, table_number=2)  # table 2's codes all came with round 2
    kept = live(night)[1]
    night_round_undo(night=night, number=second.number)
    assert live(night) == {1: kept}
    assert not TableCode.objects.filter(night=night, table_number=2).exists()
    # Table 1's code of round 1, renewed then, is still there (revoked since).
    assert before[1] == renewed.short_code
    assert TableCode.objects.filter(night=night, short_code=renewed.short_code).exists()
    assert list(Table.objects.filter(session=night.session).values_list("number", flat=True)) == [1]
    assert night_plan(night=night).next.number == 2


def test_a_round_with_a_deal_or_a_waiting_entry_is_not_taken_back(club):
    night, _ = start(club, 8)
    round = night_round_start(night=night)
    one, two = round.matches.order_by("table__number")
    code = TableCode.objects.get(night=night, table_number=2)
    table_entry_submit(code=code, sequence=1, entered_by=two.north_id, result=PassedOut())
    with pytest.raises(ValidationError) as error:
        night_round_undo(night=night, number=1)
    assert field(error, "round") == [
        "A deal has been entered at table 2: this round can no longer be taken back."
    ]
    assert error.value.error_dict["round"][0].code == "entry_waiting"
    TableEntry.objects.update(state=EntryState.WITHDRAWN)
    deal_record(match=one, result=PassedOut())
    with pytest.raises(ValidationError) as error:
        night_round_undo(night=night, number=1)
    assert error.value.error_dict["round"][0].code == "deal_recorded"
    assert Round.objects.filter(night=night).count() == 1 and Match.objects.count() == 2


def test_only_the_last_round_of_an_open_night_is_taken_back(club):
    night, _ = start(club, 4)
    with pytest.raises(ValidationError) as error:
        night_round_undo(night=night, number=1)
    assert error.value.error_dict["round"][0].code == "no_round"
    play_round(night_round_start(night=night))
    night_round_start(night=night)
    for number in (1, 3, "2", None):
        with pytest.raises(ValidationError) as error:
            night_round_undo(night=night, number=number)
        assert field(error, "round") == ["Only the last round started, round 2, can be changed."]
    night_close(night=night)
    with pytest.raises(ValidationError) as error:
        night_round_undo(night=night, number=2)
    assert error.value.error_dict["round"][0].code == "night_closed"
    assert Round.objects.filter(night=night).count() == 2


def test_a_match_with_a_deal_is_never_deleted(club):
    night, _ = start(club, 4)
    match = night_round_start(night=night).matches.get()
    deal_record(match=match, result=PassedOut())
    with pytest.raises(MatchConflict):
        match_delete(match=match)
    with pytest.raises(MatchConflict):
        match_seats_change(match=match, seats={"N": match.east_id, "E": match.north_id})
    assert Match.objects.filter(pk=match.pk).exists()


def test_an_entry_sent_for_a_match_taken_back_is_refused(club):
    night, _ = start(club, 4)
    match = night_round_start(night=night).matches.get()
    code = TableCode.objects.get(night=night)
    night_round_undo(night=night, number=1)
    with pytest.raises(ValidationError):
        table_entry_submit(code=code, sequence=1, entered_by=match.north_id, result=PassedOut())


# --- a wrong seat put right --------------------------------------------------------------------


def seated(round):
    return {
        pk: (m.table.number, seat)
        for m in Match.objects.filter(pk__in=round.matches.all()).select_related("table")
        for seat, pk in m.seat_ids.items()
    }


def test_two_players_change_places_at_one_table_or_two(club):
    night, _ = start(club, 8)
    round = night_round_start(night=night)
    where = seated(round)
    one, two = round.matches.order_by("table__number")
    night_seats_swap(night=night, number=1, player=one.north_id, other=one.east_id)
    now = seated(round)
    assert now[one.north_id] == where[one.east_id] and now[one.east_id] == where[one.north_id]
    night_seats_swap(night=night, number=1, player=one.south_id, other=two.west_id)
    now = seated(round)
    assert now[one.south_id] == (2, "W") and now[two.west_id] == (1, "S")
    # The night shows the seats as they are now, and the next round is planned as before.
    table = night_plan(night=night).rounds[0].tables[0]
    assert table.seats["S"].id == two.west_id


def test_a_player_sitting_out_takes_the_seat(club):
    night, _ = start(club, 5)
    round = night_round_start(night=night)
    [out] = round.sitting_out
    match = round.matches.get()
    night_seats_swap(night=night, number=1, player=match.north_id, other=out)
    round.refresh_from_db()
    assert round.sitting_out == [match.north_id]
    assert Match.objects.get(pk=match.pk).north_id == out
    assert night_plan(night=night).rounds[0].sitting_out[0].id == match.north_id


def test_a_seat_is_not_put_right_after_the_tables_first_deal(club):
    night, _ = start(club, 9)
    round = night_round_start(night=night)
    one, two = round.matches.order_by("table__number")
    [out] = round.sitting_out
    deal_record(match=one, result=PassedOut())
    with pytest.raises(ValidationError) as error:
        night_seats_swap(night=night, number=1, player=two.north_id, other=one.north_id)
    assert field(error, "other") == [
        "A deal has been entered at table 1: its seats can no longer change."
    ]
    # Table 2 has no deal: its seat is still put right.
    night_seats_swap(night=night, number=1, player=out, other=two.north_id)
    assert Match.objects.get(pk=two.pk).north_id == out


def test_a_swap_names_the_field_it_refuses(club):
    night, _ = start(club, 10)
    round = night_round_start(night=night)
    match = round.matches.order_by("table__number").first()
    a, b = round.sitting_out
    cases = [
        ({"player": match.north_id, "other": match.north_id}, "other", "same"),
        ({"player": 10**6, "other": match.north_id}, "player", "not_in_round"),
        ({"player": match.north_id, "other": "x"}, "other", "required"),
        ({"player": a, "other": b}, "other", "both_sitting_out"),
    ]
    for kwargs, name, code in cases:
        with pytest.raises(ValidationError) as error:
            night_seats_swap(night=night, number=1, **kwargs)
        assert error.value.error_dict[name][0].code == code, kwargs
    match_abandon(match=match)
    with pytest.raises(ValidationError) as error:
        night_seats_swap(night=night, number=1, player=a, other=match.north_id)
    assert error.value.error_dict["other"][0].code == "match_over"
    with pytest.raises(ValidationError) as error:
        night_seats_swap(night=night, number=2, player=a, other=match.north_id)
    assert "round" in error.value.message_dict
    assert seated(round)[match.north_id][1] == "N"


# --- a match that cannot finish ------------------------------------------------------------------


def test_an_abandoned_match_lets_the_next_round_start_and_counts_for_nothing(club):
    night, _ = start(club, 8)
    round = night_round_start(night=night)
    one, two = round.matches.order_by("table__number")
    play(one)
    deal_record(match=two, result=Played("7NT", "N", 13))
    assert night_plan(night=night).next.waiting
    match_abandon(match=two)
    assert not night_plan(night=night).next.waiting
    lines = {line.line.player_id: line.line for line in night_results(night=night).lines}
    assert lines[two.north_id].net == 0 and lines[two.north_id].matches == 0
    assert lines[one.north_id].net > 0
    assert Match.objects.get(pk=two.pk).status == MatchStatus.ABANDONED


# --- closing undone ------------------------------------------------------------------------------


def test_a_closed_night_starts_no_round_until_it_is_reopened(club):
    night, _ = start(club, 8)
    play_round(night_round_start(night=night))
    night_round_start(night=night)
    old = live(night)
    night_close(night=night)
    assert live(night) == {}
    with pytest.raises(ValidationError) as error:
        night_round_start(night=night)
    assert error.value.error_dict["round"][0].code == "night_closed"
    assert night_plan(night=night).next.waiting
    night_reopen(night=night)
    night.refresh_from_db()
    assert night.closed_at is None
    new = live(night)
    assert set(new) == {1, 2} and not set(new.values()) & set(old.values())
    # The old codes stay revoked.
    assert not TableCode.objects.filter(
        night=night, short_code__in=old.values(), revoked_at=None
    ).exists()
    # Reopening an open night changes nothing.
    night_reopen(night=night)
    assert live(night) == new


def test_reopening_a_night_before_its_first_round_makes_no_code(club):
    night, _ = start(club, 4)
    night_close(night=night)
    night_reopen(night=night)
    assert codes(night) == {} and night_round_start(night=night).number == 1


def test_started_at_separates_the_rounds_codes(club):
    """A table code made in the same second as the round is the round's."""
    night, _ = start(club, 4)
    round = night_round_start(night=night)
    code = TableCode.objects.get(night=night)
    assert code.created_at >= round.started_at
    assert round.started_at - code.created_at < datetime.timedelta(seconds=1)
