"""The demo that ``make run`` loads (``setup_demo``): where it sends a newcomer, its two
nights, and a new night started today beside them."""

import datetime
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from clubs.models import Club, Membership, Session
from matches.demo import DEMO_SLUG
from matches.models import Deal, Match
from nights.demo import FINISHED_DAYS_AGO, LIVE_DAYS_AGO, demo_load
from nights.models import EntryState, Night, Round, TableEntry
from nights.selectors import night_plan
from nights.services import night_round_start, night_start

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2025, 6, 6)


def setup_demo(settings):
    settings.DEBUG = True
    out = StringIO()
    call_command("setup_demo", "--port", "8123", stdout=out)
    return out.getvalue()


def counts():
    return tuple(
        model.objects.count() for model in (Match, Deal, Session, Night, Round, TableEntry)
    )


def test_setup_demo_sends_the_director_to_the_night_pages_once_loaded(settings, client):
    first = setup_demo(settings)
    lines = first.splitlines()
    sign_in = next(line for line in lines if "director / partscore-demo" in line)
    assert "http://127.0.0.1:8123/login/" in sign_in and "/admin/" not in sign_in
    club = Club.objects.get(slug=DEMO_SLUG)
    live = Night.objects.get(session__club=club, closed_at=None)
    night = f"http://127.0.0.1:8123/clubs/{DEMO_SLUG}/nights/{live.session.date.isoformat()}/"
    assert night in first and f"{night}board/" in first and f"{night}screen/" in first
    assert "http://127.0.0.1:8123/admin/" in first  # still named, after the night pages
    assert first.index("/admin/") > first.index("/login/")

    loaded = counts()
    second = setup_demo(settings)
    assert "already loaded" in second and night in second and "/login/" in second
    assert counts() == loaded

    director = Membership.objects.get(club=club, role="director").player.user
    assert director.username == "director"
    assert director.is_staff and not director.is_superuser
    response = client.post(
        reverse("clubs:login"), {"username": "director", "password": "partscore-demo"}
    )
    assert response.status_code == 302
    page = client.get("/admin/matches/match/")
    assert page.status_code == 200 and "Partscore Demo Club" in page.content.decode()


@pytest.fixture
def demo():
    user = get_user_model().objects.create_user("d", password="pw")
    club = demo_load(director=user, seed=11, today=TODAY)
    assert club is not None
    return user, club


def test_the_demo_has_a_finished_night_and_one_in_progress_before_today(demo):
    user, club = demo
    finished, live = Night.objects.filter(session__club=club).order_by("session__date")
    assert finished.session.date == TODAY - datetime.timedelta(days=FINISHED_DAYS_AGO)
    assert live.session.date == TODAY - datetime.timedelta(days=LIVE_DAYS_AGO)
    # The finished night: closed, every round played to the end.
    plan = night_plan(night=finished)
    assert finished.closed_at is not None
    assert len(plan.rounds) == finished.rounds and all(r.finished for r in plan.rounds)
    # The night in progress: round 1 played, round 2 being played with deals partly recorded,
    # a table of two, and a deal entered at a table waiting for the opponents.
    plan = night_plan(night=live)
    assert live.closed_at is None
    first, second = (r for r in plan.rounds if r.started)
    assert first.finished and not second.finished
    matches = Round.objects.get(night=live, number=2).matches.all()
    assert {m.status for m in matches} == {"in_progress"}
    assert sorted(m.deals.count() for m in matches) == [0, 1, 2]
    assert matches.filter(kind="two_player").exists()
    waiting = TableEntry.objects.get(match__in=matches, state=EntryState.WAITING)
    assert waiting.sequence == 3
    assert TableEntry.objects.filter(state=EntryState.CONFIRMED).count() == 2
    assert demo_load(director=user, seed=11, today=TODAY) is None  # loaded once


def test_the_demo_nights_pages_board_screen_and_pad_show_the_night(demo, client):
    user, club = demo
    live = Night.objects.get(session__club=club, closed_at=None)
    args = [club.slug, live.session.date]
    client.force_login(user)
    for name in ("nights:night", "nights:board", "nights:screen"):
        assert client.get(reverse(name, args=args)).status_code == 200, name
    board = client.get(reverse("nights:board", args=args)).content.decode()
    waiting = TableEntry.objects.get(state=EntryState.WAITING)
    assert f'id="entry-{waiting.pk}"' in board and "1 deal waits for the opponents." in board
    pad = client.get(reverse("nights:pad_open", args=[waiting.code.token]), follow=True)
    assert pad.status_code == 200 and "Deal 3" in pad.content.decode()


def test_a_night_started_today_with_the_demos_players_is_a_night_of_its_own(demo, client):
    user, club = demo
    players = list(Membership.objects.filter(club=club).values_list("player_id", flat=True))
    client.force_login(user)
    response = client.post(
        reverse("nights:new", args=[club.slug]),
        {
            "date": TODAY.isoformat(),
            "players": [str(pk) for pk in players[:12]],
            "movement": "round_robin",
            "remainder": "sit_out",
            "rounds": "3",
            "tie_rule": "below",
            "prizes": "3",
        },
    )
    assert response.status_code == 302, response.content.decode()
    night = Night.objects.get(session__club=club, session__date=TODAY)
    assert not night.session.tables.exists()  # a session of its own
    round = night_round_start(night=night, actor=user)
    assert round.matches.count() == 3
    assert Match.objects.filter(table__session=night.session).count() == 3
    # Every demo player, all sixteen, can play tonight too.
    tomorrow = TODAY + datetime.timedelta(days=1)
    other = night_start(club=club, date=tomorrow, players=players, movement="round_robin", rounds=2)
    assert night_round_start(night=other, actor=user).matches.count() == 4
