"""Query parameters the API refuses instead of ignoring: a repeated one, an empty one, an
over-long URL (414); and a version the API does not have (404). Each in the API's error shape,
naming what is wrong."""

import pytest
from django.conf import settings


def refused(response, status: int = 400) -> dict:
    assert response.status_code == status, response.content
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) >= {"code", "detail", "errors"}
    return body


@pytest.mark.parametrize(
    ("url", "name"),
    [
        ("/api/v1/players/?page_size=abc&page_size=5", "page_size"),
        ("/api/v1/players/?page=1&page=2", "page"),
        ("/api/v1/matches/?season=1&season=2", "season"),
        ("/api/v1/matches/{match}/deals/?format=csv&format=json", "format"),
        ("/api/v1/matches/{match}/", "x"),  # a detail, too
    ],
)
def test_a_repeated_query_parameter_is_a_400_naming_it(world, director_a, url, name):
    url = url.format(match=world.a.match.pk)
    if name == "x":
        url += "?x=1&x=1"
    body = refused(director_a.get(url))
    assert body["code"] == "invalid"
    assert list(body["errors"]) == [name]
    assert "2 times" in body["errors"][name][0]


def test_a_repeated_ordering_is_the_comma_separated_list(world, director_a):
    """How a generated client sends an array (``ordering=a&ordering=b``, issue 28): the same
    as ``ordering=a,b``; an unknown field among them is still a 400."""
    for url in ("/api/v1/matches/", "/api/v1/players/"):
        joined = director_a.get(f"{url}?ordering=-created_at,id").json()["results"]
        repeated = director_a.get(f"{url}?ordering=-created_at&ordering=id").json()["results"]
        assert [row["id"] for row in repeated] == [row["id"] for row in joined]
    body = refused(director_a.get("/api/v1/clubs/?ordering=name&ordering=colour"))
    assert list(body["errors"]) == ["ordering"] and "colour" in body["errors"]["ordering"][0]


@pytest.mark.parametrize(
    ("query", "name"),
    [
        ("season=", "season"),
        ("club=", "club"),
        ("status=", "status"),
        ("played_after=", "played_after"),
        ("page=", "page"),
        ("format=", "format"),
    ],
)
def test_an_empty_query_parameter_is_a_400_naming_it(world, director_a, query, name):
    body = refused(director_a.get(f"/api/v1/matches/?{query}"))
    assert body["errors"] == {name: [body["errors"][name][0]]}
    assert "empty" in body["errors"][name][0]


def test_an_empty_search_is_refused_as_the_schema_says(world, director_a):
    assert "search" in refused(director_a.get("/api/v1/players/?search="))["errors"]
    schema = director_a.get("/api/v1/schema/?format=json").json()
    parameters = schema["paths"]["/api/v1/players/"]["get"]["parameters"]
    search = next(p for p in parameters if p["name"] == "search")
    assert search["schema"]["minLength"] == 1


def test_the_messages_are_in_the_clients_language(world, director_a):
    body = refused(director_a.get("/api/v1/matches/?season=", HTTP_ACCEPT_LANGUAGE="pl"))
    assert "empty" not in body["errors"]["season"][0]


def test_the_pages_keep_their_own_answers(world, client):
    assert client.get("/?x=&x=").status_code in (200, 302)


def test_an_over_long_url_is_a_414_in_the_error_shape(world, director_a):
    limit = settings.API_MAX_URL_LENGTH
    at_limit = "/api/v1/clubs/?search=" + "a" * (limit - len("/api/v1/clubs/?search="))
    assert director_a.get(at_limit).status_code == 200
    body = refused(director_a.get(at_limit + "a"), 414)
    assert body["code"] == "uri_too_long" and str(limit) in body["detail"]
    assert body["errors"] == {}


@pytest.mark.parametrize("path", ["/api/v2/", "/api/v2/clubs/", "/api/beta/matches/1/"])
def test_an_unknown_version_is_a_404_naming_it(world, director_a, path):
    version = path.split("/")[2]
    for method in ("get", "post", "delete"):
        body = refused(getattr(director_a, method)(path), 404)
        assert body["code"] == "not_found"
        assert version in body["detail"] and "/api/v1/" in body["detail"]


def test_the_api_root_and_a_missing_slash_are_404s_that_say_where_to_go(world, director_a):
    body = refused(director_a.get("/api/"), 404)
    assert "/api/v1/" in body["detail"]
    body = refused(director_a.get("/api/v1"), 404)
    assert "/api/v1/" in body["detail"]
    assert refused(director_a.get("/api/v1/nothing/"), 404)["code"] == "not_found"
