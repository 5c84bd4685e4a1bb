"""The director's board of a club night (``nights.board``): who may open it, what it shows of
each table (its code, match, deals, the deal waiting and the disputes), and the director's
taps: settle a deal, renew a table's code, close the night."""

import datetime

import pytest
from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.crypto import get_random_string

from clubs.services import club_create, player_create
from matches.models import Deal
from matches.services import deal_record
from nights.models import EntryState, TableCode, TableEntry
from nights.services import (
    night_close,
    night_round_start,
    table_code_open,
    table_entry_answer,
    table_entry_submit,
)
from nights.table_selectors import LONG_WAIT, current_match
from scoring.engine import PassedOut, Played
from tests.clubs.factories import PLAY_DATE, make_club, make_user
from tests.nights.tables import code_of, started_night
from tests.nights.test_services import play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()
    yield
    translation.deactivate()


@pytest.fixture
def director():
    return make_user("boss")


@pytest.fixture
def club(director):
    return make_club(creator=director, slug="hearts", public=True)


@pytest.fixture
def night(club):
    return started_night(club)


@pytest.fixture
def member(club):
    user = make_user("member")
    player_create(club=club, name="Member", user=user)
    return user


@pytest.fixture
def other_director():
    user = make_user("other")
    club_create(creator=user, name="Other Club", slug="other", country="GR", public=True)
    return user


def url(night, name="nights:board", *args):
    return reverse(name, args=[night.session.club.slug, night.session.date, *args])


def enter(code, side="N", contract="4S", declarer="N", tricks=10):
    match = current_match(code=code)
    return table_entry_submit(
        code=code,
        sequence=match.deals.count() + 1,
        entered_by=match.seat_ids[side],
        result=Played(contract, declarer, tricks),
    )


def dispute(code):
    entry = enter(code)
    match = current_match(code=code)
    return table_entry_answer(code=code, entry=entry.pk, player=match.seat_ids["E"], accept=False)


# --- who may open it ------------------------------------------------------------------------


def test_the_board_is_for_the_clubs_directors_only(client, night, member, other_director):
    entry = dispute(code_of(night))
    gets = [url(night), url(night, "nights:board_fragment")]
    posts = [
        (url(night, "nights:entry_resolve", entry.pk), {"accept": "1"}),
        (url(night, "nights:code_renew", 1), {"confirm": "1"}),
        (url(night, "nights:close"), {"confirm": "1"}),
    ]
    for address in gets:
        response = client.get(address)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("clubs:login"))
    for address, data in posts:
        assert client.post(address, data).status_code == 302
    for who in (member, other_director):
        client.force_login(who)
        for address in gets:
            assert client.get(address).status_code == 403
        for address, data in posts:
            assert client.post(address, data).status_code == 403
    # Nothing was done.
    entry.refresh_from_db()
    assert entry.state == EntryState.REJECTED
    assert TableCode.objects.filter(night=night).count() == 2
    night.refresh_from_db()
    assert night.closed_at is None
    # Another night, another club: no board.
    client.force_login(other_director)
    assert client.get(reverse("nights:board", args=["other", PLAY_DATE])).status_code == 404
    missing = reverse("nights:board", args=[night.session.club.slug, "2025-03-15"])
    assert client.get(missing).status_code == 403  # not the director of hearts


def test_the_night_page_links_the_board_for_directors_only(client, director, night, member):
    night_page = url(night, "nights:night")
    assert b"board-link" not in client.get(night_page).content
    client.force_login(member)
    assert b"board-link" not in client.get(night_page).content
    client.force_login(director)
    page = client.get(night_page).content.decode()
    assert url(night) in page


# --- what it shows --------------------------------------------------------------------------


