"""Signing in to the API: browser session, DRF token, club API keys; the key admin."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.models import ClubAPIKey, KeyAccess
from clubs.models import Club
from tests.api.conftest import make_user


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


def test_a_token_made_by_the_management_command_signs_in(world):
    call_command("drf_create_token", "director_a", stdout=open("/dev/null", "w"))  # noqa: SIM115
    token = Token.objects.get(user__username="director_a")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    assert client.get(f"/api/v1/clubs/{world.a.club.pk}/").status_code == 200


def test_a_bad_token_is_a_401_naming_the_scheme(world):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    response = client.get("/api/v1/clubs/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"
    assert response.json()["code"] == "authentication_failed"


def test_anonymous_writes_are_401s(world):
    response = APIClient().post("/api/v1/clubs/", {"name": "x"}, format="json")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_the_browser_session_needs_the_csrf_token_to_write(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.a.director)
    url = f"/api/v1/clubs/{world.a.club.pk}/"
    assert client.get(url).status_code == 200
    response = client.patch(url, '{"name": "x"}', content_type="application/json")
    assert response.status_code == 403 and "CSRF" in response.json()["detail"]
    client.get("/admin/")  # a page with a form (log out) sets the CSRF cookie
    token = client.cookies["csrftoken"].value
    response = client.patch(
        url, '{"name": "Renamed"}', content_type="application/json", HTTP_X_CSRFTOKEN=token
    )
    assert response.status_code == 200 and response.json()["name"] == "Renamed"


def test_an_api_key_is_stored_hashed_and_checked(world):
    key = ClubAPIKey.objects.get(name="reader")
    assert world.read_key_a.startswith(key.prefix + ".")
    assert world.read_key_a not in key.hashed_key and key.hashed_key.startswith("sha512$$")
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {world.read_key_a}")
    assert client.get(f"/api/v1/clubs/{world.a.club.pk}/").status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {key.prefix}.wrong-secret")
    assert client.get("/api/v1/clubs/").status_code == 401


@pytest.mark.parametrize(
    "header",
    ["Api-Key", "Api-Key ", "Api-Key a b", "Api-Key nodot", "api-key ..."],
)
def test_malformed_api_key_headers_are_401s(world, header):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=header)
    response = client.get("/api/v1/clubs/")
    assert response.status_code == 401


def test_an_expired_key_is_refused(world):
    ClubAPIKey.objects.filter(name="reader").update(
        expiry_date=timezone.now() - timedelta(minutes=1)
    )
    assert world.client("read_key_a").get("/api/v1/clubs/").status_code == 401


def test_a_key_cannot_create_a_club(world):
    response = world.client("write_key_a").post(
        "/api/v1/clubs/", {"name": "K", "slug": "k", "country": "PL"}, format="json"
    )
    assert response.status_code == 403


def test_a_key_reads_only_its_club_and_public_ones(world):
    client = world.client("read_key_a")
    assert client.get(f"/api/v1/clubs/{world.b.club.pk}/").status_code == 404
    Club.objects.filter(pk=world.b.club.pk).update(public=True)
    assert client.get(f"/api/v1/clubs/{world.b.club.pk}/").status_code == 200
    assert client.get(f"/api/v1/players/{world.b.players[0].pk}/").status_code == 404


# --- The admin: directors create and revoke their clubs' keys --------------------------------


@pytest.fixture
def admin_client(world):
    client = Client()
    client.force_login(get_user_model().objects.get(username="director_a"))
    return client


def test_a_director_creates_a_key_in_the_admin_and_sees_it_once(world, admin_client):
    response = admin_client.post(
        "/admin/api/clubapikey/add/",
        {"name": "scoreboard", "club": world.a.club.pk, "access": KeyAccess.WRITE},
        follow=True,
    )
    assert response.status_code == 200
    key = ClubAPIKey.objects.get(name="scoreboard")
    assert key.club == world.a.club and key.created_by.username == "director_a"
    shown = re.search(rf"<code>({key.prefix}\.[^<]+)</code>", response.content.decode())
    assert shown, "the full key is shown once"
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {shown.group(1)}")
    created = client.post(
        "/api/v1/players/", {"club": world.a.club.pk, "name": "Via key"}, format="json"
    )
    assert created.status_code == 201
    page = admin_client.get(f"/admin/api/clubapikey/{key.pk}/change/").content.decode()
    assert shown.group(1) not in page


def test_a_director_cannot_make_a_key_for_another_club(world, admin_client):
    response = admin_client.post(
        "/admin/api/clubapikey/add/",
        {"name": "sneaky", "club": world.b.club.pk, "access": KeyAccess.WRITE},
    )
    assert response.status_code == 200  # the form again, with an error on club
    assert not ClubAPIKey.objects.filter(name="sneaky").exists()


def test_the_key_list_shows_only_the_directors_clubs(world, admin_client):
    ClubAPIKey.objects.create_key(name="beta-key", club=world.b.club)
    page = admin_client.get("/admin/api/clubapikey/").content.decode()
    assert "reader" in page and "writer" in page and "beta-key" not in page
    other = ClubAPIKey.objects.get(name="beta-key")
    assert admin_client.get(f"/admin/api/clubapikey/{other.pk}/change/").status_code in (
        302,
        404,
    )


def test_a_director_revokes_a_key(world, admin_client):
    key = ClubAPIKey.objects.get(name="writer")
    response = admin_client.post(
        "/admin/api/clubapikey/",
        {"action": "revoke", "_selected_action": [key.pk]},
        follow=True,
    )
    assert response.status_code == 200
    assert ClubAPIKey.objects.get(pk=key.pk).revoked
    assert world.client("write_key_a").get("/api/v1/clubs/").status_code == 401


def test_a_player_without_a_directorship_has_no_key_admin(world):
    user = make_user("staffer", is_staff=True)
    client = Client()
    client.force_login(user)
    assert client.get("/admin/api/clubapikey/").status_code == 403
