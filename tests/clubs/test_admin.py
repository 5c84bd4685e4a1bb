"""The admin through its HTTP pages: a director of club A sees and changes only club A's data
(nothing of club B in changelists, change pages, filters or choices); superusers see all."""

import datetime
import re

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission

from clubs.models import Club, Membership, Player, Season, Session, Table
from clubs.services import membership_set, player_create, session_get_or_create, table_create
from scoring.engine import DEFAULT_PAR_TABLE
from tests.clubs.factories import PLAY_DATE, make_club, make_user

pytestmark = pytest.mark.django_db

D = datetime.date


@pytest.fixture
def alpha_director():
    return make_user("alpha_boss")


@pytest.fixture
def alpha(alpha_director):
    club = make_club(creator=alpha_director, name="Alphaclub", slug="alphaclub")
    player_create(club=club, name="Alicia Alphaplayer")
    table_create(session=session_get_or_create(club=club, date=PLAY_DATE))
    return club


@pytest.fixture
def bravo():
    club = make_club(creator=make_user("bravo_boss"), name="Bravoclub", slug="bravoclub")
    player_create(club=club, name="Boris Bravoplayer")
    table_create(session=session_get_or_create(club=club, date=PLAY_DATE))
    return club


@pytest.fixture
def as_alpha(client, alpha_director, alpha, bravo):
    client.force_login(alpha_director)
    return client


def objects_of(club):
    session = Session.objects.get(club=club)
    return {
        "club": club,
        "player": Player.objects.get(memberships__club=club, name__endswith="player"),
        "membership": Membership.objects.filter(club=club).first(),
        "season": Season.objects.get(club=club),
        "session": session,
        "table": Table.objects.get(session=session),
    }


def test_changelists_show_only_the_directors_clubs(as_alpha):
    for model in ("club", "player", "membership", "season", "session", "table"):
        page = as_alpha.get(f"/admin/clubs/{model}/").content.decode()
        assert "Alphaclub" in page or "Alicia" in page, model
        assert "Bravo" not in page, model


def test_another_clubs_change_pages_are_out_of_reach(as_alpha, bravo):
    for model, obj in objects_of(bravo).items():
        url = f"/admin/clubs/{model}/{obj.pk}/change/"
        response = as_alpha.get(url, follow=True)
        page = response.content.decode()
        assert "Bravo" not in page, model
        # The admin answers as for a missing object: back to the index with a message.
        assert response.redirect_chain == [("/admin/", 302)], model
        assert "exist" in page, model
        response = as_alpha.post(url, {"name": "Taken over", "notes": "mine"})
        assert response.status_code in (302, 403, 404), model
    bravo.refresh_from_db()
    assert bravo.name == "Bravoclub"
    assert not Player.objects.filter(name="Taken over").exists()


def test_their_own_change_pages_open(as_alpha, alpha):
    for model, obj in objects_of(alpha).items():
        assert as_alpha.get(f"/admin/clubs/{model}/{obj.pk}/change/").status_code == 200, model


def test_choices_and_filters_hold_only_the_directors_clubs(as_alpha):
    for url in [
        "/admin/clubs/season/add/",
        "/admin/clubs/session/add/",
        "/admin/clubs/table/add/",
        "/admin/clubs/membership/add/",
        "/admin/clubs/player/add/",
        "/admin/clubs/player/",  # its club filter
        "/admin/clubs/session/",
        "/admin/clubs/membership/",
    ]:
        page = as_alpha.get(url).content.decode()
        assert "Alpha" in page, url
        assert "Bravo" not in page, url


