"""Concurrent retries with one Idempotency-Key record once (PostgreSQL: real row locks)."""

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from matches.models import Deal
from tests.api.conftest import build_world

DEAL = {"contract": "3NT", "declarer": "E", "tricks": 9}


def post(client, url, body, key):
    return client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.django_db(transaction=True)
def test_concurrent_retries_record_once(on_postgres):
    world = build_world()
    url = f"/api/v1/matches/{world.a.match.pk}/deals/"
    barrier = threading.Barrier(4)
    responses = []

    def attempt():
        client: APIClient = world.client("director_a")
        barrier.wait()
        try:
            responses.append(post(client, url, DEAL, "race"))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [r.status_code for r in responses] == [201] * 4
    assert len({r.content for r in responses}) == 1  # byte for byte
    assert Deal.objects.filter(match=world.a.match).count() == 2
