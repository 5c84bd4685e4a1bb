"""The error format, malformed requests, strict query parameters, pagination and ordering."""

import pytest

from tests.api.conftest import ROLES


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


def test_malformed_json_is_a_400(world, director_a):
    response = director_a.post(
        f"/api/v1/matches/{world.a.match.pk}/deals/",
        data='{"contract": "4S",',
        content_type="application/json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "parse_error" and "JSON" in body["detail"] and body["errors"] == {}


@pytest.mark.parametrize("body", ["[" * 50_000, '{"tricks": ' + "[" * 50_000 + "]" * 50_000 + "}"])
def test_a_body_nested_too_deeply_is_a_400_not_a_500(world, director_a, body):
    response = director_a.post(
        f"/api/v1/matches/{world.a.match.pk}/deals/",
        data=body,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="nested",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "parse_error" and "nested too deeply" in body["detail"]


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "null", "12"])
def test_a_body_that_is_not_an_object_is_a_400(world, director_a, body):
    response = director_a.post("/api/v1/players/", data=body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] in ("invalid", "parse_error")


def test_another_content_type_is_a_415(world, director_a):
    response = director_a.post(
        "/api/v1/players/", data="name=x", content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/clubs/",
        "/api/v1/players/",
        "/api/v1/seasons/",
        "/api/v1/sessions/",
        "/api/v1/tables/",
        "/api/v1/matches/",
    ],
)
def test_an_unknown_query_parameter_is_a_400_naming_it(world, director_a, url):
    response = director_a.get(f"{url}?clubb=1&page_size=2")
    assert response.status_code == 400
    body = response.json()
    assert set(body["errors"]) == {"clubb"}
    assert "unknown query parameter" in body["errors"]["clubb"][0]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("page_size=0", "page_size"),
        ("page_size=101", "page_size"),
        ("page_size=ten", "page_size"),
        ("page=0", "page"),
        ("page=x", "page"),
        ("ordering=nonsense", "ordering"),
        ("ordering=name,-bogus", "ordering"),
    ],
)
def test_bad_paging_and_ordering_is_a_400(world, director_a, query, field):
    response = director_a.get(f"/api/v1/players/?{query}")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {field}


def test_an_empty_ordering_is_the_default_one(world, director_a):
    """An empty list, as a client generated from the schema sends it (comma-separated)."""
    default = director_a.get("/api/v1/players/").json()["results"]
    for query in ("ordering=", "ordering=,"):
        response = director_a.get(f"/api/v1/players/?{query}")
        assert response.status_code == 200
        assert response.json()["results"] == default
    by_name = director_a.get("/api/v1/players/?ordering=-name").json()["results"]
    assert by_name != default  # the test world's players are not in name order


def test_a_page_past_the_last_is_a_404(world, director_a):
    response = director_a.get("/api/v1/players/?page=9")
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_pages_follow_the_ordering_with_the_id_breaking_ties(world, director_a):
    from clubs.services import player_create

    for _ in range(3):
        player_create(club=world.a.club, name="Same Name")
    seen = []
    url = "/api/v1/players/?search=same&page_size=1&ordering=name"
    while url:
        page = director_a.get(url).json()
        seen += [p["id"] for p in page["results"]]
        url = page["next"]
    assert seen == sorted(seen) and len(seen) == 3
    newest = director_a.get("/api/v1/players/?search=same&ordering=-created_at").json()
    assert [p["id"] for p in newest["results"]] == sorted(seen, reverse=True)


def test_page_size_is_capped_and_reported(world, director_a):
    page = director_a.get("/api/v1/players/?page_size=100").json()
    assert page["count"] == len(page["results"]) == 5
    page = director_a.get("/api/v1/players/?page_size=2").json()
    assert len(page["results"]) == 2 and "page=2" in page["next"]


@pytest.mark.parametrize(
    "url",
    [
        "/api/v1/matches/99999999999999999999999/",
        "/api/v1/matches/9223372036854775807/score-sheet/",
        "/api/v1/sessions/99999999999999999999999/results/",
        "/api/v1/matches/99999999999999999999999/deals/",
        "/api/v1/matches/1/deals/99999999999999999999999/",
        "/api/v1/players/0/",
        "/api/v1/clubs/abc/",
        "/api/v1/no-such-thing/",
    ],
)
def test_ids_that_cannot_exist_are_404s_not_500s(world, director_a, url):
    response = director_a.get(url)
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_missing_final_slash_gets_a_hint(world, director_a):
    response = director_a.get("/api/v1/matches")
    assert response.status_code == 404
    assert "/api/v1/matches/" in response.json()["detail"]


@pytest.mark.parametrize("role", ROLES)
def test_errors_have_one_shape_for_every_role(world, role):
    response = world.client(role).post("/api/v1/players/", {"club": "x"}, format="json")
    assert response.status_code in (400, 401, 403)
    assert set(response.json()) == {"code", "detail", "errors", "codes"}


def test_a_wrong_method_is_a_405(world, director_a):
    response = director_a.delete(f"/api/v1/matches/{world.a.match.pk}/")
    assert response.status_code == 405
    assert response.json()["code"] == "method_not_allowed"


@pytest.mark.parametrize("query", ["page=null", "page_size=-5", "page_size=101"])
def test_a_download_refuses_bad_paging_as_the_json_list_does(world, director_a, query):
    """A download is every row in one file, yet ``page`` and ``page_size`` are the list's
    parameters, checked the same (a generated client sends them for either)."""
    url = f"/api/v1/matches/{world.a.match.pk}/deals/?format=csv"
    assert director_a.get(url).status_code == 200
    response = director_a.get(f"{url}&{query}")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {query.split("=")[0]}