def test_a_post_naming_another_clubs_rows_is_refused(as_alpha, bravo):
    response = as_alpha.post(
        "/admin/clubs/season/add/",
        {"club": bravo.pk, "name": "Sneaky", "start_date": "2026-01-01", "end_date": "2026-12-31"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "Select a valid choice" in response.content.decode()
    assert not Season.objects.filter(name="Sneaky").exists()


def test_adding_goes_through_the_services(as_alpha, alpha, alpha_director):
    response = as_alpha.post(
        "/admin/clubs/season/add/",
        {"club": alpha.pk, "name": "2026", "start_date": "2026-01-01", "end_date": "2026-12-31"},
    )
    assert response.status_code == 302
    assert Season.objects.filter(club=alpha, name="2026").exists()
    # An overlap is shown beside the field, and nothing is saved.
    response = as_alpha.post(
        "/admin/clubs/season/add/",
        {"club": alpha.pk, "name": "x", "start_date": "2026-06-01", "end_date": "2027-06-01"},
    )
    assert response.status_code == 200
    assert "overlaps 2026" in response.content.decode()
    assert not Season.objects.filter(name="x").exists()
    # A player is created with their membership.
    response = as_alpha.post(
        "/admin/clubs/player/add/",
        {"club": alpha.pk, "role": "player", "name": "Newcomer", "active": "on"},
    )
    assert response.status_code == 302
    assert Membership.objects.get(player__name="Newcomer").club == alpha
    # A name that could pass for another is shown beside the field, and nothing is saved.
    response = as_alpha.post(
        "/admin/clubs/player/add/",
        {"club": alpha.pk, "role": "player", "name": "\u202eevil", "active": "on"},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["name"] == [
        "A name may not contain control, invisible or text-direction characters (found U+202E)."
    ]
    assert not Player.objects.filter(name__contains="evil").exists()
    # A table takes the next number when none is given.
    session = Session.objects.get(club=alpha)
    response = as_alpha.post("/admin/clubs/table/add/", {"session": session.pk, "seats": 2})
    assert response.status_code == 302
    assert Table.objects.filter(session=session).order_by("number").last().number == 2
    # A table number past 999 is shown beside the field (not a database error on PostgreSQL).
    response = as_alpha.post(
        "/admin/clubs/table/add/", {"session": session.pk, "number": 40000, "seats": 4}
    )
    assert response.status_code == 200
    assert "from 1 to 999" in response.content.decode()
    assert not Table.objects.filter(session=session, number=40000).exists()
    # A club added by a director is theirs to direct.
    response = as_alpha.post(
        "/admin/clubs/club/add/",
        {**ALPHA_FORM, "name": "Alpha Two", "slug": "alpha-two", "timezone": "Europe/Warsaw"},
    )
    assert response.status_code == 302
    new = Club.objects.get(slug="alpha-two")
    assert new.memberships.get(role="director").player.user == alpha_director


def test_a_change_goes_through_the_services(as_alpha, alpha):
    season = Season.objects.get(club=alpha)
    Session.objects.get(club=alpha)  # on 2025-03-14
    url = f"/admin/clubs/season/{season.pk}/change/"
    response = as_alpha.post(
        url, {"name": season.name, "start_date": "2025-04-01", "end_date": "2025-12-31"}
    )
    assert response.status_code == 200
    assert "outside these dates" in response.content.decode()
    season.refresh_from_db()
    assert season.start_date == D(2025, 1, 1)
    response = as_alpha.post(
        url, {"name": "Renamed", "start_date": "2025-01-01", "end_date": "2025-12-31"}
    )
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.name == "Renamed"


def test_a_director_cannot_link_user_accounts(as_alpha, alpha):
    player = Player.objects.get(name="Alicia Alphaplayer")
    page = as_alpha.get(f"/admin/clubs/player/{player.pk}/change/").content.decode()
    assert 'name="user"' not in page
    assert "bravo_boss" not in page


def test_a_shared_player_is_renamed_and_deactivated_in_the_directors_club_only(
    as_alpha, alpha, bravo
):
    boris = Player.objects.get(name="Boris Bravoplayer")
    membership_set(club=alpha, player=boris, actor=None)  # Bravo's player joins Alpha too
    page = as_alpha.get(f"/admin/clubs/player/{boris.pk}/change/").content.decode()
    management = dict(re.findall(r'name="(memberships-[A-Z_]+)"[^>]*value="(\d*)"', page))
    response = as_alpha.post(
        f"/admin/clubs/player/{boris.pk}/change/", {"name": "Boris Renamed", **management}
    )
    assert response.status_code == 200  # the form again, the error beside the name
    assert "only a director of all their clubs can rename them" in response.content.decode()
    assert Player.objects.get(pk=boris.pk).name == "Boris Bravoplayer"
    in_alpha = Membership.objects.get(club=alpha, player=boris)
    response = as_alpha.post(
        f"/admin/clubs/membership/{in_alpha.pk}/change/", {"role": "player", "active": ""}
    )
    assert response.status_code == 302
    active = dict(Membership.objects.filter(player=boris).values_list("club_id", "active"))
    assert active == {alpha.pk: False, bravo.pk: True}


def test_a_superuser_sees_every_club(client, alpha, bravo):
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    page = client.get("/admin/clubs/club/").content.decode()
    assert "Alphaclub" in page and "Bravoclub" in page
    assert client.get(f"/admin/clubs/club/{bravo.pk}/change/").status_code == 200


def test_staff_without_a_directorship_sees_nothing(client, alpha):
    user = make_user("helper", is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="view_club"))
    client.force_login(user)
    page = client.get("/admin/clubs/club/").content.decode()
    assert "Alphaclub" not in page
    assert client.get(f"/admin/clubs/club/{alpha.pk}/change/").status_code == 302
    assert client.get("/admin/clubs/season/").status_code == 403


def test_a_player_change_is_saved_and_logged_and_the_memberships_stay(as_alpha, alpha, bravo):
    """The memberships on the player page are read-only: rows added to the posted inline
    forms change nothing."""
    player = Player.objects.get(name="Alicia Alphaplayer")
    membership = player.memberships.get()
    response = as_alpha.post(
        f"/admin/clubs/player/{player.pk}/change/",
        {
            "name": "Alicia Renamed",
            "active": "on",
            "memberships-TOTAL_FORMS": "2",
            "memberships-INITIAL_FORMS": "1",
            "memberships-0-id": membership.pk,
            "memberships-0-player": player.pk,
            "memberships-0-role": "director",
            "memberships-1-player": player.pk,
            "memberships-1-club": bravo.pk,
            "memberships-1-role": "director",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.name == "Alicia Renamed"
    assert list(player.memberships.values_list("club", "role")) == [(alpha.pk, "player")]
    entry = LogEntry.objects.get(object_id=str(player.pk), content_type__model="player")
    assert entry.get_change_message() == "Changed Name."


def test_the_player_list_names_only_the_directors_clubs(as_alpha, alpha, bravo):
    """Alicia also plays at Bravoclub: Alpha's director sees her, but neither Bravoclub in her
    clubs column nor in the club filter, nor can they filter by it."""
    alicia = Player.objects.get(name="Alicia Alphaplayer")
    membership_set(club=bravo, player=alicia, role="player", actor=None)
    page = as_alpha.get("/admin/clubs/player/").content.decode()
    assert "Alicia" in page and "Alphaclub" in page
    assert "Bravo" not in page
    # Another club in the address is refused as a bad filter, not applied.
    response = as_alpha.get(f"/admin/clubs/player/?memberships__club__id__exact={bravo.pk}")
    assert response.status_code == 302 and response.url.endswith("?e=1")
    page = as_alpha.get(f"/admin/clubs/player/?memberships__club__id__exact={alpha.pk}")
    assert "Alicia" in page.content.decode()


def test_every_club_filter_refuses_another_club(as_alpha, alpha, bravo):
    for model, path in [
        ("membership", "club"),
        ("season", "club"),
        ("session", "club"),
        ("table", "session__club"),
    ]:
        url = f"/admin/clubs/{model}/?{path}__id__exact="
        response = as_alpha.get(f"{url}{bravo.pk}")
        assert response.status_code == 302 and response.url.endswith("?e=1"), model
        assert as_alpha.get(f"{url}{alpha.pk}").status_code == 200, model


ALPHA_FORM = {
    "name": "Alphaclub",
    "slug": "alphaclub",
    "country": "PL",
    "language": "en",
    "timezone": "UTC",
    "chicago_vulnerability": "dealer",
    "ladder_min_matches": 0,
    "ladder_rounding": "none",
    "ladder_ranking": "net",
    "ladder_points_win": 3,
    "ladder_points_draw": 1,
    "ladder_points_loss": 0,
    "ladder_best_matches": "",
    "night_ranking": "total",
    "night_min_matches": 0,
    "night_rank_by": "net",
    "handicap_strength": 0,
    "handicap_cap": 300,
}
"""The club change form of Alphaclub as the admin posts it, every setting as it was."""


def test_a_director_lists_the_clubs_api_origins_one_per_line(as_alpha, alpha):
    form = ALPHA_FORM
    url = f"/admin/clubs/club/{alpha.pk}/change/"
    page = as_alpha.get(url).content.decode()
    assert 'name="api_origins"' in page
    bad = as_alpha.post(url, {**form, "api_origins": "https://app.example.org\nftp://x"})
    assert bad.status_code == 200 and "is not an origin" in bad.content.decode()
    alpha.refresh_from_db()
    assert alpha.api_origins == []
    response = as_alpha.post(
        url, {**form, "api_origins": "https://App.example.org/\r\n\r\nhttps://b.example:8443"}
    )
    assert response.status_code == 302
    alpha.refresh_from_db()
    assert alpha.api_origins == ["https://app.example.org", "https://b.example:8443"]
    assert "https://app.example.org\nhttps://b.example:8443" in as_alpha.get(url).content.decode()


def test_a_director_edits_the_par_table_figure_by_figure(as_alpha, alpha):
    """The par table is a table of inputs (20 to 40 HCP, not vulnerable and vulnerable), the
    standard table's figures in it and "the standard table" ticked; unticked, the figures typed
    become the club's table; figures that go down with more points, or a blank one, are refused
    beside the field, in words, and nothing is saved."""
    url = f"/admin/clubs/club/{alpha.pk}/change/"
    page = as_alpha.get(url).content.decode()
    assert page.count('type="number" name="par_table_') == 42
    assert 'name="par_table_0" id="id_par_table_0" checked' in page
    assert 'aria-label="20 HCP, not vulnerable"' in page and '<th scope="row">40</th>' in page
    standard = DEFAULT_PAR_TABLE
    assert f'name="par_table_1" value="{standard.not_vulnerable[0]}"' in page

    steep = {"not_vulnerable": list(range(0, 2100, 100)), "vulnerable": list(range(0, 4200, 200))}
    figures = {
        f"par_table_{1 + i}": v for i, v in enumerate(steep["not_vulnerable"] + steep["vulnerable"])
    }
    assert as_alpha.post(url, {**ALPHA_FORM, **figures}).status_code == 302
    alpha.refresh_from_db()
    assert alpha.par_table == steep
    page = as_alpha.get(url).content.decode()
    assert 'id="id_par_table_0" checked' not in page and 'name="par_table_21" value="2000"' in page

    down = as_alpha.post(url, {**ALPHA_FORM, **figures, "par_table_5": 5000})
    blank = as_alpha.post(url, {**ALPHA_FORM, **figures, "par_table_30": ""})
    assert down.status_code == blank.status_code == 200
    assert "Give every figure" in blank.content.decode()
    assert "errorlist" in down.content.decode()
    alpha.refresh_from_db()
    assert alpha.par_table == steep

    assert as_alpha.post(url, {**ALPHA_FORM, **figures, "par_table_0": "on"}).status_code == 302
    alpha.refresh_from_db()
    assert alpha.par_table is None  # the standard table again