def test_the_board_shows_every_table_its_code_match_and_deals(client, director, night):
    code = code_of(night)
    match = current_match(code=code)
    deal_record(match=match, result=Played("3NT", "N", 9))
    enter(code)
    client.force_login(director)
    response = client.get(url(night))
    assert response.status_code == 200
    page = response.content.decode()
    assert 'id="table-1"' in page and 'id="table-2"' in page
    assert code.shown in page  # "ABCD-EFGH", as on the table card
    assert f"/t/{code.token}/" in page  # the entry link, for the director only
    for player in match.seats.values():
        assert player.name in page
    assert "2 of 4" in page  # the next deal of a Chicago
    assert "(1 deal played)" in page
    assert "Waiting for the opponents" in page
    assert "It would score NS 420, EW 0." in page  # 4♠ made, deal 2: NS not vulnerable
    assert reverse("matches:table", args=[match.pk]) in page
    assert 'hx-trigger="every 5s"' in page
    assert "just now" in page  # the last entry
    assert "Waiting for less than a minute." in page
    # A wait that is not long yet offers no button; the fragment is the board alone.
    assert "Count it as entered" not in page
    fragment = client.get(url(night, "nights:board_fragment")).content.decode()
    assert fragment.lstrip().startswith('<div id="board"')
    assert "<html" not in fragment


def test_a_long_wait_and_a_dispute_are_flagged(client, director, night):
    waiting = enter(code_of(night))
    TableEntry.objects.filter(pk=waiting.pk).update(
        created_at=timezone.now() - LONG_WAIT - datetime.timedelta(minutes=1)
    )
    disputed = dispute(code_of(night, 2))
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert page.count("board-table flagged") == 2
    assert "Disputed" in page
    assert f'id="accept-{waiting.pk}"' in page
    assert f'id="set-aside-{disputed.pk}"' in page
    assert "rejected by" in page


# --- the director's taps ---------------------------------------------------------------------


def test_the_director_counts_a_dispute_as_entered(client, director, night):
    entry = dispute(code_of(night))
    client.force_login(director)
    response = client.post(url(night, "nights:entry_resolve", entry.pk), {"accept": "1"})
    assert response.status_code == 302
    assert response["Location"] == url(night) + "#table-1"
    entry.refresh_from_db()
    assert entry.state == EntryState.CONFIRMED
    assert entry.resolved_by == director
    assert Deal.objects.filter(match=entry.match).count() == 1
    page = client.get(response["Location"]).content.decode()
    assert "Table 1: deal 1 counts as entered." in page


def test_the_director_sets_a_deal_aside(client, director, night):
    entry = dispute(code_of(night))
    client.force_login(director)
    response = client.post(url(night, "nights:entry_resolve", entry.pk), {"accept": "0"})
    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.state == EntryState.RESOLVED
    assert not Deal.objects.exists()


def test_settling_errors_are_said_not_500(client, director, night):
    entry = dispute(code_of(night))
    client.force_login(director)
    address = url(night, "nights:entry_resolve", entry.pk)
    bad = client.post(address, {"accept": "maybe"})
    assert bad.status_code == 400
    assert "Choose to count the deal or set it aside." in bad.content.decode()
    assert client.post(address, {"accept": "1"}).status_code == 302
    again = client.post(address, {"accept": "0"})  # already settled
    assert again.status_code == 409
    assert "This deal was already answered." in again.content.decode()
    # An entry of another night, or none: 404.
    nowhere = url(night, "nights:entry_resolve", 999999)
    assert client.post(nowhere, {"accept": "1"}).status_code == 404
    assert client.get(address).status_code == 405


def test_an_earlier_rounds_entry_left_waiting_is_settled_from_the_board(client, director, night):
    """A correction of round 1 still waits when round 2 starts: the pad no longer answers it,
    so the board shows it at its table, flagged, and the director settles it."""
    code = code_of(night)
    old = current_match(code=code)
    play(old)
    play(current_match(code=code_of(night, 2)))
    entry = table_entry_submit(
        code=code,
        sequence=1,
        entered_by=old.seat_ids["N"],
        result=Played("3NT", "N", 10),
    )
    night_round_start(night=night)
    assert current_match(code=code).pk != old.pk
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert page.count("board-table flagged") == 1
    assert f'id="entry-{entry.pk}"' in page
    assert "an earlier match at this table" in page
    assert f'id="accept-{entry.pk}"' in page
    response = client.post(url(night, "nights:entry_resolve", entry.pk), {"accept": "1"})
    assert response.status_code == 302
    assert old.deals.get(sequence=1).tricks == 10
    page = client.get(url(night)).content.decode()
    assert f'id="entry-{entry.pk}"' not in page and "board-table flagged" not in page


