import datetime

import pytest
from django.contrib.auth.models import Group
from django.core.exceptions import ValidationError

from clubs.models import Club, Membership, Player, Role, Season, Session, Table
from clubs.services import (
    DIRECTORS_GROUP,
    NotPermitted,
    club_create,
    club_update,
    membership_set,
    player_create,
    player_membership_update,
    player_update,
    season_create,
    season_update,
    session_ensure,
    session_get_or_create,
    session_update,
    table_create,
)
from tests.clubs.factories import PLAY_DATE, make_club, make_user

pytestmark = pytest.mark.django_db

D = datetime.date


def director_perms(user):
    user = type(user).objects.get(pk=user.pk)  # no permission cache
    return user.is_staff, user.has_perm("matches.add_match"), user.has_perm("clubs.change_club")


# --- clubs -----------------------------------------------------------------------------------


def test_club_create_makes_the_creator_a_director_with_admin_access():
    user = make_user("ann", first_name="Ann", last_name="Lee")
    club = club_create(creator=user, name=" Ace Club ", slug="ace", country="nl")
    assert (club.name, club.country, club.chicago_vulnerability) == ("Ace Club", "NL", "dealer")
    player = Player.objects.get(user=user)
    assert player.name == "Ann Lee"
    assert Membership.objects.get(player=player, club=club).role == Role.DIRECTOR
    assert director_perms(user) == (True, True, True)
    assert not user.has_perm("clubs.delete_club")
    # A second club reuses the same player.
    club_create(creator=user, name="Second", slug="second", country="PL")
    assert Player.objects.filter(user=user).count() == 1


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"slug": "taken"}, "slug"),
        ({"slug": "not a slug"}, "slug"),
        ({"country": "Poland"}, "country"),
        ({"language": "fr"}, "language"),
        ({"timezone": "Mars/Olympus"}, "timezone"),
        ({"chicago_vulnerability": "both"}, "chicago_vulnerability"),
        ({"ladder_rounding": "up"}, "ladder_rounding"),
        ({"ladder_min_matches": -1}, "ladder_min_matches"),
        ({"ladder_ranking": "goals"}, "ladder_ranking"),
        ({"ladder_points_win": 100}, "ladder_points_win"),
        ({"ladder_points_loss": -1}, "ladder_points_loss"),
        ({"ladder_points_win": 1, "ladder_points_draw": 2}, "ladder_points_draw"),
        (
            {"ladder_points_draw": 0, "ladder_points_loss": 1},
            "ladder_points_loss",
        ),
        ({"ladder_best_matches": -3}, "ladder_best_matches"),
        ({"ladder_best_matches": "many"}, "ladder_best_matches"),
        ({"name": "  "}, "name"),
    ],
)
def test_club_create_names_the_bad_field(fields, field):
    user = make_user()
    club_create(creator=user, name="Taken", slug="taken", country="PL")
    values = {"creator": user, "name": "New", "slug": "new", "country": "PL"}
    with pytest.raises(ValidationError) as error:
        club_create(**(values | fields))
    assert field in error.value.message_dict
    assert not Membership.objects.filter(club__slug="new").exists()


def test_club_update_changes_the_options_and_refuses_unknown_fields():
    club = make_club()
    club_update(club=club, name="Renamed", public=True, ladder_min_matches=3)
    club.refresh_from_db()
    assert (club.name, club.public, club.ladder_min_matches) == ("Renamed", True, 3)
    with pytest.raises(ValidationError) as error:
        club_update(club=club, timezone="Nowhere/City")
    assert "timezone" in error.value.message_dict
    assert club.timezone == "UTC"
    with pytest.raises(TypeError):
        club_update(club=club, created_at=None)


