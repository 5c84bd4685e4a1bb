"""The API's conventions: ``Location`` on every 201, ``If-Match`` on a deal's writes (412 when
stale), the ``RateLimit-*`` headers, and a stable code beside each field's message."""

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from redis.exceptions import RedisError
from rest_framework.throttling import SimpleRateThrottle

from tests.matches.test_history_import import GOOD


def seats(players) -> dict:
    return dict(zip("NESW", (player.pk for player in players), strict=True))


def assert_created_at(client, response, path: str) -> None:
    """A 201 whose Location is ``path``, and a GET of it answers 200."""
    assert response.status_code == 201, response.content
    assert response["Location"] == path
    assert client.get(path).status_code == 200


# --- Location on every 201 ------------------------------------------------------------------


def test_every_created_resource_says_where_it_is(world, director_a):
    a = world.a
    club = director_a.post(
        "/api/v1/clubs/", {"name": "Gamma", "slug": "gamma", "country": "ES"}, format="json"
    )
    assert_created_at(director_a, club, f"/api/v1/clubs/{club.json()['id']}/")
    player = director_a.post("/api/v1/players/", {"club": a.club.pk, "name": "New"}, format="json")
    assert_created_at(director_a, player, f"/api/v1/players/{player.json()['id']}/")
    season = director_a.post(
        "/api/v1/seasons/",
        {"club": a.club.pk, "name": "2026", "start_date": "2026-01-01", "end_date": "2026-12-31"},
        format="json",
    )
    assert_created_at(director_a, season, f"/api/v1/seasons/{season.json()['id']}/")
    session = director_a.post(
        "/api/v1/sessions/", {"club": a.club.pk, "date": "2025-05-01"}, format="json"
    )
    assert_created_at(director_a, session, f"/api/v1/sessions/{session.json()['id']}/")
    again = director_a.post(
        "/api/v1/sessions/", {"club": a.club.pk, "date": "2025-05-01"}, format="json"
    )
    assert again.status_code == 200 and not again.has_header("Location")  # nothing created
    table = director_a.post("/api/v1/tables/", {"session": session.json()["id"]}, format="json")
    assert_created_at(director_a, table, f"/api/v1/tables/{table.json()['id']}/")
    match = director_a.post(
        "/api/v1/matches/",
        {
            "club": a.club.pk,
            "kind": "chicago",
            "played_on": "2025-06-01",
            "seats": seats(a.players),
        },
        format="json",
    )
    match_id = match.json()["id"]
    assert_created_at(director_a, match, f"/api/v1/matches/{match_id}/")
    deal = director_a.post(
        f"/api/v1/matches/{match_id}/deals/",
        {"contract": "3NT", "declarer": "N", "tricks": 9},
        format="json",
    )
    assert_created_at(director_a, deal, f"/api/v1/matches/{match_id}/deals/1/")


def test_a_replayed_201_says_where_too(world, director_a):
    url = f"/api/v1/matches/{world.a.match.pk}/deals/"
    body = {"contract": "1NT", "declarer": "E", "tricks": 7}
    first = director_a.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="loc-1")
    again = director_a.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="loc-1")
    assert first.status_code == again.status_code == 201
    assert first["Location"] == again["Location"] == f"{url}2/"


def test_a_night_its_rounds_and_its_table_codes_say_where_they_are(world, director_a):
    body = {
        "club": world.a.club.pk,
        "date": "2025-05-09",
        "players": [player.pk for player in world.a.players],
        "movement": "round_robin",
        "rounds": 3,
    }
    night = director_a.post("/api/v1/nights/", body, format="json")
    night_id = night.json()["id"]
    assert_created_at(director_a, night, f"/api/v1/nights/{night_id}/")
    round = director_a.post(f"/api/v1/nights/{night_id}/rounds/", format="json")
    assert_created_at(director_a, round, f"/api/v1/nights/{night_id}/")
    code = director_a.post(f"/api/v1/nights/{night_id}/tables/1/code/")
    assert_created_at(director_a, code, f"/api/v1/nights/{night_id}/board/")


