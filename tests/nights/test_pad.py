"""The players' pad (``nights.pad``) through the Django test client: a table opened by its
link or by the code typed by hand, the lockout, a deal entered, waiting, answered by the other
side (accepted, rejected, withdrawn), a correction, the next round followed by the code, and a
code that opens nothing any more."""

import logging

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from clubs.services import club_update
from config.cache import SharedClientRedisCache
from matches.models import Deal, MatchStatus
from matches.services import MatchConflict
from nights.models import EntryState, TableCode, TableEntry
from nights.pad import SESSION_CODE, SESSION_PLAYER, SESSION_TABLE
from nights.selectors import night_plan
from nights.services import (
    FAILURES_ALLOWED,
    client_key,
    night_close,
    night_round_start,
    night_round_undo,
    night_start,
    side_of,
    table_code_locked_out,
    table_code_open,
    table_code_renew,
    table_codes_paused_until,
    table_entry_answer,
)
from nights.table_selectors import current_match
from tests.clubs.factories import PLAY_DATE, make_club, make_players
from tests.nights.tables import code_of, started_night
from tests.nights.test_services import play

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("fresh_cache")]

PAD = "/table/"


@pytest.fixture
def night():
    return started_night()


def opened(night, number=1, client=None):
    """A phone with table ``number`` open through its link."""
    client = client or Client()
    response = client.get(f"/t/{code_of(night, number).token}/")
    assert response.status_code == 302 and response["Location"] == PAD
    return client


def seats(night, number=1):
    match = current_match(code=code_of(night, number))
    return match, {seat: player.pk for seat, player in match.seats.items()}


def deal(match, by, level="4", strain="S", declarer="N", tricks="10", sequence=None, **more):
    return {
        "match": match.pk,
        "expected_sequence": match.deals.count() + 1 if sequence is None else sequence,
        "level": level,
        "strain": strain,
        "declarer": declarer,
        "tricks": tricks,
        "doubling": "",
        "entered_by": by,
        **more,
    }


def waiting(match):
    return TableEntry.objects.get(match=match, state=EntryState.WAITING)


def answer(client, entry, player, how="accept"):
    return client.post("/table/answer/", {"entry": entry.pk, "player": player, "answer": how})


def test_the_link_opens_the_table_and_leaves_the_address(night):
    code = code_of(night)
    client = Client()
    response = client.get(f"/t/{code.token}/")
    assert response.status_code == 302
    assert response["Location"] == PAD
    assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"]
    assert client.session[SESSION_CODE] == code.pk
    assert code.token not in str(dict(client.session))
    page = client.get(PAD)
    assert page.status_code == 200
    match, _by_seat = seats(night)
    text = page.content.decode()
    for player in match.seats.values():
        assert player.name in text
    assert night.session.club.name in text
    assert "Table 1 · round 1" in text
    assert code.token not in text


def test_opening_a_code_rotates_the_session_key(night):
    client = Client()
    client.get("/t/")
    client.post("/t/", {"code": "nothing"})
    before = client.session.session_key
    opened(night, client=client)
    assert client.session.session_key != before


def test_the_code_typed_by_hand_any_case_with_dashes(night):
    code = code_of(night, 2)
    typed = f"{code.short_code[:4].lower()}-{code.short_code[4:]} "
    client = Client()
    assert client.get("/t/").status_code == 200
    response = client.post("/t/", {"code": typed})
    assert response.status_code == 302 and response["Location"] == PAD
    assert "Table 2" in client.get(PAD).content.decode()


def test_a_wrong_code_is_said_beside_the_field_and_locks_out(night):
    client = Client()
    response = client.post("/t/", {"code": "ABC"})
    assert response.status_code == 400
    assert "code" in response.context["form"].errors
    for _ in range(FAILURES_ALLOWED):
        response = client.post("/t/", {"code": "WRONGCODE"})
        assert response.status_code == 400
        assert "No table has this code" in response.content.decode()
    # Now even the right code is refused; the table card's link still opens the table.
    response = client.post("/t/", {"code": code_of(night).short_code})
    assert response.status_code == 429
    assert "Too many wrong codes" in response.context["form"].errors["code"][0]
    assert SESSION_CODE not in client.session
    assert client.get(f"/t/{code_of(night).token}/").status_code == 302
    assert SESSION_CODE in client.session


