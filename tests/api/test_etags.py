"""ETags on the API's reads (api.cache, clubs.live): every answer of 200 has one, a client
that sends it back gets a 304 with no body while the answer is unchanged (from the read
cache alone), and a new deal makes the next poll a 200 with the new content. With the read
cache off the ETag is the body's, and still exact."""

import logging

import pytest
from rest_framework.test import APIClient

from matches import services as match_services
from scoring.engine import Played
from scoring.services import standings_recalculate
from tests.api.conftest import build_club
from tests.api.test_nights import create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def clock_held(monkeypatch):
    """The ETags' period (clubs.live) does not turn over in the middle of a test."""
    monkeypatch.setattr("clubs.live._now", lambda: 1_800_000_000.0)


@pytest.fixture
def public_side():
    return build_club("Gamma", "gamma", "director_g", public=True)


def match_urls(side) -> list[str]:
    match = side.match
    return [
        f"/api/v1/matches/{match.pk}/",
        f"/api/v1/matches/{match.pk}/score-sheet/",
        f"/api/v1/matches/{match.pk}/deals/",
        f"/api/v1/matches/{match.pk}/deals/1/",
        f"/api/v1/matches/?session={match.table.session_id}",
        f"/api/v1/matches/?club={side.club.pk}",
    ]


def polled(client, url, etag):
    return client.get(url, HTTP_IF_NONE_MATCH=etag)


def test_each_match_answer_has_an_etag_and_a_304_from_the_cache_alone(
    public_side, django_assert_num_queries
):
    client = APIClient()
    for url in match_urls(public_side):
        first = client.get(url)
        assert first.status_code == 200, url
        etag = first["ETag"]
        assert etag.startswith('"') and etag.endswith('"')
        assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
        with django_assert_num_queries(0):
            again = polled(client, url, etag)
        assert again.status_code == 304, url
        assert again.content == b""
        assert again["ETag"] == etag
        # Another ETag (a copy the client does not have) gets the answer.
        assert polled(client, url, '"something-else"').status_code == 200


def test_a_new_deal_makes_the_next_poll_a_200_with_the_new_content(public_side):
    client = APIClient()
    urls = match_urls(public_side)
    before = {url: client.get(url) for url in urls}
    match_services.deal_record(match=public_side.match, result=Played("3NT", "E", 9))
    for url in urls:
        after = polled(client, url, before[url]["ETag"])
        if "/deals/1/" in url:  # deal 1 is as it was: its ETag is its data's (If-Match)
            assert after.status_code == 304, url
            continue
        assert after.status_code == 200, url
        assert after["ETag"] != before[url]["ETag"]
        assert after.content != before[url].content, url
        assert polled(client, url, after["ETag"]).status_code == 304


def test_the_etag_differs_by_media_type_and_language(public_side):
    client, url = APIClient(), f"/api/v1/matches/{public_side.match.pk}/score-sheet/"
    plain = client.get(url)
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=4")
    greek = client.get(url, HTTP_ACCEPT_LANGUAGE="el")
    assert len({plain["ETag"], indented["ETag"], greek["ETag"]}) == 3
    assert polled(client, url, indented["ETag"]).status_code == 200


def test_the_ladder_is_a_304_until_it_is_recalculated(public_side):
    client, url = APIClient(), f"/api/v1/seasons/{public_side.season.pk}/ladder/"
    standings_recalculate(season_id=public_side.season.pk)
    first = client.get(url)
    assert polled(client, url, first["ETag"]).status_code == 304
    match_services.deal_record(match=public_side.match, result=Played("1NT", "N", 7))
    standings_recalculate(season_id=public_side.season.pk)
    # The match is not complete yet: the ladder came out as it was (issue 28).
    assert polled(client, url, first["ETag"]).status_code == 304
    while public_side.match.deals.count() < 4:
        match_services.deal_record(match=public_side.match, result=Played("1NT", "N", 7))
    standings_recalculate(season_id=public_side.season.pk)
    after = polled(client, url, first["ETag"])
    assert after.status_code == 200 and after.json() != first.json()


def test_a_night_and_its_results_are_a_304_until_a_deal_is_played(world, director_a):
    night = create(director_a, world, world.a.players, rounds=3)
    for url in (f"/api/v1/nights/{night['id']}/", f"/api/v1/nights/{night['id']}/results/"):
        first = director_a.get(url)
        assert first.status_code == 200
        assert polled(director_a, url, first["ETag"]).status_code == 304
    round = director_a.post(f"/api/v1/nights/{night['id']}/rounds/", format="json").json()
    match = round["tables"][0]["match"]["id"]
    results = f"/api/v1/nights/{night['id']}/results/"
    etag = director_a.get(results)["ETag"]
    deal = {"contract": "3NT", "declarer": "N", "tricks": 10}
    recorded = director_a.post(f"/api/v1/matches/{match}/deals/", deal, format="json")
    assert recorded.status_code == 201
    after = polled(director_a, results, etag)
    assert after.status_code == 200 and after["ETag"] != etag


def test_a_client_that_may_not_read_the_club_never_shares_the_readers_etag(world, director_a):
    """A list filtered on a session of a club the client may not read is an empty list: its
    ETag is its own (from its body), never the readers' answer's."""
    url = f"/api/v1/matches/?session={world.a.match.table.session_id}"
    reader = director_a.get(url)
    outsider = world.client("director_b").get(url)
    assert outsider.status_code == 200 and outsider.json()["count"] == 0
    assert reader.json()["count"] == 1
    assert outsider["ETag"] != reader["ETag"]
    assert polled(director_a, url, outsider["ETag"]).status_code == 200


def test_with_the_read_cache_off_the_etag_is_the_bodys(public_side, settings):
    settings.API_READ_CACHE = False
    client, url = APIClient(), f"/api/v1/matches/{public_side.match.pk}/score-sheet/"
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"]
    assert client.get(url)["ETag"] == first["ETag"]  # the same bytes
    assert polled(client, url, first["ETag"]).status_code == 304
    match_services.deal_record(match=public_side.match, result=Played("3NT", "E", 9))
    after = polled(client, url, first["ETag"])
    assert after.status_code == 200 and after["ETag"] != first["ETag"]


def test_a_missing_match_is_one_404_and_no_cache_failure(public_side, caplog, monkeypatch):
    """The read cache's 404: the view ran inside the cache's guard, so its NotFound was
    taken for a failure of the cache, logged, and the view ran a second time."""
    from api.views import matches as match_views

    calls = []
    real = match_views.selectors.match_with_players

    def counted(**kwargs):
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(match_views.selectors, "match_with_players", counted)
    with caplog.at_level(logging.WARNING, logger="api.cache"):
        # A match id that never existed: no club, so the view answers (a 404).
        response = APIClient().get("/api/v1/matches/999999/score-sheet/")
    assert response.status_code == 404
    assert len(calls) == 1
    assert not [record for record in caplog.records if record.name == "api.cache"]


def test_the_etag_turns_over_with_the_read_caches_period(public_side, settings, monkeypatch):
    """A write whose generations could not be renewed (the cache was down) is outlived by an
    ETag no longer than by a cached answer: API_READ_CACHE_SECONDS."""
    client, url = APIClient(), f"/api/v1/matches/{public_side.match.pk}/"
    etag = client.get(url)["ETag"]
    later = 1_800_000_000.0 + settings.API_READ_CACHE_SECONDS
    monkeypatch.setattr("clubs.live._now", lambda: later)
    after = polled(client, url, etag)
    assert after.status_code == 200 and after["ETag"] != etag
