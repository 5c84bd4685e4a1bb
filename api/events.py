"""The events list and webhooks are made from ``Event`` rows, written here by the receivers of
the lower apps' signals (connected in ``ApiConfig.ready``), in the transaction of the change
(an outbox): an event exists exactly when its change committed. Each event holds the object
as the API showed it at that moment (its own serializers); a deleted deal holds what it was.
An event's deliveries, one per active endpoint of the club that chose its type, are written
with it, and queued once the transaction commits (``api.tasks``).
"""

import json
from typing import Any

from django.urls import reverse
from rest_framework.renderers import JSONRenderer

from api.models import Delivery, Event, EventType, WebhookEndpoint
from api.tasks import deliveries_enqueue_on_commit
from api.webhooks import delivery_new

_renderer = JSONRenderer()


def _plain(data: Any) -> Any:
    """The serializer's output as JSON would carry it (dates as text, decimals as numbers)."""
    return json.loads(_renderer.render(data))


def event_record(*, club_id: int, type: str, data: Any) -> Event:
    """Write an event and its deliveries in the current transaction; queue the deliveries
    when it commits."""
    event = Event.objects.create(club_id=club_id, type=type, data=_plain(data))
    endpoints = [
        endpoint
        for endpoint in WebhookEndpoint.objects.filter(club_id=club_id, active=True)
        if type in endpoint.events
    ]
    if endpoints:
        deliveries = Delivery.objects.bulk_create(
            [delivery_new(endpoint=endpoint, event=event) for endpoint in endpoints]
        )
        deliveries_enqueue_on_commit([delivery.pk for delivery in deliveries])
    return event


# --- the receivers -----------------------------------------------------------------------


DEAL_EVENTS = {
    "recorded": EventType.DEAL_RECORDED,
    "corrected": EventType.DEAL_CORRECTED,
    "deleted": EventType.DEAL_DELETED,
}
MATCH_EVENTS = {"completed": EventType.MATCH_COMPLETED, "abandoned": EventType.MATCH_ABANDONED}


def on_deal_changed(*, action, match, club_id, deal, row, **signal) -> None:
    """``matches.signals.deal_changed``: the deal as ``GET /matches/{id}/deals/{n}/`` shows
    it; a deleted deal as it was entered (its match, sequence and result)."""
    from api.serializers.deals import DealSerializer

    if row is None:
        data = {
            "match": match.pk,
            "sequence": deal.sequence,
            "passed_out": deal.passed_out,
            "contract": deal.contract,
            "declarer": deal.declarer or None,
            "tricks": deal.tricks,
        }
    else:
        data = DealSerializer(row, context={"match": match}).data
    event_record(club_id=club_id, type=DEAL_EVENTS[action], data=data)


def on_match_ended(*, action, match, club_id, **signal) -> None:
    """``matches.signals.match_ended``: the match as ``GET /matches/{id}/`` shows it."""
    from api.serializers.matches import MatchSerializer
    from api.views.tables import pending_prefetch
    from clubs.models import Club
    from matches.selectors import matches_counted

    clubs = Club.objects.filter(pk=club_id)
    shown = matches_counted(clubs=clubs).prefetch_related(pending_prefetch()).get(pk=match.pk)
    event_record(club_id=club_id, type=MATCH_EVENTS[action], data=MatchSerializer(shown).data)


def on_ladders_changed(*, season_ids, **signal) -> None:
    """``scoring.signals.ladders_changed``: which season's ladder was computed again, and
    where to read it (a ladder can be long)."""
    from clubs.models import Season

    for season_id, club_id in (
        Season.objects.filter(pk__in=season_ids).order_by("pk").values_list("pk", "club_id")
    ):
        data = {
            "season": season_id,
            "club": club_id,
            "ladder": reverse("api:season-ladder", kwargs={"season_id": season_id}),
        }
        event_record(club_id=club_id, type=EventType.LADDER_UPDATED, data=data)


def on_round_started(*, night, round, club_id, **signal) -> None:
    """``nights.signals.round_started``: the round as ``POST /nights/{id}/rounds/`` answers,
    with its night."""
    from api.serializers.nights import NightRoundSerializer
    from nights.selectors import night_plan

    plan = night_plan(night=night)
    shown = next(known for known in plan.rounds if known.number == round.number)
    data = {"night": night.pk, **NightRoundSerializer(shown).data}
    event_record(club_id=club_id, type=EventType.NIGHT_ROUND_STARTED, data=data)