def test_an_import_says_where_the_deals_it_wrote_are(world, director_a):
    season = world.a.season
    file = SimpleUploadedFile("season.csv", GOOD.encode(), content_type="text/csv")
    response = director_a.post(
        f"/api/v1/seasons/{season.pk}/import/", {"file": file}, format="multipart"
    )
    assert_created_at(director_a, response, f"/api/v1/seasons/{season.pk}/deals/")
    file = SimpleUploadedFile("season.csv", GOOD.encode(), content_type="text/csv")
    dry = director_a.post(
        f"/api/v1/seasons/{season.pk}/import/?dry_run=true", {"file": file}, format="multipart"
    )
    assert dry.status_code == 200 and not dry.has_header("Location")


# --- If-Match on a deal's writes ----------------------------------------------------------


@pytest.fixture(params=["read cache on", "read cache off"])
def cache_mode(request, settings):
    settings.API_READ_CACHE = request.param == "read cache on"


def deal_url(world, sequence=1) -> str:
    return f"/api/v1/matches/{world.a.match.pk}/deals/{sequence}/"


def test_a_deal_is_changed_with_the_etag_a_get_gave(world, director_a, cache_mode):
    url = deal_url(world)
    etag = director_a.get(url)["ETag"]
    changed = director_a.patch(url, {"tricks": 11}, format="json", HTTP_IF_MATCH=etag)
    assert changed.status_code == 200, changed.content
    assert changed.json()["tricks"] == 11
    # The copy is stale now: a 412 naming the current ETag, and nothing written.
    stale = director_a.patch(url, {"tricks": 8}, format="json", HTTP_IF_MATCH=etag)
    assert stale.status_code == 412
    assert stale.json()["code"] == "precondition_failed" and stale.json()["errors"] == {}
    current = director_a.get(url)
    assert current.json()["tricks"] == 11
    assert stale["ETag"] == current["ETag"] != etag
    body = {"contract": "4S", "declarer": "N", "tricks": 9}
    assert director_a.put(url, body, format="json", HTTP_IF_MATCH=etag).status_code == 412
    put = director_a.put(url, body, format="json", HTTP_IF_MATCH=current["ETag"])
    assert put.status_code == 200 and put.json()["tricks"] == 9


def test_every_write_answer_of_a_deal_carries_its_new_etag(world, director_a, cache_mode):
    """A client chains writes with If-Match from each answer, with no GET between them."""
    url = deal_url(world)
    etag = director_a.get(url)["ETag"]
    patched = director_a.patch(url, {"tricks": 11}, format="json", HTTP_IF_MATCH=etag)
    assert patched.status_code == 200, patched.content
    assert patched["ETag"] != etag
    assert patched["ETag"] == director_a.get(url)["ETag"]
    body = {"contract": "4S", "declarer": "N", "tricks": 9}
    put = director_a.put(url, body, format="json", HTTP_IF_MATCH=patched["ETag"])
    assert put.status_code == 200, put.content
    assert put["ETag"] == director_a.get(url)["ETag"] != patched["ETag"]
    deals = f"/api/v1/matches/{world.a.match.pk}/deals/"
    created = director_a.post(
        deals, {"contract": "2H", "declarer": "E", "tricks": 8}, format="json"
    )
    assert created.status_code == 201, created.content
    assert created["ETag"] == director_a.get(created["Location"])["ETag"]
    again = director_a.patch(
        created["Location"], {"tricks": 9}, format="json", HTTP_IF_MATCH=created["ETag"]
    )
    assert again.status_code == 200, again.content


