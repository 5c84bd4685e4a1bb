"""When the cache behind the throttles (Redis) is down, the API still answers: the throttles let
requests through and log a warning (found by bench/faults.py: every request was a 500)."""

import logging

import pytest
from rest_framework.throttling import SimpleRateThrottle

from config.cache import SharedClientRedisCache
from matches.models import Deal


@pytest.fixture
def cache_down(monkeypatch):
    """The throttles' cache is a Redis nobody answers on (port 1 of the loopback: refused)."""
    unreachable = SharedClientRedisCache("redis://127.0.0.1:1/0", {})
    monkeypatch.setattr(SimpleRateThrottle, "cache", unreachable)
    return unreachable


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


@pytest.mark.parametrize("role", ["anonymous", "director_a", "read_key_a"])
def test_reads_are_answered_while_the_cache_is_down(world, cache_down, role, caplog):
    with caplog.at_level(logging.WARNING, logger="api.throttling"):
        response = world.client(role).get("/api/v1/clubs/")
    assert response.status_code == 200, response.content
    assert "API throttle not applied: the cache is unreachable" in caplog.text


def test_a_deal_is_recorded_while_the_cache_is_down(world, cache_down):
    before = Deal.objects.filter(match=world.a.match).count()
    response = world.client("write_key_a").post(
        f"/api/v1/matches/{world.a.match.pk}/deals/",
        {"contract": "2S", "declarer": "E", "tricks": 8},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Deal.objects.filter(match=world.a.match).count() == before + 1
