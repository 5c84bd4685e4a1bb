"""The tables' own entry through the services: each table's code, deals entered through it,
the opponents' answer (only a confirmed deal counts), the director's settling, and what a
code can no longer do once renewed or once the night is closed."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from matches.models import Deal, Match
from matches.services import MatchConflict, deal_record, deal_result
from nights.models import EntryState, TableCode, TableEntry
from nights.services import (
    CODE_LENGTH,
    FAILURES_ALLOWED,
    night_close,
    night_round_start,
    table_code_live,
    table_code_open,
    table_code_renew,
    table_entry_answer,
    table_entry_resolve,
    table_entry_submit,
)
from nights.table_selectors import LONG_WAIT, current_match, night_board
from scoring.engine import PassedOut, Played
from tests.nights.tables import code_of, started_night
from tests.nights.test_services import NS_WIN, play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]


@pytest.fixture
def night():
    return started_night()


def seated(code):
    """The match at the code's table and its players by seat."""
    match = current_match(code=code)
    return match, {seat: player.pk for seat, player in match.seats.items()}


def enter(code, by, contract="4S", declarer="N", tricks=10, sequence=None, **more):
    match = current_match(code=code)
    if sequence is None:
        sequence = match.deals.count() + 1
    return table_entry_submit(
        code=code,
        sequence=sequence,
        entered_by=by,
        result=deal_result(contract=contract, declarer=declarer, tricks=tricks),
        **more,
    )


def test_each_table_gets_a_code_when_its_round_starts(night):
    codes = list(TableCode.objects.filter(night=night).order_by("table_number"))
    assert [code.table_number for code in codes] == [1, 2]
    for code in codes:
        assert len(code.short_code) == CODE_LENGTH
        assert len(code.token) >= 32  # 24 random bytes, base64: 192 bits
    assert len({code.token for code in codes}) == 2
    # The next round keeps the tables' codes.
    for match in Match.objects.all():
        play(match)
    night_round_start(night=night)
    assert list(TableCode.objects.filter(night=night).order_by("table_number")) == codes


def test_a_deal_counts_only_once_an_opponent_confirms_it(night):
    code = code_of(night)
    match, seats = seated(code)
    entry = enter(code, seats["N"])
    assert entry.state == EntryState.WAITING and entry.side == "NS"
    match.refresh_from_db()
    assert match.deals.count() == 0 and match.total_ns == 0
    with pytest.raises(ValidationError) as error:
        table_entry_answer(code=code, entry=entry.pk, player=seats["S"], accept=True)
    assert "player" in error.value.message_dict  # North's partner cannot confirm
    confirmed = table_entry_answer(code=code, entry=entry.pk, player=seats["E"], accept=True)
    assert confirmed.state == EntryState.CONFIRMED and confirmed.decided_by_id == seats["E"]
    match.refresh_from_db()
    deal = Deal.objects.get(match=match)
    assert confirmed.deal == deal and match.total_ns == 420
    # The history says who entered, who confirmed and through which code.
    reason = deal.history.first().history_change_reason
    assert f"table {code.table_number}" in reason and code.short_code[:3] in reason
    assert str(match.north) in reason and str(match.east) in reason
    assert code.short_code not in reason  # the code itself is not written down in full


def test_one_deal_waits_at_a_time_and_a_bad_deal_is_refused_before_it_waits(night):
    code = code_of(night)
    _match, seats = seated(code)
    with pytest.raises(ValidationError) as error:
        enter(code, seats["N"], tricks=14)
    assert "tricks" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        enter(code, 999999)
    assert "entered_by" in error.value.message_dict
    enter(code, seats["N"])
    with pytest.raises(MatchConflict):
        enter(code, seats["E"], contract="3NT", declarer="E", tricks=9)
    assert TableEntry.objects.count() == 1


