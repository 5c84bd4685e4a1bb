"""Events kept for a time (``api.retention``): pruned with their deliveries after
``EVENTS_KEEP_DAYS`` by beat's daily task, and a client whose cursor is older told so (410,
with where to resume), documented in the schema."""

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from api.events import events_record
from api.models import Delivery, Event, EventsPruned, EventType, WebhookEndpoint
from api.retention import events_gone_before, events_prune, prune_events

pytestmark = pytest.mark.django_db


def record(world, n=1) -> list[int]:
    """``n`` events of club A, written as the services write them (with their deliveries):
    their ids."""
    made = events_record(
        Event(club_id=world.a.club.pk, type=EventType.DEAL_RECORDED, data={"n": n})
        for n in range(n)
    )
    return [event.pk for event in made]


def aged(ids, days):
    Event.objects.filter(pk__in=ids).update(created_at=timezone.now() - timedelta(days=days))


def test_events_older_than_kept_go_with_their_deliveries(world):
    WebhookEndpoint.objects.create(
        club=world.a.club, url="https://example.com/hook", events=["deal.recorded"], secret="s"
    )
    old, recent = record(world, 2), record(world, 1)
    assert Delivery.objects.filter(event_id__in=old).count() == 2
    aged(old, settings.EVENTS_KEEP_DAYS + 1)
    assert prune_events() == 2
    kept = set(Event.objects.values_list("pk", flat=True))
    assert not kept & set(old) and set(recent) <= kept
    assert not Delivery.objects.filter(event_id__in=old).exists()
    assert events_gone_before() == old[-1]
    assert prune_events() == 0 and events_gone_before() == old[-1]  # the mark only grows


def test_a_cursor_older_than_what_is_kept_is_a_410_saying_where_to_resume(world, director_a):
    old, recent = record(world, 3), record(world, 1)
    aged(old, 40)
    events_prune(before=timezone.now() - timedelta(days=30))
    gone = director_a.get(f"/api/v1/events/?since={old[0]}")
    assert gone.status_code == 410
    body = gone.json()
    assert body["code"] == "events_gone" and body["since"] == old[-1]
    assert f"since={old[-1]}" in body["detail"]
    resumed = director_a.get(f"/api/v1/events/?since={body['since']}")
    assert resumed.status_code == 200
    assert [event["id"] for event in resumed.json()["results"]] == recent
    assert director_a.get("/api/v1/events/?since=0").status_code == 200  # a new client
    assert director_a.get("/api/v1/events/").status_code == 200


def test_before_any_pruning_every_cursor_is_listed(world, director_a):
    assert not EventsPruned.objects.exists()
    ids = record(world, 2)
    listed = director_a.get(f"/api/v1/events/?since={ids[0]}")
    assert listed.status_code == 200
    assert [event["id"] for event in listed.json()["results"]] == ids[1:]


def test_the_pruning_runs_every_night_and_the_schema_documents_the_410(client):
    entry = settings.CELERY_BEAT_SCHEDULE["events-prune"]
    assert entry["task"] == prune_events.name
    schema = client.get("/api/v1/schema/?format=json").json()
    responses = schema["paths"]["/api/v1/events/"]["get"]["responses"]
    assert "410" in responses and "events_gone" in responses["410"]["description"]