@pytest.mark.parametrize(
    ("header", "status"),
    [
        ("*", 200),
        ("{etag}", 200),
        ('"other", {etag}', 200),  # any of a list
        ("W/{etag}", 412),  # If-Match compares strongly: a weak ETag matches nothing
        ('"other"', 412),
        ("not an etag", 400),
    ],
)
def test_if_match_compares_as_rfc_9110_says(world, director_a, cache_mode, header, status):
    url = deal_url(world)
    etag = director_a.get(url)["ETag"]
    response = director_a.patch(
        url, {"tricks": 11}, format="json", HTTP_IF_MATCH=header.format(etag=etag)
    )
    assert response.status_code == status, response.content
    if status == 400:
        assert list(response.json()["errors"]) == ["If-Match"]
    assert director_a.get(url).json()["tricks"] == (11 if status == 200 else 10)


def test_a_deal_is_removed_only_with_its_current_etag(world, director_a, cache_mode):
    url = deal_url(world)
    etag = director_a.get(url)["ETag"]
    director_a.patch(url, {"tricks": 9}, format="json")  # no If-Match: still allowed
    assert director_a.delete(url, HTTP_IF_MATCH=etag).status_code == 412
    assert director_a.get(url).status_code == 200
    current = director_a.get(url)["ETag"]
    assert director_a.delete(url, HTTP_IF_MATCH=current).status_code == 204
    assert director_a.get(url).status_code == 404


def test_if_match_does_not_tell_another_club_about_its_deals(world, cache_mode):
    director_b = world.client("director_b")
    url = deal_url(world)
    assert director_b.patch(url, {"tricks": 9}, format="json", HTTP_IF_MATCH="*").status_code == 404
    reader = world.client("read_key_a")
    assert reader.patch(url, {"tricks": 9}, format="json", HTTP_IF_MATCH="*").status_code == 403
    assert director_b.delete(deal_url(world, 7), HTTP_IF_MATCH="*").status_code == 404


# --- RateLimit-* headers --------------------------------------------------------------------


@pytest.fixture
def low_rates(monkeypatch):
    # DRF reads the rates once, at import; the test suite runs with high ones.
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "4/min", "api_key": "2/min"}
    )


def limits(response) -> tuple[int, int, int]:
    return tuple(int(response[f"RateLimit-{name}"]) for name in ("Limit", "Remaining", "Reset"))  # type: ignore[return-value]


@pytest.mark.parametrize(("role", "limit"), [("director_a", 4), ("read_key_a", 2)])
def test_each_answer_says_what_is_left_of_the_rate(world, low_rates, role, limit):
    client = world.client(role)
    cache.clear()
    answers = [client.get("/api/v1/clubs/") for _ in range(limit + 1)]
    assert [a.status_code for a in answers] == [200] * limit + [429]
    assert [limits(a)[:2] for a in answers] == [
        (limit, left) for left in range(limit - 1, -1, -1)
    ] + [(limit, 0)]
    # RateLimit-Reset: the seconds until one more request is allowed: none while some are left,
    # then until the oldest counted leaves the window (what Retry-After says).
    assert [limits(a)[2] for a in answers[: limit - 1]] == [0] * (limit - 1)
    assert all(0 < limits(a)[2] <= 60 for a in answers[limit - 1 :])
    assert int(answers[-1]["Retry-After"]) == limits(answers[-1])[2]
    assert answers[-1].json()["code"] == "throttled"


def test_errors_count_and_say_so_too(world, low_rates):
    cache.clear()
    anonymous = world.client("anonymous")
    response = anonymous.get("/api/v1/nothing/")
    assert response.status_code == 404 and limits(response)[:2] == (3, 2)


def test_without_the_cache_there_are_no_ratelimit_headers(world, low_rates, monkeypatch):
    def down(*args, **kwargs):
        raise RedisError("down")

    monkeypatch.setattr(SimpleRateThrottle, "cache", type("Down", (), {"get": down})())
    response = world.client("director_a").get("/api/v1/clubs/")
    assert response.status_code == 200
    assert not response.has_header("RateLimit-Limit")


def test_the_pages_have_no_ratelimit_headers(world, low_rates, client):
    assert not client.get("/").has_header("RateLimit-Limit")


# --- A stable code beside each field's message ------------------------------------------------