def test_renewing_a_code_asks_first_then_the_old_code_stops_working(client, director, night):
    old = code_of(night)
    client.force_login(director)
    address = url(night, "nights:code_renew", 1)
    asked = client.post(address)
    assert asked.status_code == 302
    assert asked["Location"] == url(night) + "?renew=1"
    page = client.get(url(night) + "?renew=1").content.decode()
    assert "stops working at once" in page
    assert 'id="renew-confirm-1"' in page
    # The polled fragment keeps the question while it is asked.
    assert "renew=1" in page.split('hx-get="')[1].split('"')[0]
    assert code_of(night) == old  # nothing renewed yet
    done = client.post(address, {"confirm": "1"})
    assert done.status_code == 302
    new = code_of(night)
    assert new != old
    old.refresh_from_db()
    assert old.revoked_at is not None
    with pytest.raises(ValidationError):
        table_code_open(code=old.short_code, client="test")
    assert table_code_open(code=new.short_code, client="test") == new
    page = client.get(done["Location"]).content.decode()
    assert new.shown in page
    assert "The old code no longer works." in page
    # No such table: 404 past the numbers a table may have, 400 for a table the night lacks.
    assert client.post(url(night, "nights:code_renew", 1000), {"confirm": "1"}).status_code == 404
    missing = client.post(url(night, "nights:code_renew", 9), {"confirm": "1"})
    assert missing.status_code == 400
    assert "This night has no table 9." in missing.content.decode()


def test_closing_the_night_asks_first_then_no_code_works(client, director, night):
    code = code_of(night)
    client.force_login(director)
    address = url(night, "nights:close")
    asked = client.post(address)
    assert asked.status_code == 302
    assert "close=1" in asked["Location"]
    page = client.get(url(night) + "?close=1").content.decode()
    assert 'id="close-confirm"' in page
    night.refresh_from_db()
    assert night.closed_at is None
    assert client.post(address, {"confirm": "1"}).status_code == 302
    night.refresh_from_db()
    assert night.closed_at is not None
    with pytest.raises(ValidationError):
        table_code_open(code=code.short_code, client="test")
    board = client.get(url(night)).content.decode()
    assert 'id="night-closed"' in board
    assert 'id="close-ask"' not in board
    assert code.short_code[:4] not in board
    night_page = client.get(url(night, "nights:night")).content.decode()
    assert 'id="night-closed"' in night_page
    # Renewing a code of a closed night: the service's 400.
    closed = client.post(url(night, "nights:code_renew", 1), {"confirm": "1"})
    assert closed.status_code == 400
    assert "This night is closed." in closed.content.decode()
    # Closing again changes nothing.
    assert client.post(address, {"confirm": "1"}).status_code == 302


def test_a_closed_night_reads_closed_to_everyone(client, night):
    night_close(night=night)
    assert b'id="night-closed"' in client.get(url(night, "nights:night")).content


def test_a_closed_night_offers_no_round_and_starts_none(client, director, night):
    """The night page of a closed night says why no round starts, with no button; a start
    sent anyway (a page left open) is refused, and no table gets a new code."""
    for number in (1, 2):
        play(current_match(code=code_of(night, number)))
    client.force_login(director)
    page = client.get(url(night, "nights:night")).content.decode()
    assert "Start round 2" in page and "Rounds to come" in page
    night_close(night=night)
    page = client.get(url(night, "nights:night")).content.decode()
    assert "Start round 2" not in page
    assert "Rounds to come" not in page  # none comes: the rounds planned are not shown
    assert '<p id="waiting">This night is closed: no more rounds start.</p>' in page
    response = client.post(url(night, "nights:round_start"), {"round": "2"}, follow=True)
    assert "This night is closed: no more rounds start." in response.content.decode()
    assert night.round_set.count() == 1
    assert not TableCode.objects.filter(night=night, revoked_at=None).exists()
    board = client.get(url(night)).content.decode()
    assert "board-table" in board and 'class="code"' not in board