def test_a_clubs_league_options_default_to_net_3_1_0_and_every_match():
    club = club_create(creator=make_user(), name="League", slug="league", country="NL")
    assert (
        club.ladder_ranking,
        club.ladder_points_win,
        club.ladder_points_draw,
        club.ladder_points_loss,
        club.ladder_best_matches,
    ) == ("net", 3, 1, 0, 0)
    club_update(
        club=club,
        ladder_ranking="points",
        ladder_points_win=2,
        ladder_points_draw=1,
        ladder_points_loss=1,
        ladder_best_matches=10,
    )
    club.refresh_from_db()
    assert (club.ladder_ranking, club.ladder_points_loss, club.ladder_best_matches) == (
        "points",
        1,
        10,
    )
    club_update(club=club, ladder_best_matches=None)  # empty: every match counts
    club.refresh_from_db()
    assert club.ladder_best_matches == 0


def test_league_points_out_of_order_are_refused_beside_the_field_and_nothing_changes():
    club = make_club()
    with pytest.raises(ValidationError) as error:
        club_update(club=club, ladder_points_win=1, ladder_points_draw=2, ladder_ranking="points")
    assert error.value.message_dict == {
        "ladder_points_draw": ["A draw cannot earn more points than a win."]
    }
    assert (club.ladder_points_win, club.ladder_ranking) == (3, "net")  # put back
    club.refresh_from_db()
    assert (club.ladder_points_win, club.ladder_points_draw, club.ladder_ranking) == (3, 1, "net")
    with pytest.raises(ValidationError) as error:
        club_update(club=club, ladder_points_loss=2)
    assert error.value.message_dict == {
        "ladder_points_loss": ["A loss cannot earn more points than a draw."]
    }
    club_update(club=club, ladder_points_win=1, ladder_points_draw=1, ladder_points_loss=1)
    club.refresh_from_db()
    assert (club.ladder_points_win, club.ladder_points_draw, club.ladder_points_loss) == (1, 1, 1)


# --- players and memberships -----------------------------------------------------------------


def test_player_create_and_update():
    club = make_club()
    player = player_create(club=club, name="Bob")
    assert Membership.objects.get(player=player).role == Role.PLAYER
    player_update(player=player, club=club, name="Robert")
    membership_set(club=club, player=player, active=False, actor=None)
    player.refresh_from_db()
    assert (player.name, player.memberships.get().active) == ("Robert", False)
    with pytest.raises(ValidationError) as error:
        player_create(club=club, name="")
    assert "name" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        player_create(club=club, name="Eve", role="captain")
    assert "role" in error.value.message_dict
    linked = make_user()
    player_update(player=player, user=linked)
    with pytest.raises(ValidationError) as error:
        player_create(club=club, name="Twin", user=linked)
    assert "user" in error.value.message_dict


SPOOFED_NAMES = ["\u200b", " \u202eevil ", "Anna\u2066", "Anna\x07", "\u3164"]


@pytest.mark.parametrize("name", SPOOFED_NAMES)
def test_every_name_refuses_what_could_pass_for_another_name(name):
    """Club, player and season names, created or changed: a ValidationError on ``name`` and
    nothing written (the checks themselves: tests/clubs/test_validators.py)."""
    club = make_club(name="Ace")
    player = player_create(club=club, name="Anna")
    season = Season.objects.get(club=club)
    writes = [
        lambda: club_create(creator=make_user(), name=name, slug="spoof", country="PL"),
        lambda: club_update(club=club, name=name),
        lambda: player_create(club=club, name=name),
        lambda: player_update(player=player, name=name),
        lambda: season_create(
            club=club, name=name, start_date=D(2026, 1, 1), end_date=D(2026, 2, 1)
        ),
        lambda: season_update(season=season, name=name),
    ]
    for write in writes:
        with pytest.raises(ValidationError) as error:
            write()
        assert set(error.value.message_dict) == {"name"}
    assert (club.name, player.name, season.name) == ("Ace", "Anna", "2025")  # restored
    assert (Club.objects.count(), Player.objects.count(), Season.objects.count()) == (1, 2, 1)
    club.refresh_from_db()
    player.refresh_from_db()
    season.refresh_from_db()
    assert (club.name, player.name, season.name) == ("Ace", "Anna", "2025")


