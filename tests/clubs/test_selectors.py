import pytest
from django.contrib.auth.models import AnonymousUser

from clubs.models import Club
from clubs.selectors import (
    can_direct,
    can_read,
    club_role,
    clubs_directed_by,
    clubs_visible_to,
    players_with_memberships,
    seasons_of,
    sessions_of,
    tables_of,
)
from clubs.services import club_update, player_create, session_ensure, table_create
from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user

pytestmark = pytest.mark.django_db


def test_visibility_and_roles():
    director, member, outsider = make_user(), make_user(), make_user()
    root = make_user(is_superuser=True)
    club = make_club(creator=director)
    other = make_club()
    public = make_club()
    club_update(club=public, public=True)
    player_create(club=club, name="Member", user=member)

    assert set(clubs_visible_to(director)) == {club}
    assert set(clubs_visible_to(member)) == {club}
    assert set(clubs_visible_to(outsider)) == set()
    assert set(clubs_visible_to(outsider, include_public=True)) == {public}
    assert set(clubs_visible_to(AnonymousUser(), include_public=True)) == {public}
    assert set(clubs_visible_to(root)) == {club, other, public}

    assert set(clubs_directed_by(director)) == {club}
    assert set(clubs_directed_by(member)) == set()
    assert set(clubs_directed_by(AnonymousUser())) == set()
    assert set(clubs_directed_by(root)) == {club, other, public}

    assert club_role(director, club) == "director"
    assert club_role(member, club) == "player"
    assert club_role(member, other) is None
    assert club_role(AnonymousUser(), club) is None
    assert club_role(root, other) == "director"

    # The pages' and the API's rules: read a public club or your own; direct your own.
    def readable(user):
        return [c for c in (club, other, public) if can_read(user, c)]

    def directed(user):
        return [c for c in (club, other, public) if can_direct(user, c.pk)]

    assert readable(director) == readable(member) == [club, public]
    assert readable(outsider) == readable(AnonymousUser()) == [public]
    assert readable(root) == directed(root) == [club, other, public]
    assert directed(director) == [club]
    assert directed(member) == directed(outsider) == directed(AnonymousUser()) == []
    assert not can_direct(None, club.pk)


def test_the_rows_of_the_clubs_given():
    club, other = make_club(), make_club()
    members = make_players(club, 2)
    outsiders = make_players(other, 1)
    session, _created = session_ensure(club=club, date=PLAY_DATE)
    table = table_create(session=session, seats=4)
    table_create(session=session_ensure(club=other, date=PLAY_DATE)[0], seats=2)
    mine = Club.objects.filter(pk=club.pk)

    assert [season.club for season in seasons_of(clubs=mine)] == [club]
    assert [(s.pk, s.table_count) for s in sessions_of(clubs=mine)] == [(session.pk, 1)]
    assert list(tables_of(clubs=mine)) == [table]
    players = players_with_memberships(clubs=mine).order_by("id")
    assert list(players)[-2:] == members  # after the creator's player
    assert not set(players) & set(outsiders)
    assert [m.club for m in players[0].visible_memberships] == [club]
    assert list(sessions_of(clubs=Club.objects.none())) == []
