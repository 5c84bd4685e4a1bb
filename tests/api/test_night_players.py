"""Players who change during a night in API v1 (issue 29): ``POST /nights/{id}/players/`` adds a
late arrival (a member, or a new guest), ``POST /nights/{id}/players/{player_id}/leave/`` a
leaver, each from the next round; the night's detail shows each player's rounds."""

import pytest

from clubs import services as club_services
from clubs.models import Player
from nights.models import NightPlayer
from tests.api.test_nights import create, errors, play_round, start_round


@pytest.fixture
def nine(world):
    """Club A's four players and five more."""
    more = [
        club_services.player_create(club=world.a.club, name=f"Alpha extra {n}") for n in range(5)
    ]
    return [*world.a.players, *more]


def add(client, night_id, body):
    return client.post(f"/api/v1/nights/{night_id}/players/", body, format="json")


def leave(client, night_id, player_id, body=None):
    return client.post(
        f"/api/v1/nights/{night_id}/players/{player_id}/leave/", body or {}, format="json"
    )


def test_a_late_arrival_and_a_leaver_change_the_rounds_to_come(world, nine, director_a):
    late = club_services.player_create(club=world.a.club, name="Alpha late")
    night = create(director_a, world, nine[:8], rounds=5)
    assert {p["joined_round"] for p in night["players"]} == {1}
    assert {p["left_round"] for p in night["players"]} == {None}
    assert all(p["playing"] for p in night["players"])
    first = start_round(director_a, night["id"]).json()
    play_round(director_a, first)
    response = add(director_a, night["id"], {"player": late.pk, "group": "Late"})
    assert response.status_code == 201, response.json()
    assert response["Location"] == f"/api/v1/nights/{night['id']}/"
    detail = response.json()
    entry = next(p for p in detail["players"] if p["id"] == late.pk)
    assert entry == {
        "id": late.pk,
        "name": "Alpha late",
        "group": "Late",
        "joined_round": 2,
        "left_round": None,
        "playing": True,
    }
    seats = [table["seats"] for table in first["tables"]]
    assert [t["seats"] for t in detail["plan"][0]["tables"]] == seats  # as it was played
    for round in detail["plan"][1:]:
        ids = [s["id"] for t in round["tables"] for s in t["seats"].values()]
        ids += [p["id"] for p in round["sitting_out"]]
        assert sorted(ids) == sorted([p.pk for p in nine[:8]] + [late.pk])
    response = leave(director_a, night["id"], nine[0].pk)
    assert response.status_code == 200, response.json()
    detail = response.json()
    entry = next(p for p in detail["players"] if p["id"] == nine[0].pk)
    assert (entry["joined_round"], entry["left_round"], entry["playing"]) == (1, 2, False)
    for round in detail["plan"][1:]:
        ids = [s["id"] for t in round["tables"] for s in t["seats"].values()]
        assert nine[0].pk not in ids + [p["id"] for p in round["sitting_out"]]
    assert nine[0].pk in [s["id"] for t in detail["plan"][0]["tables"] for s in t["seats"].values()]


def test_a_new_guest_arrives_late(world, nine, director_a):
    night = create(director_a, world, nine[:8])
    response = add(director_a, night["id"], {"guest": "Guest Gamma"})
    assert response.status_code == 201, response.json()
    guest = Player.objects.get(name="Guest Gamma")
    assert guest.pk in [p["id"] for p in response.json()["players"]]


@pytest.mark.parametrize(
    ("payload", "field", "code"),
    [
        ({}, "player", "player_or_guest"),
        ({"player": 1, "guest": "X"}, "player", "player_or_guest"),
        ({"player": "x"}, "player", "invalid"),
        ({"guest": ""}, "guest", "blank"),
        ({"player": 1, "colour": "red"}, "colour", "unknown_field"),
        ({"guest": "X", "group": "g" * 41}, "group", "max_length"),
    ],
)
def test_bad_bodies_name_their_field(world, nine, director_a, payload, field, code):
    night = create(director_a, world, nine[:8])
    response = add(director_a, night["id"], payload)
    assert field in errors(response)
    assert response.json()["codes"][field] == [code]
    assert NightPlayer.objects.filter(night_id=night["id"]).count() == 8


def test_the_services_refusals_name_the_player(world, nine, director_a):
    night = create(director_a, world, nine[:4], movement="fixed", rounds=2)
    response = add(director_a, night["id"], {"player": nine[0].pk})
    assert response.json()["codes"] == {"player": ["already_playing"]}
    response = add(director_a, night["id"], {"player": world.b.players[0].pk})
    assert response.json()["codes"] == {"player": ["not_member"]}
    response = leave(director_a, night["id"], nine[0].pk)
    assert errors(response)["player"][0].startswith("A night needs at least 4 players")
    assert response.json()["codes"] == {"player": ["player_count"]}
    response = leave(director_a, night["id"], nine[5].pk)
    assert response.json()["codes"] == {"player": ["not_playing"]}
    assert leave(director_a, night["id"], "0").status_code == 404
    assert leave(director_a, night["id"], nine[1].pk, {"x": 1}).status_code == 400
    closed = director_a.post(f"/api/v1/nights/{night['id']}/close/", {}, format="json")
    assert closed.status_code == 200
    response = add(director_a, night["id"], {"player": nine[5].pk})
    assert errors(response)["player"] == ["This night is closed: its players no longer change."]
    assert response.json()["codes"] == {"player": ["night_closed"]}
    response = leave(director_a, night["id"], nine[1].pk)
    assert response.json()["codes"] == {"player": ["night_closed"]}


def test_only_the_clubs_directors_change_the_players(world, nine, director_a):
    night = create(director_a, world, nine[:8])
    for role, status in (
        ("anonymous", 401),
        ("player_a", 403),
        ("read_key_a", 403),
        ("director_b", 404),
    ):
        client = world.client(role)
        assert add(client, night["id"], {"player": nine[8].pk}).status_code == status, role
        assert leave(client, night["id"], nine[0].pk).status_code == status, role
    assert add(world.client("write_key_a"), night["id"], {"player": nine[8].pk}).status_code == 201
