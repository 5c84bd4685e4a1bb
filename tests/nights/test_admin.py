"""The read-only admin of club nights."""

import pytest
from django.urls import reverse

from nights.services import night_round_start, night_start
from tests.clubs.factories import PLAY_DATE, make_club, make_players

pytestmark = pytest.mark.django_db


def test_a_night_reads_in_the_admin_with_its_players_and_rounds(admin_client):
    club = make_club()
    players = make_players(club, 5, prefix="Present")
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=2
    )
    night_round_start(night=night)
    page = admin_client.get(reverse("admin:nights_night_change", args=[night.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert all(player.name in text for player in players)
    assert 'name="players-0-group"' not in text  # read-only: the group is not a field
    assert admin_client.get(reverse("admin:nights_night_add")).status_code == 403
    listing = admin_client.get(reverse("admin:nights_night_changelist"))
    assert str(night.session) in listing.content.decode()
