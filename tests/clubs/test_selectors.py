from datetime import date

import pytest
from django.contrib.auth.models import AnonymousUser

from clubs.models import Club
from clubs.selectors import (
    can_direct,
    can_read,
    club_role,
    clubs_directed_by,
    clubs_visible_to,
    members_of,
    players_with_memberships,
    season_covering,
    season_suggestion,
    seasons_of,
    sessions_of,
    tables_of,
)
from clubs.services import (
    club_update,
    membership_set,
    player_create,
    season_create,
    session_ensure,
    table_create,
)
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


def test_members_of_a_club_active_or_not_by_name():
    club, other = make_club(), make_club()
    zoe, adam = player_create(club=club, name="Zoe"), player_create(club=club, name="Adam")
    player_create(club=other, name="Elsewhere")
    membership_set(club=club, player=zoe, active=False, actor=None)
    rows = [(m.player.name, m.active) for m in members_of(club)]
    assert [row for row in rows if row[0] in ("Adam", "Zoe", "Elsewhere")] == [
        ("Adam", True),
        ("Zoe", False),
    ]
    assert len(rows) == 3  # and the club's director
    assert adam.pk in {m.player_id for m in members_of(club)}


def test_season_covering():
    club = make_club()  # its season: 2025
    assert season_covering(club, PLAY_DATE).name == "2025"
    assert season_covering(club, date(2026, 1, 1)) is None


def suggest(club, **kwargs):
    draft = season_suggestion(club, **kwargs)
    return draft.name, draft.start_date.isoformat(), draft.end_date.isoformat()


def test_the_next_season_follows_the_last_as_long_and_named_on():
    club = make_club()  # "2025": the whole of 2025
    assert suggest(club) == ("2026", "2026-01-01", "2026-12-31")
    club = make_club(season=False)
    season_create(club=club, name="Winter 2024/25", start_date="2024-09-01", end_date="2025-02-28")
    assert suggest(club) == ("Winter 2025/26", "2025-03-01", "2025-08-31")
    club = make_club(season=False)
    season_create(club=club, name="Season 7", start_date="2025-03-10", end_date="2025-03-23")
    assert suggest(club) == ("Season 8", "2025-03-24", "2025-04-06")  # fourteen days


def test_a_name_with_no_simple_pattern_becomes_the_years_season():
    club = make_club(season=False, language="en")
    season_create(club=club, name="Spring 2025", start_date="2025-01-01", end_date="2025-06-30")
    assert suggest(club) == ("2025 season", "2025-07-01", "2025-12-31")  # same year: no pattern
    season_create(club=club, name="Autumn", start_date="2025-07-01", end_date="2025-12-31")
    assert suggest(club)[0] == "2026 season"
    greek = make_club(season=False, language="el")
    season_create(club=greek, name="Φθινόπωρο", start_date="2025-09-01", end_date="2025-12-31")
    assert suggest(greek) == ("Περίοδος 2026", "2026-01-01", "2026-04-30")


def test_a_taken_name_is_not_suggested():
    club = make_club(season=False, language="en")
    season_create(club=club, name="2026 season", start_date="2024-01-01", end_date="2024-12-31")
    season_create(club=club, name="Spring", start_date="2025-01-01", end_date="2025-12-31")
    assert suggest(club) == ("2026 season (2026-01-01)", "2026-01-01", "2026-12-31")


def test_a_season_covering_a_date():
    club = make_club(season=False, language="en")
    assert suggest(club, covering=date(2025, 3, 14)) == ("2025 season", "2025-01-01", "2025-12-31")
    season_create(club=club, name="Q1 2025", start_date="2025-01-01", end_date="2025-03-31")
    # After the last season: the seasons after it, each as long, up to the one with the date.
    assert suggest(club, covering=date(2025, 8, 15)) == ("2025 season", "2025-07-01", "2025-09-30")
    assert suggest(club, covering=date(2026, 2, 1)) == ("Q1 2026", "2026-01-01", "2026-03-31")
    # Before the first season: that year, up to the day before it.
    assert suggest(club, covering=date(2024, 5, 1)) == ("2024 season", "2024-01-01", "2024-12-31")
    season_create(club=club, name="Q4 2024", start_date="2024-10-01", end_date="2024-12-31")
    assert suggest(club, covering=date(2024, 5, 1)) == ("2024 season", "2024-01-01", "2024-09-30")
    # A date a season covers already: the next season.
    assert suggest(club, covering=date(2025, 2, 1)) == suggest(club)
    # Too far ahead to step there: that year.
    assert suggest(club, covering=date(9999, 12, 31)) == ("9999 season", "9999-01-01", "9999-12-31")
