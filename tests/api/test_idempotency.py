"""Idempotency-Key on POST: a retry returns the first response and records nothing twice."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.utils import timezone

from api.models import IdempotencyRecord
from matches.models import Deal, Match


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


DEAL = {"contract": "3NT", "declarer": "E", "tricks": 9}


def post(client, url, body, key):
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.fixture
def deals_url(world):
    return f"/api/v1/matches/{world.a.match.pk}/deals/"


def test_a_retry_returns_the_first_response_and_records_once(world, director_a, deals_url):
    first = post(director_a, deals_url, DEAL, "retry-1")
    assert first.status_code == 201 and "Idempotent-Replayed" not in first
    # The same JSON with other key order is the same request.
    again = post(director_a, deals_url, dict(reversed(DEAL.items())), "retry-1")
    assert again.status_code == 201
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Deal.objects.filter(match=world.a.match).count() == 2


def test_the_same_key_with_another_body_is_a_422(world, director_a, deals_url):
    post(director_a, deals_url, DEAL, "k")
    response = post(director_a, deals_url, {**DEAL, "tricks": 10}, "k")
    assert response.status_code == 422
    assert response.json()["code"] == "idempotency_key_reused"
    response = post(director_a, "/api/v1/matches/", {}, "k")  # another path
    assert response.status_code == 422
    assert Deal.objects.filter(match=world.a.match).count() == 2


def test_keys_are_per_client(world, deals_url):
    post(world.client("director_a"), deals_url, DEAL, "shared")
    response = post(world.client("write_key_a"), deals_url, {**DEAL, "declarer": "W"}, "shared")
    assert response.status_code == 201
    assert Deal.objects.filter(match=world.a.match).count() == 3


def test_a_failed_request_stores_nothing_and_can_be_retried(world, director_a, deals_url):
    bad = post(director_a, deals_url, {**DEAL, "tricks": 14}, "fix-me")
    assert bad.status_code == 400
    assert not IdempotencyRecord.objects.exists()
    good = post(director_a, deals_url, DEAL, "fix-me")
    assert good.status_code == 201


def test_a_conflict_is_not_replayed(world, director_a, deals_url):
    body = {**DEAL, "expected_sequence": 5}
    assert post(director_a, deals_url, body, "c").status_code == 409
    assert not IdempotencyRecord.objects.exists()


def test_an_expired_key_acts_again(world, director_a, deals_url):
    post(director_a, deals_url, DEAL, "old")
    IdempotencyRecord.objects.update(created_at=timezone.now() - timedelta(hours=25))
    response = post(director_a, deals_url, DEAL, "old")
    assert response.status_code == 201 and "Idempotent-Replayed" not in response
    assert Deal.objects.filter(match=world.a.match).count() == 3
    assert IdempotencyRecord.objects.count() == 1


def test_prune_deletes_expired_records(world, director_a, deals_url):
    post(director_a, deals_url, DEAL, "a")
    post(director_a, deals_url, {**DEAL, "declarer": "W"}, "b")
    IdempotencyRecord.objects.filter(key="a").update(
        created_at=timezone.now() - timedelta(hours=25)
    )
    call_command("prune_idempotency_keys", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert list(IdempotencyRecord.objects.values_list("key", flat=True)) == ["b"]


@pytest.mark.parametrize("key", ["", "   ", "x" * 256])
def test_a_bad_key_is_a_400(world, director_a, deals_url, key):
    response = post(director_a, deals_url, DEAL, key)
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"Idempotency-Key"}


def test_every_post_honours_the_key(world, director_a):
    body = {
        "club": world.a.club.pk,
        "kind": "chicago",
        "played_on": "2025-03-14",
        "seats": dict(zip("NESW", (p.pk for p in world.a.players), strict=True)),
    }
    first = post(director_a, "/api/v1/matches/", body, "m")
    second = post(director_a, "/api/v1/matches/", body, "m")
    assert first.status_code == second.status_code == 201
    assert first.json()["id"] == second.json()["id"]
    assert Match.objects.filter(table__session__club=world.a.club).count() == 2
