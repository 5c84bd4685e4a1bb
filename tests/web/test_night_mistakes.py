"""The night's mistakes undone from the pages, each asked first (a second step that works
without JavaScript): a round taken back and a seat put right (the night page), a match ended
(the table page and the board), a closed night reopened (the board), and a closed night that
offers no round."""

import pytest
from django.urls import reverse
from django.utils import translation

from matches.models import Match, MatchStatus
from matches.services import deal_record
from nights.models import Round, TableCode
from nights.services import night_close, night_round_start
from scoring.engine import PassedOut
from tests.clubs.factories import make_club, make_user
from tests.nights.tables import started_night
from tests.nights.test_services import play

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.deactivate()


@pytest.fixture
def director():
    return make_user("boss")


@pytest.fixture
def night(director):
    return started_night(make_club(creator=director, slug="hearts", public=True))


@pytest.fixture
def member():
    return make_user("member")


def url(night, name="nights:night", *args):
    return reverse(name, args=[night.session.club.slug, night.session.date, *args])


def matches(night):
    return list(Match.objects.filter(table__session=night.session).order_by("table__number", "pk"))


def test_each_form_on_the_night_page_has_its_own_ids(client, director, night):
    """The seat form and the late arrival's form both have a "player": each label names
    its own field (no id twice on the page)."""
    import re
    from collections import Counter

    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert 'id="swap_player"' in page and 'id="id_player"' in page
    twice = [pk for pk, count in Counter(re.findall(r' id="([^"]+)"', page)).items() if count > 1]
    assert not twice, twice


def test_a_round_is_taken_back_asked_first(client, director, night):
    client.force_login(director)
    page = client.get(url(night)).content.decode()
    assert 'id="undo-ask"' in page and "Take back round 1…" in page
    address = url(night, "nights:round_undo", 1)
    asked = client.post(address)
    assert asked.status_code == 200
    assert 'id="undo-confirm"' in asked.content.decode()
    assert Round.objects.filter(night=night).count() == 1
    done = client.post(address, {"confirm": "1"}, follow=True)
    assert "Round 1 was taken back: it can be started again." in done.content.decode()
    assert not Round.objects.filter(night=night).exists()
    assert not TableCode.objects.filter(night=night).exists()
    page = done.content.decode()
    assert "Start round 1" in page and 'id="undo-ask"' not in page


def test_no_take_back_once_a_deal_is_recorded(client, director, night):
    client.force_login(director)
    deal_record(match=matches(night)[1], result=PassedOut())
    page = client.get(url(night)).content.decode()
    assert 'id="undo-ask"' not in page
    refused = client.post(url(night, "nights:round_undo", 1), {"confirm": "1"}, follow=True)
    assert "this round can no longer be taken back" in refused.content.decode()
    assert Round.objects.filter(night=night).count() == 1


def test_a_seat_is_put_right_asked_first(client, director, night):
    client.force_login(director)
    one, two = matches(night)
    page = client.get(url(night)).content.decode()
    assert 'id="seat-swap"' in page
    address = url(night, "nights:seats_swap", 1)
    data = {"player": one.north_id, "other": two.east_id}
    asked = client.post(address, data)
    assert asked.status_code == 200
    text = asked.content.decode()
    assert 'id="swap-confirm"' in text
    assert f"{one.north.name} and {two.east.name} change places?" in text
    assert Match.objects.get(pk=one.pk).north_id == data["player"]
    done = client.post(address, {**data, "confirm": "1"}, follow=True)
    assert f"{one.north.name} and {two.east.name} changed places." in done.content.decode()
    assert Match.objects.get(pk=one.pk).north_id == two.east_id
    assert Match.objects.get(pk=two.pk).east_id == one.north_id


def test_a_seat_at_a_table_with_a_deal_is_not_offered_nor_changed(client, director, night):
    client.force_login(director)
    one, two = matches(night)
    deal_record(match=one, result=PassedOut())
    page = client.get(url(night)).content.decode()
    assert f'value="{two.north_id}"' in page and f'value="{one.north_id}"' not in page
    data = {"player": one.north_id, "other": two.east_id, "confirm": "1"}
    refused = client.post(url(night, "nights:seats_swap", 1), data)
    assert refused.status_code == 400
    assert Match.objects.get(pk=one.pk).north_id == data["player"]
    # The same player twice: the form says so beside the field.
    same = client.post(
        url(night, "nights:seats_swap", 1),
        {"player": two.north_id, "other": two.north_id, "confirm": "1"},
    )
    assert same.status_code == 400
    assert "Choose another player to change places with." in same.content.decode()