def test_names_are_trimmed_of_unicode_whitespace_too():
    club = make_club(name="\u3000Ace\u2003")
    assert club.name == "Ace"
    assert player_create(club=club, name="\u00a0Anna\u2029").name == "Anna"
    club_update(club=club, name=" Ace Two\u205f")
    assert Club.objects.get(pk=club.pk).name == "Ace Two"


def test_a_directors_account_name_that_may_not_be_a_name_gives_way_to_the_username():
    user = make_user("ann", first_name="\u202eevil")
    club_create(creator=user, name="Ace", slug="ace", country="PL")
    assert Player.objects.get(user=user).name == "ann"


def test_session_notes_refuse_control_characters_and_direction_overrides():
    session = session_get_or_create(club=make_club(), date=PLAY_DATE)
    session_update(session=session, notes="Pairs night\r\n\tBring cards")
    for notes in ["\u202eevil", "bell\x07"]:
        with pytest.raises(ValidationError) as error:
            session_update(session=session, notes=notes)
        assert set(error.value.message_dict) == {"notes"}
    assert Session.objects.get(pk=session.pk).notes == "Pairs night\r\n\tBring cards"


def test_director_access_follows_the_role_and_the_user_link():
    founder = make_user()
    club = make_club(creator=founder)
    user = make_user()
    player = player_create(club=club, name="Dora", user=user, role="director", actor=founder)
    assert director_perms(user) == (True, True, True)
    membership_set(club=club, player=player, role="player", actor=founder)
    assert director_perms(user)[1:] == (False, False)
    assert not user.groups.filter(name=DIRECTORS_GROUP).exists()
    membership_set(club=club, player=player, role="director", actor=founder)
    assert director_perms(user) == (True, True, True)
    # Relinking the player moves the access to the new account.
    other = make_user()
    player_update(player=player, user=other)
    assert director_perms(user)[1:] == (False, False)
    assert director_perms(other) == (True, True, True)


def test_a_club_keeps_at_least_one_director():
    creator = make_user()
    club = make_club(creator=creator)
    founder = Player.objects.get(user=creator)
    with pytest.raises(ValidationError) as error:
        membership_set(club=club, player=founder, role="player", actor=creator)
    assert "role" in error.value.message_dict
    second = player_create(club=club, name="Second", user=make_user())
    membership_set(club=club, player=second, role="director", actor=creator)
    membership_set(club=club, player=founder, role="player", actor=creator)
    assert list(club.memberships.filter(role="director").values_list("player", flat=True)) == [
        second.pk
    ]


def test_roles_are_set_by_a_director_of_the_club_or_a_superuser():
    founder, elsewhere = make_user(), make_user()
    club = make_club(creator=founder)
    make_club(creator=elsewhere)
    player = player_create(club=club, name="Pat", user=make_user())
    for actor in (None, elsewhere):  # an API key (no person), another club's director
        with pytest.raises(NotPermitted) as error:
            membership_set(club=club, player=player, role="director", actor=actor)
        assert list(error.value.message_dict) == ["role"]
        with pytest.raises(NotPermitted):
            player_create(club=club, name="Boss", role="director", actor=actor)
    assert not Player.objects.filter(name="Boss").exists()
    membership_set(club=club, player=player, role="director", actor=make_user(is_superuser=True))
    with pytest.raises(NotPermitted):  # a key does not remove a director either
        membership_set(club=club, player=player, role="player", actor=None)
    membership_set(club=club, player=player, role="player", actor=founder)
    assert Membership.objects.get(player=player).role == Role.PLAYER


