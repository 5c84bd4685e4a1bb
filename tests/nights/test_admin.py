"""The read-only admin of club nights."""

import pytest
from django.urls import reverse

from nights.services import night_round_start, night_start
from scoring.engine import Played
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


def test_table_codes_and_entries_read_in_the_admin_without_the_token(admin_client):
    from nights.models import TableCode
    from nights.services import table_entry_submit
    from nights.table_selectors import current_match

    club = make_club()
    night = night_start(
        club=club, date=PLAY_DATE, players=make_players(club, 4), movement="round_robin", rounds=1
    )
    night_round_start(night=night)
    code = TableCode.objects.get(night=night)
    match = current_match(code=code)
    entry = table_entry_submit(
        code=code, sequence=1, entered_by=match.north_id, result=Played("3NT", "N", 9)
    )
    listing = admin_client.get(reverse("admin:nights_tablecode_changelist")).content.decode()
    assert code.short_code in listing
    assert code.token not in listing
    page = admin_client.get(reverse("admin:nights_tablecode_change", args=[code.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert code.short_code in text
    assert code.token not in text
    assert code.token[:4] + "…" in text
    assert 'name="short_code"' not in text  # read-only
    assert admin_client.get(reverse("admin:nights_tablecode_add")).status_code == 403
    page = admin_client.get(reverse("admin:nights_tableentry_change", args=[entry.pk]))
    assert page.status_code == 200
    assert code.token not in page.content.decode()
    assert admin_client.get(reverse("admin:nights_tableentry_add")).status_code == 403
    deleted = admin_client.post(reverse("admin:nights_tablecode_delete", args=[code.pk]))
    assert deleted.status_code == 403
    assert TableCode.objects.filter(pk=code.pk).exists()


def test_table_codes_in_the_admin_are_scoped_to_ones_clubs(client):
    from django.contrib.auth.models import Permission

    from nights.models import TableCode
    from tests.clubs.factories import make_user

    staff = make_user("staffer", is_staff=True)
    staff.user_permissions.add(
        *Permission.objects.filter(codename__in=["view_tablecode", "view_tableentry"])
    )
    mine, theirs = make_club(creator=staff), make_club()
    for club in (mine, theirs):
        night = night_start(
            club=club,
            date=PLAY_DATE,
            players=make_players(club, 4),
            movement="round_robin",
            rounds=1,
        )
        night_round_start(night=night)
    my_code = TableCode.objects.get(night__session__club=mine)
    their_code = TableCode.objects.get(night__session__club=theirs)
    client.force_login(staff)
    listing = client.get(reverse("admin:nights_tablecode_changelist")).content.decode()
    assert my_code.short_code in listing
    assert their_code.short_code not in listing
    other = client.get(reverse("admin:nights_tablecode_change", args=[their_code.pk]))
    assert other.status_code in (302, 403, 404)
