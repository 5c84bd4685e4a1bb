"""Roles through the API: an API key is an app's credential, not a person, so it never makes a
director nor changes a role; a club always keeps a director who can sign in; and what a key did
grants nothing once it is revoked."""

import pytest
from django.contrib.auth import get_user_model

from api.models import ClubAPIKey
from clubs.models import Membership, Player
from clubs.selectors import clubs_directed_by
from clubs.services import player_create


def roles(club) -> dict[int, str]:
    return dict(Membership.objects.filter(club=club).values_list("player_id", "role"))


def refused_naming_role(response) -> None:
    assert response.status_code == 403, response.content
    body = response.json()
    assert body["code"] == "permission_denied"
    assert set(body["errors"]) == {"role"}, body


def test_a_key_cannot_create_a_director(world):
    players = set(Player.objects.values_list("pk", flat=True))
    response = world.client("write_key_a").post(
        "/api/v1/players/", {"club": world.a.club.pk, "name": "Boss", "role": "director"}
    )
    refused_naming_role(response)
    assert set(Player.objects.values_list("pk", flat=True)) == players  # nothing half-written


def test_a_key_creates_plain_players(world):
    response = world.client("write_key_a").post(
        "/api/v1/players/", {"club": world.a.club.pk, "name": "Newcomer", "active": False}
    )
    assert response.status_code == 201, response.content
    assert (response.json()["role"], response.json()["active"]) == ("player", False)


@pytest.mark.parametrize(
    ("who", "body"),
    [
        ("player_a", {"role": "director"}),  # promote a player linked to a user account
        ("creator", {"role": "player"}),  # demote the club's creator
    ],
)
def test_a_key_cannot_change_a_role(world, who, body):
    player = world.a.players[0] if who == "player_a" else Player.objects.get(user=world.a.director)
    before = roles(world.a.club)
    response = world.client("write_key_a").patch(
        f"/api/v1/players/{player.pk}/", {"club": world.a.club.pk, **body}, format="json"
    )
    refused_naming_role(response)
    assert roles(world.a.club) == before
    assert list(clubs_directed_by(world.player_a_user)) == []
    renamed = world.client("director_a").patch(
        f"/api/v1/clubs/{world.a.club.pk}/", {"name": "Still mine"}, format="json"
    )
    assert renamed.status_code == 200  # the creator still directs the club


def test_a_key_sets_active_but_no_role(world):
    url = f"/api/v1/players/{world.a.players[2].pk}/"
    client = world.client("write_key_a")
    response = client.patch(url, {"active": False, "role": "player"}, format="json")
    assert response.status_code == 200, response.content  # the same role: nothing changes
    assert response.json()["active"] is False
    refused_naming_role(client.patch(url, {"active": True, "role": "director"}, format="json"))
    assert Membership.objects.get(player=world.a.players[2]).active is False  # all or nothing


def test_the_last_director_who_can_sign_in_stays(world, director_a):
    """Another director without a user account (or with a disabled one) cannot sign in to run
    the club: the one who can may not step down."""
    no_account = player_create(club=world.a.club, name="Paper director")
    disabled = get_user_model().objects.create_user("gone", password="pw", is_active=False)
    disabled_player = player_create(club=world.a.club, name="Gone director", user=disabled)
    for other in (no_account, disabled_player):
        response = director_a.patch(
            f"/api/v1/players/{other.pk}/", {"role": "director"}, format="json"
        )
        assert response.status_code == 200, response.content
    me = Player.objects.get(user=world.a.director)
    response = director_a.patch(f"/api/v1/players/{me.pk}/", {"role": "player"}, format="json")
    assert response.status_code == 400, response.content
    assert set(response.json()["errors"]) == {"role"}
    assert roles(world.a.club)[me.pk] == "director"


def access_granted():
    """Who can do what with a user account: staff, groups, and the clubs each directs."""
    return {
        user.username: (
            user.is_staff,
            sorted(user.groups.values_list("name", flat=True)),
            sorted(clubs_directed_by(user).values_list("pk", flat=True)),
        )
        for user in get_user_model().objects.order_by("pk")
    }


def test_what_a_key_did_grants_nothing_once_it_is_revoked(world):
    before = access_granted()
    client = world.client("write_key_a")
    linked = world.a.players[0]  # linked to player_a's user account
    creator = Player.objects.get(user=world.a.director)
    attempts = [
        ("post", "/api/v1/players/", {"club": world.a.club.pk, "name": "Boss", "role": "director"}),
        ("post", "/api/v1/players/", {"club": world.a.club.pk, "name": "Helper"}),
        ("patch", f"/api/v1/players/{linked.pk}/", {"club": world.a.club.pk, "role": "director"}),
        ("patch", f"/api/v1/players/{linked.pk}/", {"name": "Renamed", "active": False}),
        ("patch", f"/api/v1/players/{creator.pk}/", {"role": "player"}),
        ("patch", f"/api/v1/clubs/{world.a.club.pk}/", {"name": "Alpha by key"}),
    ]
    for method, url, body in attempts:
        assert getattr(client, method)(url, body, format="json").status_code in (200, 201, 403)
    ClubAPIKey.objects.filter(name="writer").update(revoked=True)
    assert client.get("/api/v1/players/").status_code == 401
    assert access_granted() == before
    assert roles(world.a.club)[creator.pk] == "director"
    assert Membership.objects.get(player=linked).role == "player"
