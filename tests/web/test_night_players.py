"""The night page's and the board's Players section (issue 29): a director adds a late arrival
(a member or a new guest) and removes a leaver, each from the next round, the removal asked
first; the list says who arrived late and who left."""

import pytest
from django.urls import reverse
from django.utils import translation

from clubs.services import player_create
from nights.models import NightPlayer
from nights.services import night_round_start, night_start
from tests.web.conftest import DAY, play

pytestmark = pytest.mark.django_db

NS_WIN = [("3NT", "N", 9), ("1C", "E", 6), ("2H", "S", 8), ("1S", "W", 6)]


@pytest.fixture(autouse=True)
def no_language_left_behind():
    yield
    translation.deactivate()


@pytest.fixture
def eight(club, players):
    return players + [player_create(club=club, name=name) for name in ("Georgia", "Hector")]


@pytest.fixture
def night(club, eight):
    return night_start(club=club, date=DAY, players=eight, movement="round_robin", rounds=4)


@pytest.fixture
def member(django_user_model, club):
    user = django_user_model.objects.create_user("member", password="pw")
    player_create(club=club, name="Member", user=user)
    return user


def url(night, name, *args):
    return reverse(f"nights:{name}", args=[night.session.club.slug, night.session.date, *args])


def played_round(night):
    round = night_round_start(night=night)
    for match in round.matches.all():
        play(match, NS_WIN)
    return round


def test_a_director_adds_a_member_who_arrives_late(client, director, club, night):
    late = player_create(club=club, name="Iris")
    client.force_login(director)
    played_round(night)
    page = client.get(url(night, "night"))
    html = page.content.decode()
    assert 'id="players"' in html and "Add from round 2" in html
    # The members not playing are offered; those playing are not.
    choices = dict(page.context["player_form"].fields["player"].choices)
    assert str(late.pk) in choices and str(night.players.first().player_id) not in choices
    response = client.post(url(night, "player_add"), {"player": str(late.pk), "group": ""})
    assert response.status_code == 302
    assert response["Location"] == url(night, "night") + "#players"
    row = NightPlayer.objects.get(night=night, player=late)
    assert row.joined_round == 2
    page = client.get(response["Location"])
    html = page.content.decode()
    assert "Iris plays from round 2" in html
    assert "from round 2" in html.split(f'id="player-{late.pk}"')[1].split("</li>")[0]
    assert "Iris" in [p.name for p in page.context["plan"].playing.values()]


def test_a_new_guest_arrives_late(client, director, club, night):
    client.force_login(director)
    response = client.post(url(night, "player_add"), {"guest": "Jonas Guest", "player": ""})
    assert response.status_code == 302
    assert NightPlayer.objects.filter(night=night, player__name="Jonas Guest").exists()


def test_the_add_forms_errors(client, director, club, night, eight):
    client.force_login(director)
    response = client.post(url(night, "player_add"), {"player": "", "guest": ""})
    assert response.status_code == 400
    assert response.context["player_form"].errors["player"] == [
        "Choose a member, or give a new guest's name."
    ]
    response = client.post(url(night, "player_add"), {"player": str(eight[0].pk)})
    assert response.status_code == 400  # not offered: already playing
    assert "player" in response.context["player_form"].errors
    assert NightPlayer.objects.filter(night=night).count() == 8


def test_a_leaver_is_asked_first_then_removed(client, director, night, eight):
    client.force_login(director)
    played_round(night)
    leaver = eight[2]
    page = client.get(url(night, "night")).content.decode()
    assert f'id="leave-{leaver.pk}"' in page and "Remove from round 2…" in page
    # The first press asks (without JavaScript: a page of its own), and changes nothing.
    asked = client.post(url(night, "player_leave", leaver.pk), {})
    assert asked.status_code == 302
    assert asked["Location"] == url(night, "night") + f"?leave={leaver.pk}"
    assert NightPlayer.objects.get(night=night, player=leaver).left_round is None
    page = client.get(asked["Location"]).content.decode()
    assert f'id="confirm-leave-{leaver.pk}"' in page
    assert f"Remove {leaver.name} from round 2?" in page
    assert f'id="leave-confirm-{leaver.pk}"' in page
    done = client.post(url(night, "player_leave", leaver.pk), {"confirm": "1"})
    assert done.status_code == 302
    assert NightPlayer.objects.get(night=night, player=leaver).left_round == 2
    page = client.get(done["Location"])
    html = page.content.decode()
    assert f"{leaver.name} leaves after round 1" in html
    assert "left after round 1" in html.split(f'id="player-{leaver.pk}"')[1].split("</li>")[0]
    assert leaver.pk not in page.context["plan"].playing
    assert f'id="leave-{leaver.pk}"' not in html


def test_a_refused_leave_is_said(client, director, club, eight):
    night = night_start(club=club, date=DAY, players=eight[:4], movement="fixed", rounds=2)
    client.force_login(director)
    response = client.post(url(night, "player_leave", eight[0].pk), {"confirm": "1"}, follow=True)
    assert "A night needs at least 4 players" in response.content.decode()
    assert NightPlayer.objects.filter(night=night).count() == 4


def test_the_board_offers_the_same(client, director, club, night, eight):
    late = player_create(club=club, name="Iris")
    client.force_login(director)
    board = client.get(url(night, "board")).content.decode()
    assert 'id="players"' in board and "Add from round 1" in board
    # The board's polled fragment is left alone.
    fragment = client.get(url(night, "board_fragment")).content.decode()
    assert 'id="players"' not in fragment
    response = client.post(url(night, "player_add"), {"player": str(late.pk), "back": "board"})
    assert response["Location"] == url(night, "board") + "#players"
    asked = client.post(url(night, "player_leave", eight[0].pk), {"back": "board"})
    assert asked["Location"] == url(night, "board") + f"?leave={eight[0].pk}"
    assert f'id="leave-confirm-{eight[0].pk}"' in client.get(asked["Location"]).content.decode()
    # Before round 1 the new player is simply at the night; one who leaves before it is gone.
    assert NightPlayer.objects.get(night=night, player=late).joined_round == 1
    client.post(url(night, "player_leave", late.pk), {"back": "board", "confirm": "1"})
    assert not NightPlayer.objects.filter(night=night, player=late).exists()


def test_only_directors_change_the_players(client, club, night, member, eight):
    late = player_create(club=club, name="Iris")
    page = client.get(url(night, "night")).content.decode()
    assert 'id="players"' not in page
    for who in (None, member):
        if who is not None:
            client.force_login(who)
        add = client.post(url(night, "player_add"), {"player": str(late.pk)})
        leave = client.post(url(night, "player_leave", eight[0].pk), {"confirm": "1"})
        assert add.status_code == leave.status_code == (302 if who is None else 403)
    assert NightPlayer.objects.filter(night=night).count() == 8
    assert not NightPlayer.objects.filter(left_round__isnull=False).exists()


def test_a_closed_night_offers_no_change(client, director, night):
    from nights.services import night_close

    night_close(night=night)
    client.force_login(director)
    html = client.get(url(night, "night")).content.decode()
    assert 'id="players"' in html and "Add from round" not in html and "Remove from" not in html


def test_a_leaver_of_the_round_being_played_leaves_after_it(client, director, night, eight):
    client.force_login(director)
    night_round_start(night=night)
    client.post(url(night, "player_leave", eight[1].pk), {"confirm": "1"})
    html = client.get(url(night, "night")).content.decode()
    assert "leaves after round 1" in html.split(f'id="player-{eight[1].pk}"')[1].split("</li>")[0]