def test_a_club_keeps_a_director_who_can_sign_in():
    founder = make_user()
    club = make_club(creator=founder)
    me = Player.objects.get(user=founder)
    paper = player_create(club=club, name="No account", role="director", actor=founder)
    with pytest.raises(ValidationError) as error:
        player_update(player=me, user=None)  # the only director left would have no account
    assert list(error.value.message_dict) == ["user"]
    me.refresh_from_db()
    assert me.user == founder
    with pytest.raises(ValidationError) as error:
        membership_set(club=club, player=me, role="player", actor=founder)
    assert list(error.value.message_dict) == ["role"]
    player_update(player=paper, user=make_user())  # now another director can sign in
    membership_set(club=club, player=me, role="player", actor=founder)


def test_a_shared_player_is_renamed_only_by_a_client_writing_all_their_clubs():
    a_boss, b_boss = make_user(), make_user()
    a, b = make_club(creator=a_boss), make_club(creator=b_boss)
    player = player_create(club=a, name="Sam")
    membership_set(club=b, player=player, actor=b_boss)
    for writer in ({"actor": b_boss}, {"club": b}, {"club": a}, {"actor": a_boss}, {}):
        with pytest.raises(NotPermitted) as error:
            player_update(player=player, name="Renamed", **writer)
        assert list(error.value.message_dict) == ["name"]
        assert Player.objects.get(pk=player.pk).name == "Sam"
    player_update(player=player, actor=a_boss, club=b, name="Samuel")  # A's director, B's key
    player_update(player=player, actor=make_user(is_superuser=True), name="Sam")
    assert Player.objects.get(pk=player.pk).name == "Sam"


def test_active_is_each_clubs_own():
    a, b = make_club(), make_club()
    player = player_create(club=a, name="Sam")
    membership_set(club=b, player=player, active=False, actor=None)
    active = dict(Membership.objects.filter(player=player).values_list("club_id", "active"))
    assert active == {a.pk: True, b.pk: False}
    with pytest.raises(ValidationError) as error:
        membership_set(club=a, player=player, active="no", actor=None)
    assert list(error.value.message_dict) == ["active"]


def test_membership_set_adds_a_player_of_another_club():
    club, other = make_club(), make_club()
    player = player_create(club=other, name="Visitor")
    membership = membership_set(club=club, player=player, role="player", actor=None)
    assert membership.club == club
    assert set(player.clubs.all()) == {club, other}


def test_player_membership_update_changes_the_player_and_the_membership_or_neither():
    club = make_club()
    player = player_create(club=club, name="Anna")
    player_membership_update(player=player, club=club, name="Anna K.", active=False)
    assert Player.objects.get(pk=player.pk).name == "Anna K."
    assert Membership.objects.get(player=player).active is False
    with pytest.raises(ValidationError) as error:  # a bad flag: the name stays as it was
        player_membership_update(player=player, club=club, name="Anna", active="no")
    assert list(error.value.message_dict) == ["active"]
    assert Player.objects.get(pk=player.pk).name == "Anna K."
    with pytest.raises(ValidationError) as error:
        player_membership_update(player=player, active=True)
    assert list(error.value.message_dict) == ["club"]


def test_the_directors_group_is_recreated_when_missing():
    make_club()
    Group.objects.filter(name=DIRECTORS_GROUP).delete()
    user = make_user()
    make_club(creator=user)
    assert director_perms(user) == (True, True, True)


# --- seasons ---------------------------------------------------------------------------------


