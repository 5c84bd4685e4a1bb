"""Fixed pairs in API v1: a night created with its players given pair by pair, its plan,
every round started and played, and the refusals named by field (an odd player, a table of
two, a single late arrival or leaver)."""

from collections import Counter
from itertools import combinations

import pytest

from clubs import services as club_services
from nights.models import NightPlayer
from tests.api.test_night_players import add, leave
from tests.api.test_nights import create, errors, play_round, start_round


@pytest.fixture
def eight(world):
    """Club A's eight players: its four and four more."""
    more = [
        club_services.player_create(club=world.a.club, name=f"Alpha extra {n}") for n in range(4)
    ]
    return [*world.a.players, *more]


def test_a_night_of_four_pairs_played_through(world, eight, director_a):
    """Eight players given pair by pair: four pairs, three rounds, each pair meeting the
    other three once, partners never split."""
    ids = [player.pk for player in eight]
    night = create(director_a, world, eight, movement="fixed_pairs", rounds=3)
    pair_of = {pk: i // 2 for i, pk in enumerate(ids)}
    assert night["movement"] == "fixed_pairs" and night["next"]["seated_by_hand"] is False
    assert [round["number"] for round in night["plan"]] == [1, 2, 3]
    met: Counter[frozenset[int]] = Counter()
    for number in (1, 2, 3):
        response = start_round(director_a, night["id"])
        assert response.status_code == 201, response.json()
        round = response.json()
        assert round["tables"][0]["seats"] == night["plan"][number - 1]["tables"][0]["seats"]
        assert round["sitting_out"] == []
        for table in round["tables"]:
            seats = {seat: player["id"] for seat, player in table["seats"].items()}
            assert pair_of[seats["N"]] == pair_of[seats["S"]]
            assert pair_of[seats["E"]] == pair_of[seats["W"]]
            met[frozenset((pair_of[seats["N"]], pair_of[seats["E"]]))] += 1
        play_round(director_a, round)
    assert met == Counter(frozenset(two) for two in combinations(range(4), 2))
    done = errors(start_round(director_a, night["id"]))["round"][0]
    assert done == "All 3 rounds have been played."
    results = director_a.get(f"/api/v1/nights/{night['id']}/results/").json()
    assert all(line["matches"] == 3 for line in results["lines"])


def test_the_rounds_left_out_are_a_full_schedule_and_a_longer_night_plays_it_again(
    world, eight, director_a
):
    night = create(director_a, world, eight[:6], movement="fixed_pairs", rounds=6)
    plan = night["plan"]
    assert len(plan) == 6
    for first, again in zip(plan[:3], plan[3:], strict=True):
        assert [p["id"] for p in first["sitting_out"]] == [p["id"] for p in again["sitting_out"]]
        (table,), (other,) = first["tables"], again["tables"]
        assert (other["seats"]["N"], other["seats"]["E"]) == (
            table["seats"]["E"],
            table["seats"]["N"],
        )


def test_refusals_name_their_field(world, eight, director_a):
    response = director_a.post(
        "/api/v1/nights/",
        {
            "club": world.a.club.pk,
            "date": "2025-05-09",
            "players": [p.pk for p in eight[:5]],
            "movement": "fixed_pairs",
            "rounds": 3,
        },
        format="json",
    )
    assert errors(response)["players"] == [
        "Fixed pairs need an even number of players, each with a partner; 5 are checked."
    ]
    assert response.json()["codes"] == {"players": ["odd_players"]}
    body = {
        "club": world.a.club.pk,
        "date": "2025-05-09",
        "players": [p.pk for p in eight[:4]],
        "movement": "fixed_pairs",
        "rounds": 1,
        "remainder": "two_player",
    }
    response = director_a.post("/api/v1/nights/", body, format="json")
    assert response.json()["codes"] == {"remainder": ["no_table_of_two"]}


def test_a_single_late_arrival_or_leaver_is_a_400_on_player(world, eight, director_a):
    night = create(director_a, world, eight[:6], movement="fixed_pairs", rounds=3)
    for response in (
        add(director_a, night["id"], {"player": eight[6].pk}),
        leave(director_a, night["id"], eight[0].pk),
    ):
        assert errors(response)["player"] == [
            "At fixed pairs the partnerships stay all night: a player cannot arrive or leave alone."
        ]
        assert response.json()["codes"] == {"player": ["fixed_pairs"]}
    assert NightPlayer.objects.filter(night_id=night["id"]).count() == 6