def test_a_rejected_deal_is_shown_to_the_director_who_settles_it(night, django_user_model):
    code = code_of(night)
    match, seats = seated(code)
    entry = enter(code, seats["N"])
    rejected = table_entry_answer(code=code, entry=entry.pk, player=seats["W"], accept=False)
    assert rejected.state == EntryState.REJECTED
    table = next(t for t in night_board(night=night) if t.number == code.table_number)
    assert [p.entry for p in table.disputes] == [rejected]
    assert table.disputes[0].flagged and table.disputes[0].row.ns == 420
    assert table.waiting is None
    director = django_user_model.objects.create_user("director")
    settled = table_entry_resolve(entry=rejected, accept=True, actor=director)
    assert settled.state == EntryState.CONFIRMED and settled.resolved_by == director
    match.refresh_from_db()
    assert match.deals.count() == 1 and match.total_ns == 420
    table = next(t for t in night_board(night=night) if t.number == code.table_number)
    assert table.pending == [] and table.deals == 1
    with pytest.raises(MatchConflict):
        table_entry_resolve(entry=settled, accept=True, actor=director)
    assert match.deals.count() == 1


def test_a_deal_settled_through_an_api_key_is_told_from_a_players_confirmation(night):
    """A key is no user (``resolved_by`` stays empty) and a rejected entry keeps the player
    who rejected it (``decided_by``): only ``settled_by_director`` tells them apart."""
    from nights.table_selectors import deal_confirmations

    code = code_of(night)
    match, seats = seated(code)
    entry = enter(code, seats["N"])
    rejected = table_entry_answer(code=code, entry=entry.pk, player=seats["W"], accept=False)
    settled = table_entry_resolve(entry=rejected, accept=True, actor="API key abc")
    assert settled.resolved_by is None and settled.decided_by_id == seats["W"]
    assert settled.settled_by_director
    confirmed = table_entry_answer(
        code=code, entry=enter(code, seats["E"], declarer="E").pk, player=seats["N"], accept=True
    )
    assert not confirmed.settled_by_director
    found = deal_confirmations(match_ids=[match.pk])[match.pk]
    assert found == {1: settled, 2: confirmed}


def test_the_side_that_entered_a_deal_may_withdraw_it_not_confirm_it(night):
    code = code_of(night)
    _match, seats = seated(code)
    entry = enter(code, seats["E"], contract="3NT", declarer="E", tricks=9)
    withdrawn = table_entry_answer(code=code, entry=entry.pk, player=seats["W"], accept=False)
    assert withdrawn.state == EntryState.WITHDRAWN
    assert all(t.pending == [] for t in night_board(night=night))
    with pytest.raises(MatchConflict):
        table_entry_answer(code=code, entry=entry.pk, player=seats["N"], accept=True)


def test_a_correction_replaces_the_deal_once_confirmed(night):
    code = code_of(night)
    match, seats = seated(code)
    first = enter(code, seats["N"])
    table_entry_answer(code=code, entry=first.pk, player=seats["E"], accept=True)
    fix = enter(code, seats["E"], sequence=1, contract="4S", declarer="N", tricks=11)
    assert fix.correction
    table = next(t for t in night_board(night=night) if t.number == code.table_number)
    assert table.waiting.row.ns == 450  # shown as it would score
    table_entry_answer(code=code, entry=fix.pk, player=seats["S"], accept=True)
    match.refresh_from_db()
    assert match.deals.count() == 1 and match.total_ns == 450


def test_a_new_deal_overtaken_by_the_directors_entry_is_not_recorded_twice(night):
    code = code_of(night)
    match, seats = seated(code)
    entry = enter(code, seats["N"])
    deal_record(match=match, result=Played("1C", "E", 7))  # the director, meanwhile
    with pytest.raises(MatchConflict):
        table_entry_answer(code=code, entry=entry.pk, player=seats["E"], accept=True)
    entry.refresh_from_db()
    assert entry.state == EntryState.WAITING  # the table withdraws it and enters again
    assert match.deals.count() == 1
    table = next(t for t in night_board(night=night) if t.number == code.table_number)
    assert table.waiting.row is None  # no longer fits the match