def codes(response) -> dict:
    assert response.status_code == 400, response.content
    body = response.json()
    assert set(body["codes"]) == set(body["errors"])
    assert all(len(body["codes"][f]) == len(body["errors"][f]) for f in body["errors"])
    return body["codes"]


def test_each_field_error_has_a_code_the_same_in_every_language(world, director_a):
    url = f"/api/v1/matches/{world.a.match.pk}/deals/"
    bad = {"contract": "4S", "declarer": "N", "tricks": 14}
    english = director_a.post(url, bad, format="json", HTTP_ACCEPT_LANGUAGE="en")
    greek = director_a.post(url, bad, format="json", HTTP_ACCEPT_LANGUAGE="el")
    assert english.json()["errors"] != greek.json()["errors"]  # translated
    assert codes(english) == codes(greek) == {"tricks": ["max_value"]}


@pytest.mark.parametrize(
    ("method", "url", "body", "expected"),
    [
        # DRF's own codes
        ("post", "/api/v1/players/", {}, {"club": ["required"], "name": ["required"]}),
        ("post", "/api/v1/players/", {"name": "X", "colour": 1}, {"colour": ["unknown_field"]}),
        ("patch", "/api/v1/seasons/{season}/", {"club": 2}, {"club": ["read_only"]}),
        # the services' codes
        (
            "post",
            "/api/v1/seasons/",
            {"club": "{club}", "name": "X", "start_date": "2025-06-01", "end_date": "2025-07-01"},
            {"start_date": ["season_overlap"]},
        ),
        (
            "post",
            "/api/v1/seasons/",
            {
                "club": "{club}",
                "name": "2025",
                "start_date": "2027-06-01",
                "end_date": "2027-07-01",
            },
            {"name": ["name_taken"]},
        ),
        (
            "post",
            "/api/v1/seasons/",
            {"club": "{club}", "name": "Z", "start_date": "2027-06-01", "end_date": "2027-05-01"},
            {"end_date": ["ends_before_start"]},
        ),
        (
            "post",
            "/api/v1/sessions/",
            {"club": "{club}", "date": "2030-01-01"},
            {"date": ["no_season"]},
        ),
        # the engine's
        (
            "post",
            "/api/v1/matches/{match}/deals/",
            {"contract": "4S", "declarer": "N", "tricks": 10, "passed_out": True},
            None,
        ),
        # query parameters
        ("get", "/api/v1/players/?colour=red", None, {"colour": ["unknown"]}),
        ("get", "/api/v1/players/?ordering=colour", None, {"ordering": ["unknown_ordering"]}),
        ("get", "/api/v1/players/?search=", None, {"search": ["empty"]}),
        ("get", "/api/v1/players/?page=1&page=1", None, {"page": ["repeated"]}),
    ],
)
def test_codes_name_what_went_wrong(world, director_a, method, url, body, expected):
    a = world.a
    url = url.format(season=a.season.pk, match=a.match.pk)
    if body is not None:
        body = {k: a.club.pk if v == "{club}" else v for k, v in body.items()}
    response = getattr(director_a, method)(url, body, format="json")
    found = codes(response)
    if expected is None:  # whatever the engine named, a code of its own
        assert found and all(code == ["not_allowed"] for code in found.values()), found
    else:
        assert found == expected


def test_a_match_with_a_stranger_names_the_seat_and_why(world, director_a):
    a, b = world.a, world.b
    players = [*a.players[:3], b.players[0]]
    body = {
        "club": a.club.pk,
        "kind": "chicago",
        "played_on": "2025-06-01",
        "seats": seats(players),
    }
    found = codes(director_a.post("/api/v1/matches/", body, format="json"))
    assert list(found.values()) == [["no_such_player"]]  # by id: not one of the club's


def test_errors_that_name_no_field_have_no_codes(world, director_a):
    body = director_a.get("/api/v1/matches/999999/").json()
    assert body["errors"] == body["codes"] == {}
