"""The shape of the queries behind the hot read endpoints (found by bench/api_load.py on the
1,000,000-deal history): a match list counts its rows without reading deals, and the score
sheet reads its match once, without joining the players into it."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import services as match_services
from scoring.engine import PassedOut

pytestmark = pytest.mark.usefixtures("read_cache_off")


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


def queries_of(client, url) -> tuple[dict, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200, response.json()
    return response.json(), [query["sql"] for query in captured.captured_queries]


@pytest.mark.parametrize("role", ["director_a", "anonymous"])
def test_a_match_list_counts_its_rows_without_reading_deals(world, role):
    match = world.b.match  # club B is private: make it public so anonymous clients list it
    world.b.club.public = True
    world.b.club.save(update_fields=["public"])
    match_services.deal_record(match=match, result=PassedOut())
    body, sql = queries_of(world.client(role), "/api/v1/matches/?page_size=1&ordering=id")
    counts = [query for query in sql if query.startswith("SELECT COUNT(*)")]
    assert len(counts) == 1
    assert "matches_deal" not in counts[0] and "GROUP BY" not in counts[0]
    # The number of deals is still each match's own.
    assert body["count"] >= 1
    listed = body["results"][0]
    assert listed["deals"] == (2 if listed["id"] == match.pk else 1)


def test_the_score_sheet_reads_its_match_once_and_its_players_apart(world):
    url = f"/api/v1/matches/{world.a.match.pk}/score-sheet/"
    body, sql = queries_of(world.client("director_a"), url)
    match_reads = [query for query in sql if 'FROM "matches_match"' in query]
    assert len(match_reads) == 1
    for seat in ("north", "east", "south", "west"):  # no join to a seat's player
        assert f'ON ("matches_match"."{seat}_id"' not in match_reads[0]
    assert "GROUP BY" not in match_reads[0]
    names = {seat: player["name"] for seat, player in body["seats"].items()}
    assert names == {
        seat: player.name for seat, player in zip("NESW", world.a.players, strict=True)
    }


def test_the_score_sheet_of_another_clubs_private_match_is_a_404(world):
    response = world.client("director_a").get(f"/api/v1/matches/{world.b.match.pk}/score-sheet/")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
