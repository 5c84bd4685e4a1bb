"""CORS for the clubs' browser apps: an origin a club lists (``api_origins``, set by its
director) may call the API from a web page; the preflight is answered; no credentials; the
headers a client needs are exposed. Nothing for other origins, nor for the pages."""

import pytest
from django.core.cache import cache

APP = "https://app.example.org"


@pytest.fixture(autouse=True)
def fresh_origins():
    cache.delete("cors:origins")
    yield
    cache.delete("cors:origins")


def allow(director, club, origins) -> dict:
    response = director.patch(f"/api/v1/clubs/{club.pk}/", {"api_origins": origins}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def test_an_origin_a_club_lists_may_call_the_api(world, director_a):
    assert allow(director_a, world.a.club, [APP])["api_origins"] == [APP]
    reader = world.client("read_key_a")
    response = reader.get("/api/v1/clubs/", HTTP_ORIGIN=APP)
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == APP
    assert not response.has_header("Access-Control-Allow-Credentials")
    exposed = {
        name.strip().lower() for name in response["Access-Control-Expose-Headers"].split(",")
    }
    assert exposed >= {
        "etag",
        "location",
        "ratelimit-limit",
        "ratelimit-remaining",
        "ratelimit-reset",
        "retry-after",
        "idempotent-replayed",
        "x-request-id",
    }
    assert "origin" in response["Vary"].lower()
    # An error answers with the headers too, so that the app can read it.
    missing = reader.get("/api/v1/matches/999999/", HTTP_ORIGIN=APP)
    assert missing.status_code == 404 and missing["Access-Control-Allow-Origin"] == APP
    bad = reader.get("/api/v1/clubs/?page=&page=", HTTP_ORIGIN=APP)
    assert bad.status_code == 400 and bad["Access-Control-Allow-Origin"] == APP


def test_the_preflight_is_answered(world, director_a):
    allow(director_a, world.a.club, [APP])
    response = world.client("anonymous").options(
        f"/api/v1/matches/{world.a.match.pk}/deals/1/",
        HTTP_ORIGIN=APP,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="PATCH",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, if-match",
    )
    assert response.status_code == 200
    assert response["Access-Control-Allow-Origin"] == APP
    methods = {m.strip() for m in response["Access-Control-Allow-Methods"].split(",")}
    assert {"GET", "POST", "PUT", "PATCH", "DELETE"} <= methods
    headers = {h.strip() for h in response["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "if-match", "idempotency-key"} <= headers
    assert int(response["Access-Control-Max-Age"]) > 0


@pytest.mark.parametrize("origin", ["https://evil.example", "http://app.example.org", "null"])
def test_another_origin_gets_no_cors_headers(world, director_a, origin):
    allow(director_a, world.a.club, [APP])
    client = world.client("read_key_a")
    response = client.get("/api/v1/clubs/", HTTP_ORIGIN=origin)
    assert response.status_code == 200  # the browser, not the server, keeps the answer from it
    assert not response.has_header("Access-Control-Allow-Origin")
    preflight = client.options(
        "/api/v1/clubs/", HTTP_ORIGIN=origin, HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET"
    )
    assert not preflight.has_header("Access-Control-Allow-Origin")


def test_the_pages_get_no_cors_headers(world, director_a, client):
    allow(director_a, world.a.club, [APP])
    response = client.get("/", HTTP_ORIGIN=APP)
    assert not response.has_header("Access-Control-Allow-Origin")


def test_an_origin_removed_is_refused_at_once(world, director_a):
    allow(director_a, world.a.club, [APP, "https://other.example.org"])
    reader = world.client("read_key_a")
    assert reader.get("/api/v1/clubs/", HTTP_ORIGIN=APP).has_header("Access-Control-Allow-Origin")
    allow(director_a, world.a.club, ["https://other.example.org"])
    assert not reader.get("/api/v1/clubs/", HTTP_ORIGIN=APP).has_header(
        "Access-Control-Allow-Origin"
    )


def test_origins_are_written_alike(world, director_a):
    origins = ["HTTPS://App.Example.org/", "https://app.example.org:443", "https://x.example:8443"]
    assert allow(director_a, world.a.club, origins)["api_origins"] == [
        APP,
        "https://x.example:8443",
    ]


@pytest.mark.parametrize(
    ("origins", "code"),
    [
        (["http://app.example.org"], "not_an_origin"),
        (["https://app.example.org/path"], "not_an_origin"),
        (["https://*.example.org"], "not_an_origin"),
        (["https://user@app.example.org"], "not_an_origin"),
        (["https://app.example.org?x=1"], "not_an_origin"),
        (["app.example.org"], "not_an_origin"),
        ([f"https://a{n}.example" for n in range(21)], "max_length"),
        ("https://app.example.org", "not_a_list"),
    ],
)
def test_a_bad_origin_is_a_400_naming_the_field(world, director_a, origins, code):
    response = director_a.patch(
        f"/api/v1/clubs/{world.a.club.pk}/", {"api_origins": origins}, format="json"
    )
    assert response.status_code == 400, response.content
    assert list(response.json()["errors"]) == ["api_origins"]
    assert response.json()["codes"]["api_origins"] == [code]
    world.a.club.refresh_from_db()
    assert world.a.club.api_origins == []


def test_only_a_director_sets_the_origins(world):
    for role in ("player_a", "read_key_a", "director_b"):
        response = world.client(role).patch(
            f"/api/v1/clubs/{world.a.club.pk}/", {"api_origins": [APP]}, format="json"
        )
        assert response.status_code in (403, 404), role
    world.a.club.refresh_from_db()
    assert world.a.club.api_origins == []