def test_a_wrong_link_is_a_404_with_the_form(night):
    response = Client().get("/t/not-a-real-token-at-all/")
    assert response.status_code == 404
    assert "No table has this code" in response.content.decode()


def test_without_a_code_the_pad_asks_for_one(night):
    response = Client().get(PAD)
    assert response.status_code == 302 and response["Location"] == "/t/"
    assert Client().post("/table/answer/", {}).status_code == 302


def test_enter_wait_accept_by_the_other_side(night):
    north_phone = opened(night)
    east_phone = opened(night)
    match, by_seat = seats(night)
    response = north_phone.post(PAD, deal(match, by_seat["N"]))
    assert response.status_code == 302
    assert north_phone.session[SESSION_PLAYER] == by_seat["N"]
    assert match.deals.count() == 0
    entry = waiting(match)
    for phone in (north_phone, east_phone):
        text = phone.get(PAD).content.decode()
        assert "waiting for East-West to confirm" in text
        assert "Accept — I am East" in text and "Accept — I am West" in text
        assert "Accept — I am North" not in text
        assert "420" in text  # how it would score
    # North's partner cannot confirm it.
    response = answer(north_phone, entry, by_seat["S"])
    assert response.status_code == 400
    assert "player" in response.context["answer_form"].errors
    response = answer(east_phone, entry, by_seat["E"])
    assert response.status_code == 302
    assert Deal.objects.get(match=match).contract == "4S"
    page = north_phone.get(PAD).content.decode()
    assert 'id="total-ns">420<' in page
    # "Entered by" remembers North on North's phone.
    form = north_phone.get(PAD).context["form"]
    assert form.initial["entered_by"] == by_seat["N"]


def test_a_rejected_deal_tells_the_director_and_can_be_entered_again(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["S"]))
    entry = waiting(match)
    response = answer(phone, entry, by_seat["W"], "reject")
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.state == EntryState.REJECTED
    text = phone.get(PAD).content.decode()
    assert "the director has been told" in text
    assert phone.post(PAD, deal(match, by_seat["W"], tricks="9")).status_code == 302
    assert answer(phone, waiting(match), by_seat["N"]).status_code == 302
    assert Deal.objects.get(match=match).tricks == 9
    entry.refresh_from_db()
    assert entry.state == EntryState.RESOLVED


def test_the_entering_side_withdraws(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["E"], declarer="E"))
    entry = waiting(match)
    assert answer(phone, entry, by_seat["E"], "withdraw").status_code == 302
    entry.refresh_from_db()
    assert entry.state == EntryState.WITHDRAWN
    assert phone.get(PAD).context["form"] is not None  # the form is back


def test_only_one_deal_waits(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["N"]))
    response = phone.post(PAD, deal(match, by_seat["E"], declarer="E"))
    assert response.status_code == 409
    assert TableEntry.objects.filter(match=match).count() == 1


def test_a_correction_waits_for_confirmation_too(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["N"]))
    answer(phone, waiting(match), by_seat["E"])
    page = phone.get(PAD + "?fix=1")
    assert page.context["fix_form"]["level"].value() == 4
    fix = {f"fix-{k}": v for k, v in deal(match, by_seat["W"], tricks="11", sequence=1).items()}
    assert phone.post("/table/correct/", fix).status_code == 302
    entry = waiting(match)
    assert entry.correction and entry.sequence == 1
    assert Deal.objects.get(match=match).tricks == 10  # not yet
    answer(phone, entry, by_seat["S"])
    assert Deal.objects.get(match=match).tricks == 11


def test_a_stale_next_deal_is_not_taken_for_a_correction(night):
    phone = opened(night)
    match, by_seat = seats(night)
    stale = deal(match, by_seat["N"])
    phone.post(PAD, stale)
    answer(phone, waiting(match), by_seat["E"])
    response = phone.post(PAD, stale)  # the same form, sent again
    assert response.status_code == 409
    assert not TableEntry.objects.filter(match=match, state=EntryState.WAITING).exists()


