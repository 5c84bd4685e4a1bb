"""A player who belongs to clubs A and B: nothing a director or a key of one club does changes
what the other shows or accepts. ``active`` is each club's own (on the membership); the name
is shared, so only a client writing every club of the player changes it."""

import pytest
from django.contrib.auth import get_user_model

from clubs.models import Membership
from clubs.services import membership_set
from tests.api.conftest import PLAYED_ON


@pytest.fixture
def shared(world):
    """Player 2 of club A, made a member of club B by B's director."""
    player = world.a.players[1]
    membership_set(club=world.b.club, player=player, actor=world.b.director)
    return player


def seen(client, player) -> dict:
    response = client.get(f"/api/v1/players/{player.pk}/")
    assert response.status_code == 200, response.content
    return response.json()


def new_match(client, club, players) -> int:
    body = {
        "club": club.pk,
        "kind": "chicago",
        "played_on": PLAYED_ON.isoformat(),
        "seats": dict(zip("NESW", (p.pk for p in players), strict=True)),
    }
    return client.post("/api/v1/matches/", body, format="json")


def test_another_clubs_director_cannot_rename_a_shared_player(world, shared):
    response = world.client("director_b").patch(
        f"/api/v1/players/{shared.pk}/", {"name": "Renamed by B"}, format="json"
    )
    assert response.status_code == 403, response.content
    assert set(response.json()["errors"]) == {"name"}
    # The message names the player, not the name asked for.
    [message] = response.json()["errors"]["name"]
    assert message.startswith("Alpha player 2 also belongs")
    assert "Renamed by B" not in message
    assert seen(world.client("director_a"), shared)["name"] == "Alpha player 2"


def test_a_key_cannot_rename_a_player_another_club_shares(world, shared):
    response = world.client("write_key_a").patch(
        f"/api/v1/players/{shared.pk}/", {"name": "Renamed by a key"}, format="json"
    )
    assert response.status_code == 403, response.content
    assert set(response.json()["errors"]) == {"name"}
    assert seen(world.client("director_b"), shared)["name"] == "Alpha player 2"
    # A player of club A alone is still renamed by A's key.
    alone = world.a.players[2]
    response = world.client("write_key_a").patch(
        f"/api/v1/players/{alone.pk}/", {"name": "Renamed by a key"}, format="json"
    )
    assert response.status_code == 200 and response.json()["name"] == "Renamed by a key"


def test_a_director_of_every_club_of_the_player_renames_them(world, shared):
    both = get_user_model().objects.get(username="director_a")
    membership_set(club=world.b.club, player=both.player, role="director", actor=world.b.director)
    response = world.client("director_a").patch(
        f"/api/v1/players/{shared.pk}/", {"name": "Renamed by both"}, format="json"
    )
    assert response.status_code == 200, response.content
    assert seen(world.client("director_b"), shared)["name"] == "Renamed by both"


def test_deactivating_in_one_club_leaves_the_other_clubs_membership(world, shared):
    response = world.client("director_b").patch(
        f"/api/v1/players/{shared.pk}/", {"active": False}, format="json"
    )
    assert response.status_code == 200, response.content
    # Club A still shows them active and seats them; club B refuses them as inactive.
    in_a = seen(world.client("director_a"), shared)
    assert in_a["active"] is True
    response = new_match(world.client("director_a"), world.a.club, world.a.players)
    assert response.status_code == 201, response.content
    in_b = [shared, *world.b.players[:3]]
    response = new_match(world.client("director_b"), world.b.club, in_b)
    assert response.status_code == 400 and "inactive" in response.json()["errors"]["seats.N"][0]
    # Each club's filter and memberships follow its own membership.
    assert in_a["memberships"] == [{"club": world.a.club.pk, "role": "player", "active": True}]
    in_b = seen(world.client("director_b"), shared)
    assert in_b["active"] is False
    assert in_b["memberships"] == [{"club": world.b.club.pk, "role": "player", "active": False}]
    active_in_a = world.client("read_key_a").get(
        f"/api/v1/players/?club={world.a.club.pk}&active=true"
    )
    assert shared.pk in [p["id"] for p in active_in_a.json()["results"]]
    inactive_in_b = world.client("director_b").get(
        f"/api/v1/players/?club={world.b.club.pk}&active=false"
    )
    assert [p["id"] for p in inactive_in_b.json()["results"]] == [shared.pk]


def test_active_is_set_in_the_club_given(world, shared):
    """A director of both clubs names the club; the default is the player's shown ``club``."""
    both = get_user_model().objects.get(username="director_a")
    membership_set(club=world.b.club, player=both.player, role="director", actor=world.b.director)
    url = f"/api/v1/players/{shared.pk}/"
    client = world.client("director_a")
    response = client.patch(url, {"club": world.b.club.pk, "active": False}, format="json")
    assert response.status_code == 200, response.content
    by_club = {m["club"]: m["active"] for m in response.json()["memberships"]}
    assert by_club == {world.a.club.pk: True, world.b.club.pk: False}
    assert response.json()["active"] is True  # the shown club is A
    assert client.patch(url, {"active": False}, format="json").json()["active"] is False
    states = dict(Membership.objects.filter(player=shared).values_list("club_id", "active"))
    assert states == {world.a.club.pk: False, world.b.club.pk: False}
