"""A NUL character (``%00``, ``\\u0000``) in what a client sends never reaches the database,
where PostgreSQL refuses it in text (a 500 with a traceback, each time): a NUL in the path,
the query string, a header or a form's field is a 400 (a short translated page; under /api/
the API's error shape, naming the parameter or field), and in a JSON body a 400 naming the
field (issue 28, item 14). On SQLite and PostgreSQL alike."""

from urllib.parse import urlencode

import pytest
from django.test import Client
from django.urls import Resolver404, resolve
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.models import WebhookEndpoint
from clubs.models import Player
from tests.clubs.factories import make_club, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def director():
    return make_user("dora")


@pytest.fixture
def club(director):
    return make_club(creator=director, name="Ace", slug="ace", public=True)


def page_client(**extra) -> Client:
    return Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="pl", **extra)


def api_client(user=None) -> APIClient:
    client = APIClient(raise_request_exception=False)
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def assert_page_400(response):
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert '<html lang="pl">' in page and "Nieprawidłowe żądanie" in page


def api_400(response, code="invalid") -> dict:
    assert response.status_code == 400, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert body["code"] == code, body
    return body


@pytest.mark.parametrize("path", ["/t/%00/", "/t/abc%00def/", "/clubs/ace%00/"])
def test_a_nul_in_a_pages_path_is_a_400_page(club, path):
    assert_page_400(page_client().get(path))


def test_a_table_link_is_letters_digits_dash_and_underscore_only(club):
    assert resolve("/t/Ab_c-9/").url_name == "pad_open"
    for token in ("a\x00b", "a b", "a%00b", "é"):
        with pytest.raises(Resolver404):
            resolve(f"/t/{token}/")


def test_a_nul_in_an_admin_filter_is_a_400(club, director):
    admin = make_user("root", is_superuser=True, is_staff=True)
    client = page_client()
    client.force_login(admin)
    assert client.get("/admin/api/delivery/").status_code == 200
    assert_page_400(client.get("/admin/api/delivery/?status=%00"))
    assert_page_400(client.get("/admin/clubs/player/?q=a%00b"))


def form_encoded(data: dict) -> dict:
    """A browser's form body (the test client's default is multipart)."""
    return {"data": urlencode(data), "content_type": "application/x-www-form-urlencoded"}


@pytest.mark.parametrize("encoded", [True, False])
def test_a_nul_in_a_form_field_is_a_400_and_nothing_is_written(club, director, encoded):
    client = page_client()
    client.force_login(director)
    before = Player.objects.count()
    form = {"name": "Ann\x00"}
    response = client.post(
        "/clubs/ace/players/", **(form_encoded(form) if encoded else {"data": form})
    )
    assert_page_400(response)
    assert Player.objects.count() == before


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
@pytest.mark.parametrize("encoded", [True, False])
def test_a_nul_in_a_login_is_a_400(club, path, encoded):
    form = {"username": "do\x00ra", "password": "pw"}
    response = page_client().post(path, **(form_encoded(form) if encoded else {"data": form}))
    assert_page_400(response)


def test_a_nul_in_a_cookie_or_header_is_a_400(club):
    client = page_client()
    client.cookies["sessionid"] = "abcdefgh\x00ijkl"
    assert_page_400(client.get("/clubs/ace/"))
    response = api_client().get("/api/v1/clubs/", HTTP_AUTHORIZATION="Token abc\x00def")
    body = api_400(response, "bad_request")
    assert "Authorization" in body["detail"]


def test_a_nul_in_an_api_path_or_query_is_a_400_naming_it(club, director):
    client = api_client(director)
    api_400(client.get("/api/v1/clubs/%00/"), "bad_request")
    body = api_400(client.get("/api/v1/players/?name=a%00b"))
    assert set(body["errors"]) == {"name"} and body["codes"] == {
        "name": ["null_characters_not_allowed"]
    }
    body = api_400(client.get("/api/v1/matches/?status=%00"))
    assert set(body["errors"]) == {"status"}


def test_a_nul_in_a_json_body_is_a_400_naming_the_field(club, director):
    client = api_client(director)
    body = api_400(
        client.post(
            "/api/v1/webhooks/",
            {"club": club.pk, "url": "https://example.com/\u0000hook", "events": ["deal.recorded"]},
            format="json",
        )
    )
    assert set(body["errors"]) == {"url"} and body["codes"] == {
        "url": ["null_characters_not_allowed"]
    }
    assert not WebhookEndpoint.objects.exists()
    body = api_400(
        client.post(
            "/api/v1/matches/",
            {"club": club.pk, "kind": "chicago", "seats": {"N": 1, "E\u0000": 2}},
            format="json",
        )
    )
    assert "seats.E\x00" in body["errors"] or "seats" in body["errors"], body
    body = api_400(
        client.post("/api/v1/players/", {"club": club.pk, "name": "Ann\u0000"}, format="json")
    )
    assert body["codes"] == {"name": ["null_characters_not_allowed"]}
