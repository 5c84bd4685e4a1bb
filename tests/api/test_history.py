"""Writes through the API are kept in the history with who made them: the user of a token,
or for a club API key (not a user) the key's prefix in the change reason."""

import pytest

from api.models import ClubAPIKey
from matches.models import Deal, Match


def latest(history):
    return history.order_by("-history_date", "-history_id").first()


def assert_made_by(record, world, role, reason: str) -> None:
    """By director A's token: the user; by A's read-write key: the key's prefix."""
    if role == "director_a":
        assert (record.history_user, record.history_change_reason) == (world.a.director, reason)
    else:
        prefix = ClubAPIKey.objects.get(name="writer").prefix
        assert record.history_user is None
        assert record.history_change_reason == f"{reason} (API key {prefix})"


ROLES = ["director_a", "write_key_a"]


@pytest.mark.parametrize("role", ROLES)
def test_a_club_change_that_rescores_its_matches_records_who_made_it(world, role):
    response = world.client(role).patch(
        f"/api/v1/clubs/{world.a.club.pk}/", {"chicago_vulnerability": "non_dealer"}
    )
    assert response.status_code == 200, response.json()
    record = latest(Match.history.filter(id=world.a.match.pk))
    assert_made_by(record, world, role, "re-scored with the club's options")


def test_the_api_names_the_user_itself_not_through_the_history_middleware(world, settings):
    """django-simple-history's middleware fills in the user of a request when a service was
    given none; the API gives it, so the record does not rest on the middleware."""
    settings.MIDDLEWARE = [name for name in settings.MIDDLEWARE if "simple_history" not in name]
    response = world.client("director_a").patch(
        f"/api/v1/clubs/{world.a.club.pk}/", {"chicago_vulnerability": "non_dealer"}
    )
    assert response.status_code == 200
    record = latest(Match.history.filter(id=world.a.match.pk))
    assert record.history_user == world.a.director


@pytest.mark.parametrize("role", ROLES)
def test_match_and_deal_writes_record_who_made_them(world, role):
    client = world.client(role)
    match_id = world.a.match.pk
    deals = f"/api/v1/matches/{match_id}/deals/"

    def match_record():
        return latest(Match.history.filter(id=match_id))

    def deal_record(sequence):
        return latest(Deal.history.filter(match_id=match_id, sequence=sequence))

    response = client.post(deals, {"contract": "2H", "declarer": "E", "tricks": 8}, format="json")
    assert response.status_code == 201
    assert_made_by(deal_record(2), world, role, "deal recorded")
    assert_made_by(match_record(), world, role, "deal 2 recorded")
    assert client.patch(f"{deals}2/", {"tricks": 9}, format="json").status_code == 200
    assert_made_by(deal_record(2), world, role, "deal corrected")
    assert client.put(f"{deals}2/", {"passed_out": True}, format="json").status_code == 200
    assert_made_by(match_record(), world, role, "deal 2 corrected")
    assert client.delete(f"{deals}2/").status_code == 204
    assert_made_by(deal_record(2), world, role, "deal deleted")
    assert client.post(f"/api/v1/matches/{match_id}/abandon/").status_code == 200
    assert_made_by(match_record(), world, role, "match abandoned")

    players = [p.pk for p in world.a.players]
    response = client.post(
        "/api/v1/matches/",
        {
            "club": world.a.club.pk,
            "kind": "rubber",
            "played_on": "2025-03-14",
            "seats": dict(zip("NESW", players, strict=True)),
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    rubber = response.json()["id"]
    assert_made_by(latest(Match.history.filter(id=rubber)), world, role, "match started")
    assert client.post(f"/api/v1/matches/{rubber}/finish/").status_code == 200
    assert_made_by(latest(Match.history.filter(id=rubber)), world, role, "rubber finished early")