def test_bad_input_is_a_400_naming_the_field(night):
    phone = opened(night)
    match, by_seat = seats(night)
    response = phone.post(PAD, deal(match, by_seat["N"], level="9"))
    assert response.status_code == 400 and "level" in response.context["form"].errors
    response = phone.post(PAD, deal(match, "x"))
    assert response.status_code == 400 and "entered_by" in response.context["form"].errors
    response = phone.post(PAD, deal(match, by_seat["N"], sequence=7))
    assert response.status_code == 400
    assert "expected_sequence" in response.context["form"].errors
    fix = {f"fix-{k}": v for k, v in deal(match, by_seat["N"], sequence=3).items()}
    response = phone.post("/table/correct/", fix)
    assert response.status_code == 400
    assert "expected_sequence" in response.context["fix_form"].errors
    response = phone.post("/table/answer/", {"entry": "x", "player": "y", "answer": "z"})
    assert response.status_code == 400
    assert set(response.context["answer_form"].errors) == {"entry", "player", "answer"}
    assert not TableEntry.objects.exists()


def test_a_whole_chicago_then_the_next_round_followed(night):
    phone = opened(night)
    match, by_seat = seats(night)
    for contract, declarer, tricks in [
        ("3NT", "N", 9),
        ("1C", "E", 6),
        ("2H", "S", 8),
        ("1S", "W", 6),
    ]:
        data = deal(match, by_seat[declarer], contract[0], contract[1:], declarer, str(tricks))
        assert phone.post(PAD, data).status_code == 302
        other = by_seat["E"] if declarer in "NS" else by_seat["N"]
        assert answer(phone, waiting(match), other).status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.COMPLETE
    page = phone.get(PAD)
    text = page.content.decode()
    assert "The match is over." in text and "Waiting for the next round" in text
    assert page.context["form"] is None
    # The other table finishes too; the director starts round 2: the pad follows the table.
    play(current_match(code=code_of(night, 2)))
    night_round_start(night=night)
    page = phone.get(PAD)
    assert "Table 1 · round 2" in page.content.decode()
    assert page.context["match"].pk != match.pk
    assert page.context["form"] is not None


def test_a_renewed_code_or_a_closed_night_opens_nothing(night):
    phone = opened(night)
    other = opened(night, 2)
    match, by_seat = seats(night)
    table_code_renew(night=night, table_number=1)
    page = phone.get(PAD)
    assert page.status_code == 200
    assert "no longer opens the table" in page.content.decode()
    assert page.context["gone"]
    response = phone.post(PAD, deal(match, by_seat["N"]))
    assert response.status_code == 409
    assert not TableEntry.objects.exists()
    assert phone.get(f"/t/{code_of(night).token}/").status_code == 302  # the new code works
    night_close(night=night)
    for client in (phone, other):
        assert "no longer opens the table" in client.get(PAD).content.decode()


def test_leave_forgets_the_table(night):
    phone = opened(night)
    response = phone.post("/table/leave/")
    assert response.status_code == 302 and response["Location"] == "/t/"
    assert SESSION_CODE not in phone.session
    assert phone.get(PAD).status_code == 302


def test_htmx_polls_get_the_panel_alone(night):
    phone = opened(night)
    response = phone.get(PAD, headers={"HX-Request": "true"})
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="pad-panel"')
    assert 'hx-trigger="every 5s"' in text
    assert "<html" not in text


