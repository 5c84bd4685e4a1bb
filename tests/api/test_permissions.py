"""What each role's lists show; public clubs; revoked keys."""

import pytest

from api.models import ClubAPIKey
from clubs.models import Club, Session
from tests.api.conftest import ROLES


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


def a_session(world):
    return Session.objects.get(club=world.a.club)


# --- What each role's lists show ----------------------------------------------------------

LIST_VISIBILITY = {
    # role: (sees club A's rows, sees club B's rows)
    "anonymous": (False, False),
    "player_a": (True, False),
    "director_a": (True, False),
    "director_b": (False, True),
    "read_key_a": (True, False),
    "write_key_a": (True, False),
}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    ("url", "club_of"),
    [
        ("/api/v1/clubs/", lambda row: row["id"]),
        ("/api/v1/seasons/", lambda row: row["club"]),
        ("/api/v1/matches/", lambda row: row["club"]),
        ("/api/v1/sessions/", lambda row: row["club"]),
        ("/api/v1/tables/", lambda row: row["club"]),
        ("/api/v1/players/", lambda row: row["club"]),
    ],
)
def test_lists_show_only_the_clients_clubs(world, role, url, club_of):
    response = world.client(role).get(url)
    if response.status_code == 401:
        assert role == "anonymous" and url in (
            "/api/v1/sessions/",
            "/api/v1/tables/",
            "/api/v1/players/",
        )
        return
    assert response.status_code == 200
    clubs = {club_of(row) for row in response.json()["results"]}
    sees_a, sees_b = LIST_VISIBILITY[role]
    assert (world.a.club.pk in clubs) == sees_a
    assert (world.b.club.pk in clubs) == sees_b


# --- Public clubs ----------------------------------------------------------------------------


@pytest.fixture
def public_a(world):
    Club.objects.filter(pk=world.a.club.pk).update(public=True)
    return world


@pytest.mark.parametrize(
    ("url", "status"),
    [
        (lambda w: f"/api/v1/clubs/{w.a.club.pk}/", 200),
        (lambda w: f"/api/v1/seasons/{w.a.season.pk}/", 200),
        (lambda w: f"/api/v1/matches/{w.a.match.pk}/", 200),
        (lambda w: f"/api/v1/matches/{w.a.match.pk}/score-sheet/", 200),
        (lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/", 200),
        (lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/", 200),
        (lambda w: f"/api/v1/players/{w.a.players[0].pk}/", 401),
        (lambda w: f"/api/v1/sessions/{a_session(w).pk}/", 401),
        (lambda w: f"/api/v1/sessions/{a_session(w).pk}/results/", 401),
        (lambda w: f"/api/v1/tables/{w.a.match.table_id}/", 401),
    ],
)
def test_anonymous_reads_a_public_clubs_sheets_and_nothing_else(public_a, url, status):
    assert public_a.client("anonymous").get(url(public_a)).status_code == status


def test_anonymous_lists_show_public_clubs_only(public_a):
    client = public_a.client("anonymous")
    clubs = [row["id"] for row in client.get("/api/v1/clubs/").json()["results"]]
    assert clubs == [public_a.a.club.pk]
    matches = [row["id"] for row in client.get("/api/v1/matches/").json()["results"]]
    assert matches == [public_a.a.match.pk]


def test_a_public_club_is_not_writable_by_another_clubs_director(public_a):
    client = public_a.client("director_b")
    response = client.patch(f"/api/v1/clubs/{public_a.a.club.pk}/", {"name": "Mine"})
    assert response.status_code == 403
    response = client.post(
        f"/api/v1/matches/{public_a.a.match.pk}/deals/",
        {"contract": "1NT", "declarer": "E", "tricks": 7},
    )
    assert response.status_code == 403
    response = client.post(
        "/api/v1/seasons/",
        {
            "club": public_a.a.club.pk,
            "name": "x",
            "start_date": "2030-01-01",
            "end_date": "2030-02-01",
        },
    )
    assert response.status_code == 403


def test_a_revoked_key_is_refused(world):
    ClubAPIKey.objects.filter(name="writer").update(revoked=True)
    response = world.client("write_key_a").get("/api/v1/clubs/")
    assert response.status_code == 401
    assert response.json()["code"] == "authentication_failed"