def test_a_code_answers_only_for_its_own_table(night):
    one, two = code_of(night, 1), code_of(night, 2)
    _match, seats = seated(one)
    entry = enter(one, seats["N"])
    with pytest.raises(ValidationError) as error:
        table_entry_answer(code=two, entry=entry.pk, player=seats["E"], accept=True)
    assert "entry" in error.value.message_dict
    _other, other_seats = seated(two)
    with pytest.raises(ValidationError):  # a player of table 2 at table 1's code
        table_entry_submit(code=one, sequence=1, entered_by=other_seats["N"], result=PassedOut())


def test_a_long_wait_is_flagged(night):
    code = code_of(night)
    _match, seats = seated(code)
    entry = enter(code, seats["N"])
    assert not night_board(night=night)[0].waiting.flagged
    TableEntry.objects.filter(pk=entry.pk).update(
        created_at=timezone.now() - LONG_WAIT - datetime.timedelta(seconds=1)
    )
    assert night_board(night=night)[0].waiting.flagged


def test_codes_open_by_link_or_typed_in_any_case_and_lock_out_guessing(night):
    code = code_of(night)
    typed = code.short_code.lower()
    assert table_code_open(code=f" {typed[:4]}-{typed[4:]} ", client="a") == code
    assert table_code_open(code=code.token, client="a", typed=False) == code
    with pytest.raises(ValidationError):
        table_code_open(code=code.short_code, client="a", typed=False)  # not a token
    for _attempt in range(5):  # wrong links are not counted: a token cannot be guessed
        with pytest.raises(ValidationError):
            table_code_open(code="WRONG" * 8, client="guesser", typed=False)
    for _attempt in range(FAILURES_ALLOWED - 1):
        with pytest.raises(ValidationError):
            table_code_open(code="WRONGWRONG", client="guesser")
    assert table_code_open(code=code.short_code, client="guesser") == code  # not locked yet
    with pytest.raises(ValidationError) as error:
        table_code_open(code="WRONGWRONG", client="guesser")
    # Locked out: even the right code is refused, to this client only; the link still opens.
    with pytest.raises(ValidationError) as error:
        table_code_open(code=code.short_code, client="guesser")
    assert "Too many" in error.value.message_dict["code"][0]
    assert table_code_open(code=code.short_code, client="other") == code
    assert table_code_open(code=code.token, client="guesser", typed=False) == code


def test_a_renewed_code_and_a_closed_nights_codes_open_nothing(night):
    old = code_of(night)
    new = table_code_renew(night=night, table_number=1)
    assert new.short_code != old.short_code and new.token != old.token
    with pytest.raises(ValidationError) as error:
        table_code_open(code=old.short_code, client="a")
    assert "no longer valid" in error.value.message_dict["code"][0]
    assert table_code_live(code_id=old.pk) is None
    assert table_code_live(code_id=new.pk) == new
    with pytest.raises(ValidationError) as error:
        table_code_renew(night=night, table_number=9)
    assert "table" in error.value.message_dict
    night_close(night=night)
    assert table_code_live(code_id=new.pk) is None
    with pytest.raises(ValidationError):
        table_code_open(code=new.token, client="b", typed=False)
    with pytest.raises(ValidationError):
        table_code_renew(night=night, table_number=1)


def test_a_finished_match_takes_no_entry_and_the_code_follows_the_table(night):
    code = code_of(night)
    match, seats = seated(code)
    play(match, NS_WIN)
    with pytest.raises(MatchConflict):
        enter(code, seats["N"])
    for other in Match.objects.exclude(pk=match.pk):
        play(other)
    night_round_start(night=night)
    assert current_match(code=code) != match
    assert current_match(code=code).table.number == code.table_number