def test_a_poll_is_a_304_until_something_at_the_table_changes(night, monkeypatch):
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)  # one ETag period
    phone, other = opened(night), opened(night)
    poll = {"HX-Request": "true"}
    first = phone.get(PAD, headers=poll)
    etag = first["ETag"]
    assert first.status_code == 200 and "no-store" not in first["Cache-Control"]
    again = phone.get(PAD, headers={**poll, "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""
    assert phone.get(PAD)["Cache-Control"].count("no-store") == 1  # the whole page: never kept
    match, seated = seats(night)
    assert other.post(PAD, deal(match, seated["N"])).status_code == 302  # another phone enters
    changed = phone.get(PAD, headers={**poll, "If-None-Match": etag})
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "waiting for" in changed.content.decode()
    # Another table's deal leaves it unchanged; a renewed code sends the phone to the code
    # form, never a 304 of the old table.
    etag = changed["ETag"]
    elsewhere, elsewhere_seats = seats(night, 2)
    assert opened(night, 2).post(PAD, deal(elsewhere, elsewhere_seats["N"])).status_code == 302
    assert phone.get(PAD, headers={**poll, "If-None-Match": etag}).status_code == 304
    table_code_renew(night=night, table_number=1)
    gone = phone.get(PAD, headers={**poll, "If-None-Match": etag})
    assert gone.status_code == 200 and "no-store" in gone["Cache-Control"]


def test_a_304_reads_nothing_but_the_phones_session(night):
    """What a poll must know (the table, the generations) comes from the session and one
    round trip to the cache: no query but the session's own (none with Redis: config.sessions)."""
    phone = opened(night)
    poll = {"HX-Request": "true"}
    etag = phone.get(PAD, headers=poll)["ETag"]
    with CaptureQueriesContext(connection) as queries:
        assert phone.get(PAD, headers={**poll, "If-None-Match": etag}).status_code == 304
    assert [q["sql"] for q in queries if "django_session" not in q["sql"]] == []


def test_a_round_undone_at_the_table_changes_the_polls_answer(night):
    """The table's scope follows the match at it: the round taken back, the phone is told
    at once (the table has no match now), not after the ETag's period."""
    phone = opened(night)
    poll = {"HX-Request": "true"}
    first = phone.get(PAD, headers=poll)
    night_round_undo(night=night, number=1)
    after = phone.get(PAD, headers={**poll, "If-None-Match": first["ETag"]})
    assert after.status_code == 200 and after.content != first.content


def test_a_phone_opened_before_the_table_was_kept_gets_it_on_its_next_request(night):
    phone = opened(night)
    session = phone.session
    del session[SESSION_TABLE]
    session.save()
    assert phone.get(PAD, headers={"HX-Request": "true"}).status_code == 200
    code = code_of(night)
    kept = [code.night.session.club_id, code.night.session_id, code.table_number]
    assert phone.session[SESSION_TABLE] == kept


def test_draw_bridge_at_a_table_of_two():
    club = make_club()
    night = night_start(
        club=club,
        date=PLAY_DATE,
        players=make_players(club, 6),
        movement="round_robin",
        rounds=3,
        remainder="two_player",
    )
    night_round_start(night=night)
    number = max(TableCode.objects.filter(night=night).values_list("table_number", flat=True))
    phone = opened(night, number)
    match, by_seat = seats(night, number)
    assert set(by_seat) == {"N", "E"}
    page = phone.get(PAD)
    assert "Draw Bridge" in page.content.decode()
    assert len(page.context["form"].fields["entered_by"].choices) == 2
    assert phone.post(PAD, deal(match, by_seat["N"], "3", "NT", "N", "9")).status_code == 302
    assert "Accept — I am East" in phone.get(PAD).content.decode()
    assert answer(phone, waiting(match), by_seat["E"]).status_code == 302
    assert match.deals.count() == 1


def test_the_pads_polls_are_not_throttled_but_opening_codes_is(night, settings):
    """Every phone at every table polls, often all behind the club's one address."""
    settings.PAGE_THROTTLE_ANON = "3/min"
    phone = opened(night)
    for _ in range(10):
        assert phone.get(PAD, headers={"HX-Request": "true"}).status_code == 200
    statuses = [Client().get("/t/").status_code for _ in range(5)]
    assert 429 in statuses


def test_an_earlier_rounds_entry_is_not_answered_at_the_pad(night):
    """A correction entered in round 1 still waits when round 2 starts: the pad's answer to it
    (a page left open, a form sent again) is refused, whoever sends it; the director settles
    it from the board."""
    phone = opened(night)
    old, by_seat = seats(night)
    play(old)
    play(current_match(code=code_of(night, 2)))
    # Who will sit at table 1 in round 2: one of them answers for the other side of round 1.
    upcoming = night_plan(night=night).next.plan
    later = {player.id for player in upcoming.tables[0].seats.values()}
    answerer = next(pk for seat, pk in by_seat.items() if pk in later)
    entering = by_seat["E" if side_of(old, answerer) == "NS" else "N"]
    fix = {f"fix-{k}": v for k, v in deal(old, entering, tricks="13", sequence=1).items()}
    assert phone.post("/table/correct/", fix).status_code == 302
    entry = waiting(old)
    totals = (old.deals.get(sequence=1).tricks, old.deals.count())
    night_round_start(night=night)
    new = current_match(code=code_of(night))
    assert new.pk != old.pk and answerer in new.seat_ids.values()
    for how in ("accept", "reject", "withdraw"):
        response = answer(phone, entry, answerer, how)
        assert response.status_code == 409
        errors = response.context["answer_form"].non_field_errors()
        assert errors == [
            "This deal was entered for an earlier match at this table: the director settles it."
        ]
    entry.refresh_from_db()
    assert entry.state == EntryState.WAITING and entry.decided_by is None
    assert (old.deals.get(sequence=1).tricks, old.deals.count()) == totals
    with pytest.raises(MatchConflict):
        table_entry_answer(code=code_of(night), entry=entry.pk, player=answerer, accept=True)
    # In Greek too.
    response = phone.post(
        "/table/answer/",
        {"entry": entry.pk, "player": answerer, "answer": "accept"},
        HTTP_ACCEPT_LANGUAGE="el",
    )
    assert response.status_code == 409
    assert "earlier match" not in response.context["answer_form"].non_field_errors()[0]


@pytest.fixture
def lockout_cache_down(monkeypatch):
    """The wrong codes' cache is a Redis nobody answers on (port 1 of the loopback: refused)."""
    unreachable = SharedClientRedisCache("redis://127.0.0.1:1/0", {})
    monkeypatch.setattr("nights.services.cache", unreachable)
    return unreachable


def test_codes_open_tables_while_the_lockouts_cache_is_down(night, lockout_cache_down, caplog):
    """Redis down: the lockout is not applied (logged, as the API's throttles do), and the
    right code still opens its table; a wrong code is still said beside the field."""
    with caplog.at_level(logging.WARNING, logger="nights.services"):
        wrong = Client().post("/t/", {"code": "WRONGCODE"})
        assert wrong.status_code == 400
        assert "No table has this code" in wrong.content.decode()
        phone = Client()
        right = phone.post("/t/", {"code": code_of(night).short_code})
    assert right.status_code == 302 and right["Location"] == PAD
    assert phone.session[SESSION_CODE] == code_of(night).pk
    assert "Table code lockout not applied: the cache is unreachable" in caplog.text
    # The services alike.
    assert table_code_locked_out(client="192.0.2.1") is False
    assert table_code_open(code=code_of(night, 2).short_code, client="192.0.2.1").table_number == 2


def typed_from(address, code, client=None):
    """A code typed at ``/t/`` by a phone behind the proxy at ``address``."""
    client = client or Client()
    return client.post("/t/", {"code": code}, HTTP_X_FORWARDED_FOR=address)


@pytest.fixture
def behind_a_proxy(settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    settings.PAGE_THROTTLE_ANON = "10000/min"  # the page throttle is not what is tested here


def test_ipv6_clients_are_counted_by_their_64(night, behind_a_proxy):
    """One network's /64 is one client: 20 wrong codes from 20 of its addresses lock out the
    whole /64 (its right codes too), not another /64 nor an IPv4 client."""
    for n in range(FAILURES_ALLOWED):
        response = typed_from(f"2001:db8:1:2:{n:x}::7", "WRONGCODE")
        assert response.status_code == 400
    right = code_of(night).short_code
    locked = typed_from("2001:db8:1:2:ffff:1:2:3", right)
    assert locked.status_code == 429
    assert "Too many wrong codes" in locked.content.decode()
    assert typed_from("2001:db8:1:3::7", right).status_code == 302  # the next /64
    assert typed_from("192.0.2.10", right).status_code == 302
    assert client_key("2001:DB8:1:2:abcd::1") == "2001:db8:1:2::/64"
    assert client_key("::ffff:192.0.2.1") == "192.0.2.1"  # an IPv4 address in IPv6 form


def test_ipv4_clients_are_counted_by_address(night, behind_a_proxy):
    for _ in range(FAILURES_ALLOWED):
        assert typed_from("192.0.2.1", "WRONGCODE").status_code == 400
    right = code_of(night).short_code
    assert typed_from("192.0.2.1", right).status_code == 429
    assert typed_from("192.0.2.2", right).status_code == 302


def test_wrong_codes_from_many_addresses_pause_typed_codes(night, behind_a_proxy, monkeypatch):
    """Past ``ALL_FAILURES_ALLOWED`` wrong codes from any addresses in the window, a typed code
    opens a table only for a client that opened one of its night's tables before (the room's
    phones); others are told to scan the table card, which still opens the table, and the
    director's board says what happens and until when."""
    monkeypatch.setattr("nights.services.ALL_FAILURES_ALLOWED", 6)
    right = code_of(night).short_code
    # The room's wifi opened a table earlier (by the card's link).
    room = Client()
    assert (
        room.get(f"/t/{code_of(night, 2).token}/", HTTP_X_FORWARDED_FOR="198.51.100.7").status_code
        == 302
    )
    for n in range(6):  # each from another network: no one address is locked out
        assert typed_from(f"2001:db8:{n}::1", "WRONGCODE").status_code == 400
    paused = typed_from("203.0.113.5", right)
    assert paused.status_code == 429
    text = paused.content.decode()
    assert "Too many wrong codes were typed" in text and "scan the QR code" in text
    # The same answer for a wrong code: a guesser cannot tell a right code from a wrong one.
    wrong = typed_from("203.0.113.5", "WRONGCODE")
    assert wrong.status_code == 429 and "Too many wrong codes were typed" in wrong.content.decode()
    # The room's phones still type codes; the card's link opens the table from anywhere.
    assert typed_from("198.51.100.7", right).status_code == 302
    assert (
        Client().get(f"/t/{code_of(night).token}/", HTTP_X_FORWARDED_FOR="203.0.113.5").status_code
        == 302
    )
    assert table_codes_paused_until() is not None
    # When the window is over, typed codes open tables again.
    cache.delete_many(["table-code-failures:all", "table-code-failures:all:since"])
    assert table_codes_paused_until() is None
    assert typed_from("203.0.113.5", right).status_code == 302


# --- the pad in the players' words (issue 29) ------------------------------------------------

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_a_second_phone_entering_a_deal_waiting_is_told_who_entered_what(night):
    """Both phones enter deal 1; the second is told who entered it, what, and who must answer
    it, on a page (the panel that the pad's script swaps in, with the same words)."""
    north_phone, east_phone = opened(night), opened(night)
    match, by_seat = seats(night)
    assert north_phone.post(PAD, deal(match, by_seat["N"])).status_code == 302
    for extra in ({}, HTMX):
        response = east_phone.post(PAD, deal(match, by_seat["E"], declarer="E"), **extra)
        assert response.status_code == 409
        assert response["Content-Type"].startswith("text/html")
        text = " ".join(response.content.decode().split())
        said = "North entered this deal (4 spades, N =): waiting for East-West to accept it."
        assert f'id="pad-conflict"><p>{said}</p>' in text
        assert 'id="pad-waiting"' in text  # the deal to answer, below
    assert TableEntry.objects.filter(match=match).count() == 1


def test_a_correction_or_the_next_deal_while_another_deal_waits(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["N"]))
    answer(phone, waiting(match), by_seat["E"])
    fix = {f"fix-{k}": v for k, v in deal(match, by_seat["S"], tricks="11", sequence=1).items()}
    phone.post("/table/correct/", fix)
    response = phone.post(PAD, deal(match, by_seat["E"], declarer="E"))
    assert response.status_code == 409
    assert response.context["conflict"] == (
        "South entered a correction of deal 1 (4 spades, N +1): waiting for East-West to "
        "accept it. Enter your deal once it is answered."
    )
    response = phone.post("/table/correct/", fix)
    assert response.status_code == 409
    assert response.context["conflict"].endswith("Enter your correction once it is answered.")


def test_a_rejected_deal_comes_back_in_the_form_to_correct(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["N"], level="3", strain="NT", tricks="9", doubling="X"))
    answer(phone, waiting(match), by_seat["E"], "reject")
    page = phone.get(PAD)
    form = page.context["form"]
    assert form.initial["expected_sequence"] == 1
    for name, value in {"level": 3, "strain": "NT", "doubling": "X", "declarer": "N"}.items():
        assert form[name].value() == value, name
    assert form["tricks"].value() == 9
    assert form["entered_by"].value() == by_seat["N"]  # this phone's player
    text = " ".join(page.content.decode().split())
    assert "Deal 1 (3 no trump doubled, N =) was rejected by" in text
    assert "Correct it below and enter it again." in text
    # Passed out, rejected: the form comes back with passed out.
    assert phone.post(PAD, deal(match, by_seat["N"], passed_out="on")).status_code == 302
    answer(phone, waiting(match), by_seat["W"], "reject")
    page = phone.get(PAD)
    assert page.context["form"]["passed_out"].value() is True
    assert "Deal 1 (passed out) was rejected by" in " ".join(page.content.decode().split())


def test_a_rejected_correction_comes_back_in_the_correction_form(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["N"]))
    answer(phone, waiting(match), by_seat["E"])
    fix = {f"fix-{k}": v for k, v in deal(match, by_seat["S"], tricks="12", sequence=1).items()}
    phone.post("/table/correct/", fix)
    answer(phone, waiting(match), by_seat["W"], "reject")
    text = " ".join(phone.get(PAD).content.decode().split())
    assert "The correction of deal 1 (4 spades, N +2) was rejected by" in text
    assert 'href="/table/?fix=1#fix"' in text
    form = phone.get(PAD + "?fix=1").context["fix_form"]
    assert form["tricks"].value() == 12  # what was rejected, not what stands (10)