def test_the_board_says_when_typed_codes_are_paused(client, director, night, monkeypatch):
    """Past the wrong codes allowed from all addresses together, the board says that typed
    codes are paused, until when, and what the players and the director can do."""
    monkeypatch.setattr("nights.services.ALL_FAILURES_ALLOWED", 3)
    client.force_login(director)
    assert 'id="codes-paused"' not in client.get(url(night)).content.decode()
    for n in range(3):
        with pytest.raises(ValidationError):
            table_code_open(code="WRONGCODE", client=f"2001:db8:{n}::1")
    page = client.get(url(night)).content.decode()
    assert 'id="codes-paused"' in page
    assert "scan the QR code on the table card" in page
    fragment = client.get(url(night, "nights:board_fragment")).content.decode()
    assert 'id="codes-paused"' in fragment


def test_the_board_reads_in_greek(client, director, night):
    dispute(code_of(night))
    client.force_login(director)
    page = client.get(url(night), HTTP_ACCEPT_LANGUAGE="el").content.decode()
    assert 'lang="el"' in page


def test_the_boards_words_for_time():
    from nights.templatetags.board import ago, waited

    now = timezone.now()
    assert ago(None) == ""
    assert ago(now) == "just now"
    assert ago(now - datetime.timedelta(minutes=1, seconds=5)) == "1 minute ago"
    assert ago(now - datetime.timedelta(minutes=7)) == "7 minutes ago"
    assert ago(now - datetime.timedelta(minutes=130)) == "2 hours ago"
    assert waited(now) == "Waiting for less than a minute."
    assert waited(now - datetime.timedelta(minutes=6)) == "Waiting for 6 minutes."
    with translation.override("el"):
        assert ago(now - datetime.timedelta(minutes=7)) == "πριν από 7 λεπτά"
    with translation.override("pl"):
        assert waited(now - datetime.timedelta(minutes=5)) == "Czeka 5 minut."


def test_a_poll_that_may_no_longer_see_the_board_reloads_the_page(client, director, night, member):
    fragment = url(night, "nights:board_fragment")
    for who in (None, member):
        if who is not None:
            client.force_login(who)
        polled = client.get(fragment, HTTP_HX_REQUEST="true")
        assert polled.status_code == 204
        assert polled["HX-Refresh"] == "true"
    client.force_login(director)
    polled = client.get(fragment, HTTP_HX_REQUEST="true")
    assert polled.status_code == 200 and b'id="board"' in polled.content


