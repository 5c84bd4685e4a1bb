"""The events list and webhooks are made from ``Event`` rows, written here by the receivers of
the lower apps' signals (connected in ``ApiConfig.ready``), in the transaction of the change
(an outbox): an event exists exactly when its change committed. Each event holds the object
as the API showed it (its own serializers); a deleted deal holds what it was. An event's
deliveries, one per active endpoint of the club that chose its type, are written with it, and
queued once the transaction commits (``api.tasks``).

Within a bulk load (``matches.services.season_changes_batched``: a season's history import,
the demo) the deals' and matches' events are collected and written at the block's end, still
inside its transaction, in a few queries for all of them (``changes_batched``); a deal's row
is the one scored at its change, and a match is shown as the block left it.
"""

import json
from collections.abc import Iterable
from contextvars import ContextVar
from dataclasses import dataclass
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


def events_record(events: Iterable[Event]) -> list[Event]:
    """Write events (unsaved, ``data`` plain JSON) and their deliveries in the current
    transaction, in a few queries; queue the deliveries when it commits."""
    events = list(events)
    if not events:
        return []
    saved = Event.objects.bulk_create(events)  # PostgreSQL and SQLite return the ids
    clubs = {event.club_id for event in saved}
    endpoints: dict[int, list[WebhookEndpoint]] = {club: [] for club in clubs}
    for endpoint in WebhookEndpoint.objects.filter(club_id__in=clubs, active=True):
        endpoints[endpoint.club_id].append(endpoint)
    deliveries = [
        delivery_new(endpoint=endpoint, event=event)
        for event in saved
        for endpoint in endpoints[event.club_id]
        if event.type in endpoint.events
    ]
    if deliveries:
        created = Delivery.objects.bulk_create(deliveries)
        deliveries_enqueue_on_commit([delivery.pk for delivery in created])
    return saved


def event_record(*, club_id: int, type: str, data: Any) -> Event:
    """Write one event and its deliveries (``events_record``)."""
    return events_record([Event(club_id=club_id, type=type, data=_plain(data))])[0]


# --- the receivers -----------------------------------------------------------------------


DEAL_EVENTS = {
    "recorded": EventType.DEAL_RECORDED,
    "corrected": EventType.DEAL_CORRECTED,
    "deleted": EventType.DEAL_DELETED,
}
MATCH_EVENTS = {"completed": EventType.MATCH_COMPLETED, "abandoned": EventType.MATCH_ABANDONED}


@dataclass(frozen=True)
class _Change:
    """A deal's or a match's change as its signal told it, to be shown as an event."""

    type: str
    club_id: int
    match: Any
    deal: Any = None
    row: Any = None


_batch: ContextVar[list[_Change] | None] = ContextVar("events_batch", default=None)


def on_changes_batched(*, phase: str, **signal) -> None:
    """``matches.signals.changes_batched``: collect from the start, write at the end."""
    if phase == "start":
        _batch.set([])
        return
    changes = _batch.get()
    _batch.set(None)
    if phase == "end" and changes:
        events_record(_shown(changes))


def _collect(change: _Change) -> None:
    batch = _batch.get()
    if batch is not None:
        batch.append(change)
    else:
        events_record(_shown([change]))


def _shown(changes: list[_Change]) -> list[Event]:
    """The events of these changes, each object shown as the API shows it: the deals' table
    entries read in one query, the matches in one (with their pending entries)."""
    from api.serializers.deals import DealSerializer
    from api.serializers.matches import MatchSerializer
    from api.views.tables import pending_prefetch
    from clubs.models import Club
    from matches.selectors import matches_counted
    from nights.selectors import deal_confirmations

    scored = sorted({change.match.pk for change in changes if change.row is not None})
    entries = deal_confirmations(match_ids=scored) if scored else {}
    ended = {change.match.pk for change in changes if change.type in MATCH_EVENTS.values()}
    matches = {}
    if ended:
        clubs = Club.objects.filter(pk__in={change.club_id for change in changes})
        matches = {
            match.pk: match
            for match in matches_counted(clubs=clubs)
            .filter(pk__in=ended)
            .prefetch_related(pending_prefetch())
        }
    events = []
    for change in changes:
        match = change.match
        data: Any
        if change.type in MATCH_EVENTS.values():
            data = MatchSerializer(matches[match.pk]).data
        elif change.row is None:  # deleted: what it was
            deal = change.deal
            data = {
                "match": match.pk,
                "sequence": deal.sequence,
                "passed_out": deal.passed_out,
                "contract": deal.contract,
                "declarer": deal.declarer or None,
                "tricks": deal.tricks,
            }
        else:
            # Just saved: the newest of the deals up to it (as the write's own answer says).
            context = {
                "match": match,
                "entries": entries[match.pk],
                "updated": {change.deal.sequence: change.deal.updated_at},
            }
            data = DealSerializer(change.row, context=context).data
        events.append(Event(club_id=change.club_id, type=change.type, data=_plain(data)))
    return events


def on_deal_changed(*, action, match, club_id, deal, row, **signal) -> None:
    """``matches.signals.deal_changed``: the deal as ``GET /matches/{id}/deals/{n}/`` shows
    it; a deleted deal as it was entered (its match, sequence and result)."""
    _collect(_Change(type=DEAL_EVENTS[action], club_id=club_id, match=match, deal=deal, row=row))


def on_match_ended(*, action, match, club_id, **signal) -> None:
    """``matches.signals.match_ended``: the match as ``GET /matches/{id}/`` shows it."""
    _collect(_Change(type=MATCH_EVENTS[action], club_id=club_id, match=match))


def on_ladders_changed(*, season_ids, **signal) -> None:
    """``scoring.signals.ladders_changed``: which season's ladder was computed again, and
    where to read it (a ladder can be long)."""
    from clubs.models import Season

    events_record(
        Event(
            club_id=club_id,
            type=EventType.LADDER_UPDATED,
            data={
                "season": season_id,
                "club": club_id,
                "ladder": reverse("api:season-ladder", kwargs={"season_id": season_id}),
            },
        )
        for season_id, club_id in Season.objects.filter(pk__in=season_ids)
        .order_by("pk")
        .values_list("pk", "club_id")
    )


def on_round_started(*, night, round, club_id, **signal) -> None:
    """``nights.signals.round_started``: the round as ``POST /nights/{id}/rounds/`` answers,
    with its night."""
    from api.serializers.nights import NightRoundSerializer
    from nights.selectors import night_plan

    plan = night_plan(night=night)
    shown = next(known for known in plan.rounds if known.number == round.number)
    data = {"night": night.pk, **NightRoundSerializer(shown).data}
    event_record(club_id=club_id, type=EventType.NIGHT_ROUND_STARTED, data=data)
