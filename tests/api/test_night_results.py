"""GET /api/v1/sessions/{id}/results/: the night's results, as the session sheet shows them."""

import pytest

from clubs.models import Session
from tests.api.conftest import PLAYED_ON
from tests.scoring.factories import make_players, stored_match


@pytest.fixture
def night(world):
    """Club A's night: the match under way at table 1, then N-S beat E-W by 380 and a tie."""
    north, east, south, west = world.a.players
    stored_match(world.a.season, PLAYED_ON, (north, east, south, west), (500, 120), "NS")
    stored_match(world.a.season, PLAYED_ON, (north, south, east, west), (200, 200), "tie")
    return Session.objects.get(club=world.a.club, date=PLAYED_ON)


def test_the_nights_results_rank_each_player(world, night, director_a):
    response = director_a.get(f"/api/v1/sessions/{night.pk}/results/")
    assert response.status_code == 200
    p1, p2, p3, p4 = world.a.players
    assert response.json() == {
        "session": night.pk,
        "players": [
            # Equal nets share a place; then by name. The match under way counts as unfinished.
            line(1, p1, 380, 2, 380),
            line(1, p3, 380, 2, 380),
            line(3, p2, -380, 2, 0),
            line(3, p4, -380, 2, 0),
        ],
    }


def line(rank, player, net, matches, best, unfinished=1):
    return {
        "rank": rank,
        "player": player.pk,
        "name": player.name,
        "net": net,
        "matches": matches,
        "best": best,
        "unfinished": unfinished,
    }


def test_a_night_without_a_complete_match_has_no_best(world, director_a):
    session = Session.objects.get(club=world.a.club, date=PLAYED_ON)
    players = director_a.get(f"/api/v1/sessions/{session.pk}/results/").json()["players"]
    assert [(row["rank"], row["net"], row["matches"], row["best"]) for row in players] == [
        (1, 0, 0, None)
    ] * 4


@pytest.mark.parametrize("session_id", ["other club", "9223372036854775807", "0"])
def test_another_clubs_or_no_session_is_not_found(world, night, session_id):
    if session_id == "other club":
        session_id = night.pk
    client = world.client("director_b")
    assert client.get(f"/api/v1/sessions/{session_id}/results/").status_code == 404


def test_the_nights_results_read_a_fixed_number_of_queries(
    world, night, director_a, django_assert_max_num_queries
):
    url = f"/api/v1/sessions/{night.pk}/results/"
    extra = make_players(world.a.club, *(f"Player {number}" for number in range(40)))
    for number in range(0, 40, 4):
        stored_match(world.a.season, PLAYED_ON, tuple(extra[number : number + 4]), (300, 100), "NS")
    # The token's user, the session among the member clubs, its tables, its matches; and the
    # session's club, for the generations its Last-Modified is read from (api.polling: once,
    # remembered after).
    with django_assert_max_num_queries(5):
        response = director_a.get(url)
    assert len(response.json()["players"]) == 44