def test_the_board_counts_the_deals_played_and_passed_out(client, director, night):
    """ "4 deals played, 1 passed out", each part in the plural forms of the reader's
    language; "no deal yet" at a table that has none."""
    match = current_match(code=code_of(night))
    client.force_login(director)

    def said(language="en"):
        page = client.get(url(night), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        found = []
        for number in (1, 2):
            part = page[page.index(f'id="table-{number}-deals"') :]
            found.append(part[part.index(">") + 1 : part.index("</span>")])
        return tuple(found)

    assert said() == ("(no deal yet)", "(no deal yet)")
    deal_record(match=match, result=PassedOut())
    assert said()[0] == "(1 passed out)"
    deal_record(match=match, result=Played("3NT", "N", 9))
    assert said() == ("(1 deal played, 1 passed out)", "(no deal yet)")
    assert said("pl")[0] == "(1 rozdanie rozegrane, 1 przepasowane)"
    deal_record(match=match, result=PassedOut())
    deal_record(match=match, result=Played("2H", "E", 8))
    assert said()[0] == "(2 deals played, 2 passed out)"
    assert said("pl")[0] == "(2 rozdania rozegrane, 2 przepasowane)"
    assert said("el")[0] == "(2 μοιρασιές παίχτηκαν, 2 περάστηκαν)"


# --- the rounds: how long the round has been played, the next one started from the board ----


def test_the_board_says_how_long_the_round_has_been_played(client, director, night):
    from nights.models import Round

    Round.objects.filter(night=night, number=1).update(
        started_at=timezone.now() - datetime.timedelta(minutes=18, seconds=20)
    )
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert "Round 1, playing for 18 min" in page
    # No start while round 1 is played: it waits for its tables.
    assert 'id="board-round-start"' not in page
    fragment = client.get(url(night, "nights:board_fragment")).content.decode()
    assert "Round 1, playing for 18 min" in fragment
    Round.objects.filter(night=night, number=1).update(started_at=timezone.now())
    assert (
        "Round 1, just started" in client.get(url(night, "nights:board_fragment")).content.decode()
    )
    with translation.override("pl"):
        Round.objects.filter(night=night, number=1).update(
            started_at=timezone.now() - datetime.timedelta(minutes=5)
        )
        polish = client.get(url(night), HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Runda 1" in polish and "5 min" in polish


def test_the_board_starts_the_next_round_with_the_night_pages_checks(client, director, night):
    client.force_login(director)
    start = url(night, "nights:board_round_start")
    # Round 1 still played at both tables: refused, saying which (a page left open).
    refused = client.post(start, {"round": "2"})
    assert refused.status_code == 400
    assert "Round 1 is still being played at tables 1, 2." in refused.content.decode()
    for number in (1, 2):
        play(current_match(code=code_of(night, number)))
    page = client.get(url(night)).content.decode()
    assert 'id="board-round-start"' in page and "Start round 2" in page
    assert 'name="round" value="2"' in page
    assert "playing for" not in page  # round 1 is over
    # A stale number (round 1 again, after it started): refused.
    stale = client.post(start, {"round": "1"})
    assert stale.status_code == 400
    assert "Round 1 has already started." in stale.content.decode()
    response = client.post(start, {"round": "2"})
    assert response.status_code == 302 and response["Location"] == url(night)
    assert night.round_set.count() == 2
    page = client.get(response["Location"]).content.decode()
    assert "Round 2 started." in page
    assert "Round 2, just started" in page and 'id="board-round-start"' not in page
    # The same tap again: the round has started, nothing more.
    again = client.post(start, {"round": "2"})
    assert again.status_code == 400 and "Round 2 has already started." in again.content.decode()
    assert night.round_set.count() == 2


def test_a_closed_night_starts_no_round_from_the_board(client, director, night):
    for number in (1, 2):
        play(current_match(code=code_of(night, number)))
    night_close(night=night)
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert 'id="board-round-start"' not in page
    closed = client.post(url(night, "nights:board_round_start"), {"round": "2"})
    assert closed.status_code == 400
    assert "This night is closed: no more rounds start." in closed.content.decode()
    assert night.round_set.count() == 1


def test_a_night_seated_by_hand_is_seated_on_the_night_page(client, director, club):
    from nights.services import night_start
    from tests.clubs.factories import make_players

    night = night_start(
        club=club, date=PLAY_DATE, players=make_players(club, 8), movement="fixed", rounds=2
    )
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert 'id="board-round-start"' not in page
    assert 'id="board-round-seat"' in page
    assert url(night, "nights:night") + "#next-round-title" in page
    # Started anyway from the board: the service asks for the seating.
    refused = client.post(url(night, "nights:board_round_start"), {"round": "1"})
    assert refused.status_code == 400 and "Seat at least one table." in refused.content.decode()
    assert not night.round_set.exists()


def test_starting_a_round_from_the_board_is_for_the_clubs_directors_only(client, night, member):
    for number in (1, 2):
        play(current_match(code=code_of(night, number)))
    start = url(night, "nights:board_round_start")
    assert client.post(start, {"round": "2"}).status_code == 302  # to the login
    client.force_login(member)
    assert client.post(start, {"round": "2"}).status_code == 403
    assert client.get(start).status_code in (403, 405)
    assert night.round_set.count() == 1


def test_the_boards_links_and_buttons_have_ids_for_the_focus_to_stay(client, director, night):
    """board.js gives the focus back, after a poll, to the element of the same id."""
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    for number in (1, 2):
        assert f'id="entry-link-{number}"' in page
        assert f'id="enter-{number}"' in page
        assert f'id="renew-{number}"' in page


# --- polled: 304s while nothing on the board changed ----------------------------------------


def opened_board(client, user, night):
    """A director's browser with the board open: signed in, its CSRF cookie set."""
    client.force_login(user)
    assert client.get(url(night)).status_code == 200


def board_poll(client, night, etag=None):
    headers = {"HX-Request": "true"}
    if etag is not None:
        headers["If-None-Match"] = etag
    return client.get(url(night, "nights:board_fragment"), headers=headers)


def test_a_board_poll_is_a_304_from_the_cache_until_a_table_changes(
    client, director, night, monkeypatch
):
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)  # one ETag period
    opened_board(client, director, night)
    first = board_poll(client, night)
    etag = first["ETag"]
    assert first.status_code == 200 and "private" in first["Cache-Control"]
    with CaptureQueriesContext(connection) as queries:
        assert board_poll(client, night, etag).status_code == 304
    # Only the session's (none with Redis: config.sessions).
    assert [q["sql"] for q in queries if "django_session" not in q["sql"]] == []
    enter(code_of(night, 2))  # a deal entered at a table: waiting for the opponents
    changed = board_poll(client, night, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert "waiting" in changed.content.decode().lower()


def test_the_boards_etag_moves_with_the_minute_and_the_pause(client, director, night, monkeypatch):
    """What the board says of time and of typed codes paused changes without a write."""
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)
    now = [1_800_000_000.0]
    monkeypatch.setattr("nights.board._now", lambda: now[0])
    monkeypatch.setattr("nights.services.ALL_FAILURES_ALLOWED", 3)
    opened_board(client, director, night)
    etag = board_poll(client, night)["ETag"]
    now[0] += 59
    assert board_poll(client, night, etag).status_code == 304  # the same minute
    now[0] += 1
    moved = board_poll(client, night, etag)
    assert moved.status_code == 200
    etag = moved["ETag"]
    for n in range(3):
        with pytest.raises(ValidationError):
            table_code_open(code="WRONGCODE", client=f"2001:db8:{n}::1")
    paused = board_poll(client, night, etag)
    assert paused.status_code == 200 and 'id="codes-paused"' in paused.content.decode()


def test_a_signed_out_director_is_never_told_unchanged(client, director, night, monkeypatch):
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)
    opened_board(client, director, night)
    etag = board_poll(client, night)["ETag"]
    client.logout()
    polled = board_poll(client, night, etag)
    assert polled.status_code == 204 and polled["HX-Refresh"] == "true"
    client.force_login(director)
    client.cookies[settings.CSRF_COOKIE_NAME] = get_random_string(32)  # as signing in sets
    again = board_poll(client, night, etag)  # its forms must be made for the new cookie
    assert again.status_code == 200 and again["ETag"] != etag


def test_the_board_reads_its_tables_deals_in_one_query(client, director, night):
    for number in (1, 2):
        play(current_match(code=code_of(night, number)), [("4S", "N", 10), ("3NT", "E", 9)])
    client.force_login(director)
    with CaptureQueriesContext(connection) as queries:
        assert board_poll(client, night).status_code == 200
    deals = [q["sql"] for q in queries if 'FROM "matches_deal"' in q["sql"]]
    assert len(deals) == 1, deals
