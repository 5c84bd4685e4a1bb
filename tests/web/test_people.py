"""The directors' pages for people and seasons: the club's players (add, rename, set inactive),
a guest added while seating a match, a new season (the next one suggested), and the offer to
create a season when a match's date has none."""

import pytest
from django.urls import reverse

from clubs.models import Membership, Player, Season
from clubs.services import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(django_user_model, club):
    user = django_user_model.objects.create_user("member", password="pw")
    player_create(club=club, name="Member", user=user)
    return user


def director_pages(club, player):
    return [
        reverse("clubs:players", args=[club.slug]),
        reverse("clubs:player_edit", args=[club.slug, player.pk]),
        reverse("clubs:season_new", args=[club.slug]),
    ]


def test_only_the_clubs_directors(client, club, players, member):
    for url in director_pages(club, players[0]):
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code == 302 and "login" in response["Location"], url
    client.force_login(member)  # a player of the club, not a director
    for url in director_pages(club, players[0]):
        assert client.get(url).status_code == 403, url
        assert client.post(url, {"name": "X"}).status_code == 403, url
    assert not Season.objects.filter(name="X").exists()
    assert not Player.objects.filter(name="X").exists()


def test_the_club_page_links_them_for_directors(client, club, director, member):
    detail = reverse("clubs:detail", args=[club.slug])
    links = [
        reverse("clubs:players", args=[club.slug]),
        reverse("clubs:season_new", args=[club.slug]),
    ]
    html = client.get(detail).content.decode()
    assert not any(link in html for link in links)
    client.force_login(director)
    html = client.get(detail).content.decode()
    assert all(link in html for link in links)


def test_the_players_list_and_adding_one(client, club, director, players):
    client.force_login(director)
    url = reverse("clubs:players", args=[club.slug])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<label for="id_name">Name:</label>' in html
    for player in players:
        assert reverse("clubs:player_edit", args=[club.slug, player.pk]) in html

    response = client.post(url, {"name": "  Greta  "})
    assert response.status_code == 302 and response["Location"] == url
    greta = Membership.objects.get(club=club, player__name="Greta")
    assert greta.active and greta.role == "player"