def test_seasons_may_not_overlap_or_end_before_they_start():
    club = make_club()  # 2025-01-01 to 2025-12-31
    cases = [
        ((D(2025, 12, 1), D(2026, 6, 1)), "start_date"),
        ((D(2024, 6, 1), D(2025, 1, 1)), "end_date"),
        ((D(2024, 6, 1), D(2026, 6, 1)), "end_date"),
        ((D(2026, 6, 1), D(2026, 1, 1)), "end_date"),
        ((D(2026, 1, 1), "2026-02-30"), "end_date"),
    ]
    for (start, end), field in cases:
        with pytest.raises(ValidationError) as error:
            season_create(club=club, name="new", start_date=start, end_date=end)
        assert list(error.value.message_dict) == [field], (start, end)
    with pytest.raises(ValidationError) as error:
        season_create(club=club, name="2025", start_date=D(2027, 1, 1), end_date=D(2027, 2, 1))
    assert "name" in error.value.message_dict
    season = season_create(club=club, name="2026", start_date="2026-01-01", end_date="2026-12-31")
    assert season.start_date == D(2026, 1, 1)
    assert Season.objects.filter(club=club).count() == 2


def test_season_update_keeps_its_sessions_inside():
    club = make_club()
    season = club.seasons.get()
    session_get_or_create(club=club, date=D(2025, 3, 1))
    with pytest.raises(ValidationError) as error:
        season_update(season=season, start_date=D(2025, 4, 1))
    assert "start_date" in error.value.message_dict
    assert season.start_date == D(2025, 1, 1)  # the refused value is not left on the object
    with pytest.raises(ValidationError) as error:
        season_update(season=season, end_date=D(2025, 2, 1))
    assert "end_date" in error.value.message_dict
    season_update(season=season, end_date=D(2025, 6, 30), name="Spring")
    season.refresh_from_db()
    assert (season.name, season.end_date) == ("Spring", D(2025, 6, 30))


# --- sessions and tables ---------------------------------------------------------------------


def test_session_get_or_create_finds_the_season_or_says_none_covers_the_date():
    club = make_club()
    session = session_get_or_create(club=club, date=PLAY_DATE)
    assert session.season == club.seasons.get()
    assert session_get_or_create(club=club, date=PLAY_DATE) == session
    with pytest.raises(ValidationError) as error:
        session_get_or_create(club=club, date=D(2030, 1, 1))
    assert "date" in error.value.message_dict
    session_update(session=session, notes="Pairs night")
    assert Session.objects.get(pk=session.pk).notes == "Pairs night"


def test_session_ensure_says_whether_it_created_and_sets_the_notes():
    club = make_club()
    session, created = session_ensure(club=club, date=PLAY_DATE)
    assert created and session.notes == ""
    again, created = session_ensure(club=club, date=PLAY_DATE.isoformat(), notes="Teams")
    assert (again.pk, created, Session.objects.get(pk=session.pk).notes) == (
        session.pk,
        False,
        "Teams",
    )


def test_table_create_numbers_tables_and_checks_seats():
    session = session_get_or_create(club=make_club(), date=PLAY_DATE)
    assert [table_create(session=session).number for _ in range(2)] == [1, 2]
    assert table_create(session=session, number=9, seats=2).seats == 2
    assert table_create(session=session).number == 10
    for arguments, field in [
        ({"seats": 3}, "seats"),
        ({"number": 9}, "number"),
        ({"number": 0}, "number"),
    ]:
        with pytest.raises(ValidationError) as error:
            table_create(session=session, **arguments)
        assert field in error.value.message_dict
    assert Table.objects.filter(session=session).count() == 4


@pytest.mark.parametrize("number", [1000, 32768, 40000, 2**63])
def test_table_numbers_end_at_999_on_every_database(number):
    """PostgreSQL's small integer column would refuse 40000 with a database error and SQLite
    would store it: the service refuses the same numbers on both."""
    session = session_get_or_create(club=make_club(), date=PLAY_DATE)
    assert table_create(session=session, number=999).number == 999
    with pytest.raises(ValidationError) as error:
        table_create(session=session, number=number)
    assert error.value.message_dict == {
        "number": ["A table number is a whole number from 1 to 999."]
    }
    # Nor does the next free number pass the last one.
    with pytest.raises(ValidationError) as error:
        table_create(session=session)
    assert set(error.value.message_dict) == {"number"}
    assert list(Table.objects.filter(session=session).values_list("number", flat=True)) == [999]