def test_the_mistakes_are_the_directors_only(client, member, night):
    one, two = matches(night)
    posts = [
        (url(night, "nights:round_undo", 1), {"confirm": "1"}),
        (url(night, "nights:seats_swap", 1), {"player": one.north_id, "other": two.north_id}),
        (url(night, "nights:reopen"), {"confirm": "1"}),
        (url(night, "nights:match_abandon", one.pk), {"confirm": "1"}),
        (reverse("matches:table_abandon", args=[one.pk]), {"confirm": "1"}),
    ]
    for address, data in posts:
        assert client.post(address, data).status_code == 302  # to the login
    client.force_login(member)
    for address, data in posts:
        assert client.post(address, data).status_code == 403
    assert Round.objects.filter(night=night).count() == 1
    assert all(m.status == MatchStatus.IN_PROGRESS for m in matches(night))
    page = client.get(url(night)).content.decode()
    assert 'id="undo-ask"' not in page and 'id="seat-swap"' not in page


def test_a_match_is_ended_from_the_table_page_asked_first(client, director, night):
    client.force_login(director)
    one, two = matches(night)
    play(two)
    address = reverse("matches:table_abandon", args=[one.pk])
    table = client.get(reverse("matches:table", args=[one.pk])).content.decode()
    assert 'id="abandon-ask"' in table
    asked = client.post(address)
    assert asked.status_code == 200 and 'id="abandon-confirm"' in asked.content.decode()
    assert Match.objects.get(pk=one.pk).status == MatchStatus.IN_PROGRESS
    waiting = client.get(url(night)).content.decode()
    assert "Round 1 is still being played at table 1." in waiting
    done = client.post(address, {"confirm": "1"}, follow=True)
    text = done.content.decode()
    assert "The match was ended: it is abandoned and not counted." in text
    assert "The match was abandoned." in text and 'id="abandon-ask"' not in text
    assert Match.objects.get(pk=one.pk).status == MatchStatus.ABANDONED
    # The next round no longer waits for it.
    assert "Start round 2" in client.get(url(night)).content.decode()


def test_a_match_is_ended_from_the_board_asked_first(client, director, night):
    client.force_login(director)
    one, _two = matches(night)
    board = client.get(url(night, "nights:board")).content.decode()
    assert 'id="abandon-1"' in board and 'id="abandon-2"' in board
    address = url(night, "nights:match_abandon", one.pk)
    asked = client.post(address)
    assert asked.status_code == 302 and f"abandon={one.pk}" in asked["Location"]
    confirm = client.get(asked["Location"]).content.decode()
    assert 'id="abandon-confirm-1"' in confirm
    assert Match.objects.get(pk=one.pk).status == MatchStatus.IN_PROGRESS
    done = client.post(address, {"confirm": "1"}, follow=True)
    text = done.content.decode()
    assert "Table 1: the match was ended; it is not counted." in text
    assert 'id="abandon-1"' not in text and 'id="abandon-2"' in text
    assert Match.objects.get(pk=one.pk).status == MatchStatus.ABANDONED
    # Ended twice: the service's refusal, not a 500.
    again = client.post(address, {"confirm": "1"})
    assert again.status_code == 409
    # A match of another night: not found.
    other = started_night()
    stranger = matches(other)[0]
    assert client.post(url(night, "nights:match_abandon", stranger.pk)).status_code == 404


def test_a_closed_night_offers_no_round_and_is_reopened_asked_first(client, director, night):
    client.force_login(director)
    for match in matches(night):
        play(match)
    assert "Start round 2" in client.get(url(night)).content.decode()
    night_close(night=night)
    page = client.get(url(night)).content.decode()
    assert "Start round" not in page and 'id="undo-ask"' not in page
    assert "This night is closed: no more rounds start." in page
    refused = client.post(url(night, "nights:round_start"), {"round": "2"}, follow=True)
    assert "This night is closed: no more rounds start." in refused.content.decode()
    assert Round.objects.filter(night=night).count() == 1
    board = client.get(url(night, "nights:board")).content.decode()
    assert 'id="reopen-ask"' in board
    old = set(TableCode.objects.filter(night=night).values_list("pk", flat=True))
    address = url(night, "nights:reopen")
    asked = client.post(address)
    assert asked.status_code == 302 and "reopen=1" in asked["Location"]
    assert 'id="reopen-confirm"' in client.get(asked["Location"]).content.decode()
    night.refresh_from_db()
    assert night.closed_at is not None
    done = client.post(address, {"confirm": "1"}, follow=True)
    assert "The night is open again" in done.content.decode()
    night.refresh_from_db()
    assert night.closed_at is None
    live = TableCode.objects.filter(night=night, revoked_at=None)
    assert live.count() == 2 and not set(live.values_list("pk", flat=True)) & old
    assert "Start round 2" in client.get(url(night)).content.decode()
    night_round_start(night=night)