@pytest.mark.parametrize(
    ("name", "error"),
    [
        ("", "This field is required."),
        ("evil\u202e", "A name may not contain control, invisible or text-direction characters"),
        ("x" * 101, "Ensure this value has at most 100 characters"),
    ],
)
def test_a_bad_name_is_refused_beside_the_field(client, club, director, name, error):
    client.force_login(director)
    before = Player.objects.count()
    response = client.post(
        reverse("clubs:players", args=[club.slug]), {"name": name}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert error in " ".join(response.context["form"].errors["name"])
    assert Player.objects.count() == before


def test_rename_a_player_and_set_them_inactive(client, club, director, players):
    client.force_login(director)
    anna = players[0]
    url = reverse("clubs:player_edit", args=[club.slug, anna.pk])
    html = client.get(url).content.decode()
    assert 'value="Anna"' in html and 'name="active" id="id_active" checked' in html
    response = client.post(url, {"name": "Anna K.", "role": "player"})  # "active" unticked
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:players", args=[club.slug])
    membership = Membership.objects.get(club=club, player=anna)
    assert membership.player.name == "Anna K." and not membership.active
    # Inactive: no longer offered on the new-match page.
    new = client.get(reverse("matches:new", args=[club.slug])).content.decode()
    assert f'value="{anna.pk}"' not in new
    client.post(url, {"name": "Anna K.", "role": "player", "active": "on"})
    assert Membership.objects.get(club=club, player=anna).active


def test_make_a_director_and_keep_one(client, club, director, players):
    client.force_login(director)
    anna = players[0]
    url = reverse("clubs:player_edit", args=[club.slug, anna.pk])
    response = client.post(url, {"name": "Anna", "role": "director", "active": "on"})
    assert response.status_code == 302
    assert Membership.objects.get(club=club, player=anna).role == "director"
    # The club's only director who can sign in cannot step down.
    own = Membership.objects.get(club=club, player__user=director)
    url = reverse("clubs:player_edit", args=[club.slug, own.player_id])
    data = {"name": own.player.name, "role": "player", "active": "on"}
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert (
        "needs at least one director who can sign in" in response.context["form"].errors["role"][0]
    )
    assert Membership.objects.get(pk=own.pk).role == "director"
    response = client.post(url, data | {"role": "king"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400 and "role" in response.context["form"].errors


def test_renaming_a_player_of_another_club_is_refused(client, make_club, club, director, players):
    other = make_club(slug="other", name="Other club")
    shared = players[0]
    Membership.objects.create(club=other, player=shared)
    outsider_director = director.__class__.objects.create_user("d2", password="pw")
    player_create(club=club, name="D2", user=outsider_director, role="director", actor=director)
    client.force_login(outsider_director)  # directs this club only, not the other one
    url = reverse("clubs:player_edit", args=[club.slug, shared.pk])
    data = {"name": "Renamed", "role": "player", "active": "on"}
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "only a director of all their clubs" in response.context["form"].errors["name"][0]
    shared.refresh_from_db()
    assert shared.name == "Anna"


def test_a_player_of_another_club_has_no_edit_page_here(client, make_club, club, director):
    other = make_club(slug="other", name="Other club")
    stranger = player_create(club=other, name="Stranger")
    client.force_login(director)
    assert (
        client.get(reverse("clubs:player_edit", args=[club.slug, stranger.pk])).status_code == 404
    )
    edit = reverse("clubs:player_edit", args=[club.slug, stranger.pk])
    assert client.get(edit.replace(str(stranger.pk), str(10**20))).status_code == 404


# --- a guest while seating ---------------------------------------------------------------


def test_a_guest_in_two_taps_keeps_the_other_choices(client, club, director, players):
    client.force_login(director)
    url = reverse("matches:new", args=[club.slug])
    chosen = {
        "kind": "chicago",
        "north": players[0].pk,
        "east": players[1].pk,
        "west": players[2].pk,
        "first_dealer": "E",
        "played_on": "2025-03-14",
    }
    html = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<label for="id_guest-name">Name:</label>' in html
    assert '<input type="text" name="guest-name" id="id_guest-name">' in html  # not required
    response = client.post(url, chosen | {"guest-name": "Hugo", "add_guest": "1"})
    assert response.status_code == 302
    hugo = Membership.objects.get(club=club, player__name="Hugo")
    assert hugo.active and hugo.role == "player"
    page = client.get(response["Location"])
    form = page.context["form"]
    seats = {name: form[name].value() for name in ("north", "east", "south", "west")}
    assert seats == {
        "north": str(players[0].pk),
        "east": str(players[1].pk),
        "south": str(hugo.player_id),  # the first empty seat
        "west": str(players[2].pk),
    }
    assert form["first_dealer"].value() == "E" and form["played_on"].value() == "2025-03-14"
    html = page.content.decode()
    assert f'<option value="{hugo.player_id}" selected>Hugo</option>' in html
    # And the match starts from there.
    query = page.wsgi_request.GET
    response = client.post(url, {name: query[name] for name in query})
    assert response.status_code == 302 and "/table/" in response["Location"]


def test_a_guest_typed_then_enter_is_added_not_a_match_started(client, club, director, players):
    client.force_login(director)
    url = reverse("matches:new", args=[club.slug])
    response = client.post(url, {"kind": "two_player", "north": players[0].pk, "guest-name": "Ida"})
    assert response.status_code == 302
    ida = Player.objects.get(name="Ida")
    assert f"east={ida.pk}" in response["Location"]  # a table of two: North and East only


def test_a_bad_guest_name_is_refused_beside_it(client, club, director, players):
    client.force_login(director)
    before = Player.objects.count()
    response = client.post(
        reverse("matches:new", args=[club.slug]),
        {"north": players[0].pk, "guest-name": "", "add_guest": "1"},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400
    assert response.context["guest_form"].errors["name"] == ["This field is required."]
    assert not response.context["form"].is_bound  # the match's choices, not its errors
    assert response.context["form"]["north"].value() == str(players[0].pk)
    assert Player.objects.count() == before


def test_nonsense_in_the_new_match_query_is_ignored(client, club, director):
    client.force_login(director)
    url = reverse("matches:new", args=[club.slug])
    assert client.get(url, {"north": "x", "kind": "poker", "played_on": "soon"}).status_code == 200


# --- seasons -------------------------------------------------------------------------------


def test_the_next_season_is_suggested_and_created(client, club, director):
    """The club's season: Spring 2025, 1 January to 30 June."""
    client.force_login(director)
    url = reverse("clubs:season_new", args=[club.slug])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    form = response.context["form"]
    assert form["name"].value() == "2025 season"
    assert form["start_date"].value().isoformat() == "2025-07-01"
    assert form["end_date"].value().isoformat() == "2025-12-31"
    assert '<label for="id_start_date">Start date:</label>' in response.content.decode()
    data = {"name": "Autumn 2025", "start_date": "2025-07-01", "end_date": "2025-12-31"}
    response = client.post(url, data)
    assert response.status_code == 302
    assert response["Location"] == reverse("clubs:detail", args=[club.slug])
    season = Season.objects.get(club=club, name="Autumn 2025")
    assert season.start_date.isoformat() == "2025-07-01"
    assert season.end_date.isoformat() == "2025-12-31"


@pytest.mark.parametrize(
    ("data", "field", "error"),
    [
        (
            {"name": "Late", "start_date": "2025-06-01", "end_date": "2025-09-30"},
            "start_date",
            "The season overlaps Spring 2025 (2025-01-01 to 2025-06-30).",
        ),
        (
            {"name": "Back", "start_date": "2025-09-30", "end_date": "2025-07-01"},
            "end_date",
            "The season ends before it starts.",
        ),
        (
            {"name": "Spring 2025", "start_date": "2026-01-01", "end_date": "2026-06-30"},
            "name",
            "The club already has a season named Spring 2025.",
        ),
        (
            {"name": "Soon", "start_date": "tomorrow", "end_date": "2026-06-30"},
            "start_date",
            "Enter a valid date.",
        ),
        (
            {"name": "", "start_date": "2026-01-01", "end_date": "2026-06-30"},
            "name",
            "This field is required.",
        ),
    ],
)
def test_a_bad_season_is_refused_beside_the_field(client, club, director, data, field, error):
    client.force_login(director)
    response = client.post(
        reverse("clubs:season_new", args=[club.slug]), data, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert response.context["form"].errors[field] == [error]
    assert club.seasons.count() == 1


def test_no_season_covers_the_date_offers_one(client, club, director, players):
    client.force_login(director)
    url = reverse("matches:new", args=[club.slug])
    chosen = {
        "kind": "chicago",
        "north": players[0].pk,
        "east": players[1].pk,
        "south": players[2].pk,
        "west": players[3].pk,
        "first_dealer": "N",
        "played_on": "2025-09-12",
    }
    response = client.post(url, chosen, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.context["form"].errors["played_on"] == [
        "No season of Kifisia Bridge Club covers 2025-09-12: create a season first."
    ]
    offer = response.context["season_offer"]
    assert "Create a season covering Sept. 12, 2025" in response.content.decode()
    # The season page, filled in with a season that covers the date...
    page = client.get(offer["url"], HTTP_ACCEPT_LANGUAGE="en")
    form = page.context["form"]
    assert form["start_date"].value().isoformat() == "2025-07-01"
    assert form["end_date"].value().isoformat() == "2025-12-31"
    # ...then back to the match, the choices kept, and it starts.
    response = client.post(offer["url"], {name: form[name].value() for name in form.fields})
    assert response.status_code == 302
    back = client.get(response["Location"])
    assert back.context["form"]["west"].value() == str(players[3].pk)
    query = back.wsgi_request.GET
    response = client.post(url, {name: query[name] for name in query})
    assert response.status_code == 302 and "/table/" in response["Location"]


def test_a_season_page_never_sends_elsewhere(client, club, director):
    client.force_login(director)
    url = reverse("clubs:season_new", args=[club.slug])
    data = {"name": "Next", "start_date": "2025-07-01", "end_date": "2025-12-31"}
    response = client.post(f"{url}?next=https://evil.example/", data)
    assert response["Location"] == reverse("clubs:detail", args=[club.slug])


def test_the_season_page_in_polish(client, club, director):
    client.force_login(director)
    response = client.get(
        reverse("clubs:season_new", args=[club.slug]) + "?date=2030-02-30",  # no such date
        HTTP_ACCEPT_LANGUAGE="pl",
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert "Nowy sezon" in html and "Data początku" in html
