"""Who may open which page: public clubs to anyone, private clubs to members, entry pages to
the club's directors."""

import pytest
from django.urls import reverse

from clubs.services import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def member(django_user_model, club):
    user = django_user_model.objects.create_user("member", password="pw")
    player_create(club=club, name="Member", user=user)
    return user


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("outsider", password="pw")


def reading_pages(match):
    club = match.table.session.club
    season = match.table.session.season
    return [
        reverse("clubs:detail", args=[club.slug]),
        reverse("clubs:session", args=[club.slug, match.table.session.date]),
        reverse("matches:sheet", args=[match.pk]),
        reverse("scoring:ladder", args=[club.slug, season.pk]),
        reverse("scoring:player", args=[club.slug, match.north_id]),
    ]


def test_public_club_pages_open_to_anyone(client, worked_chicago):
    for url in reading_pages(worked_chicago):
        assert client.get(url).status_code == 200, url


def test_private_club_pages_need_a_member(
    client, make_club, players, worked_chicago, member, outsider
):
    club = worked_chicago.table.session.club
    club.public = False
    club.save()
    for url in reading_pages(worked_chicago):
        response = client.get(url)
        assert response.status_code == 302, url
        assert response["Location"].startswith(reverse("clubs:login")), url
    client.force_login(outsider)
    for url in reading_pages(worked_chicago):
        assert client.get(url).status_code == 403, url
    client.force_login(member)
    for url in reading_pages(worked_chicago):
        assert client.get(url).status_code == 200, url


def test_home_lists_public_clubs_and_ones_own(client, make_club, member, outsider):
    make_club(slug="hidden", name="Hidden Club", public=False)
    assert b"Kifisia Bridge Club" in client.get("/").content
    assert b"Hidden Club" not in client.get("/").content
    client.force_login(outsider)
    assert b"Hidden Club" not in client.get("/").content


def test_entry_pages_only_for_the_clubs_directors(client, new_match, member, director):
    match = new_match()
    club = match.table.session.club
    entry = [
        ("get", reverse("matches:table", args=[match.pk])),
        ("get", reverse("matches:new", args=[club.slug])),
        ("post", reverse("matches:table_delete_last", args=[match.pk])),
        ("get", reverse("matches:season_import", args=[club.slug, match.season_id])),
        ("post", reverse("matches:season_import", args=[club.slug, match.season_id])),
        ("get", reverse("matches:season_import_template", args=[club.slug, match.season_id])),
    ]
    for method, url in entry:
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "login" in response["Location"], url
    client.force_login(member)  # a player of the club, not a director
    for method, url in entry:
        assert getattr(client, method)(url).status_code == 403, url
    client.force_login(director)
    assert client.get(entry[0][1]).status_code == 200
    assert client.get(entry[1][1]).status_code == 200


def test_error_pages_are_translated(client):
    response = client.get("/no-such-page/", HTTP_ACCEPT_LANGUAGE="nl")
    assert response.status_code == 404
    assert "Niet gevonden" in response.content.decode()


def test_a_member_logs_in_on_the_pages_login(client, worked_chicago, member):
    club = worked_chicago.table.session.club
    club.public = False
    club.save()
    url = reverse("matches:sheet", args=[worked_chicago.pk])
    login = client.get(url)["Location"]
    response = client.post(login, {"username": "member", "password": "pw", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert client.get(url).status_code == 200
    assert client.post(reverse("clubs:logout")).status_code == 302
    assert client.get(url).status_code == 302