def test_a_correction_is_called_a_correction(night):
    phone = opened(night)
    match, by_seat = seats(night)
    phone.post(PAD, deal(match, by_seat["N"]))
    answer(phone, waiting(match), by_seat["E"])
    fix = {f"fix-{k}": v for k, v in deal(match, by_seat["S"], tricks="11", sequence=1).items()}
    phone.get(PAD)  # the messages so far, seen
    response = phone.post("/table/correct/", fix, follow=True)
    text = " ".join(response.content.decode().split())
    assert "Correction of deal 1 sent to East-West: waiting for their answer." in text
    assert "Deal 1 entered" not in text
    # The waiting state says so too, on every phone.
    text = " ".join(opened(night).get(PAD).content.decode().split())
    assert "Correction of deal 1 sent to East-West by" in text
    response = answer(phone, waiting(match), by_seat["W"])
    text = " ".join(phone.get(PAD).content.decode().split())
    assert "Correction of deal 1 confirmed: 4 spades, N +1. It counts." in text


def test_the_panel_lists_what_the_other_phones_did_for_a_poll_to_announce(night):
    phone = opened(night)
    match, by_seat = seats(night)

    def events():
        return phone.get(PAD, **HTMX).context["events"]

    assert events() == []
    phone.post(PAD, deal(match, by_seat["N"]))
    entry = waiting(match)
    assert events() == [
        (
            f"{entry.pk}-waiting",
            "North entered deal 1 (4 spades, N =): waiting for East-West to accept it.",
        )
    ]
    answer(phone, entry, by_seat["E"])
    assert events() == [(f"{entry.pk}-confirmed", "East-West accepted deal 1.")]
    phone.post(PAD, deal(match, by_seat["E"], declarer="E"))
    second = waiting(match)
    answer(phone, second, by_seat["S"], "reject")
    assert events() == [(f"{second.pk}-rejected", "North-South rejected deal 2.")]


def test_at_a_par_club_the_pad_reads_each_deal_against_par(night):
    """The points are entered with the deal and confirmed with the rest; once accepted, the
    pad shows the deal's IMPs and the match's: 4S by North made with 26 HCP, not vulnerable,
    expects 350 and scores 420, +70: 2 IMPs to North-South."""
    club_update(club=night.session.club, par_scoring=True)
    north_phone, east_phone = opened(night), opened(night)
    match, by_seat = seats(night)
    assert 'id="pad-par"' not in north_phone.get(PAD).content.decode()  # nothing read yet
    refused = north_phone.post(PAD, deal(match, by_seat["N"]))
    assert refused.status_code == 400 and "hcp" in refused.context["form"].errors
    assert north_phone.post(PAD, deal(match, by_seat["N"], hcp="26")).status_code == 302
    assert answer(east_phone, waiting(match), by_seat["E"]).status_code == 302
    assert Deal.objects.get(match=match).hcp == 26
    page = north_phone.get(PAD).content.decode()
    assert "Par reading: N-S +2 IMPs, E-W \u22122 IMPs." in page
    assert f'href="{reverse("matches:par_guide")}"' in page  # what par scoring is, explained
    assert '<td class="num">+2</td>' in page  # the deal's row
