"""The events list and webhooks are made from ``Event`` rows, written here by the receivers of
the lower apps' signals (connected in ``ApiConfig.ready``), in the transaction of the change
(an outbox): an event exists exactly when its change committed. Each event holds the object
as the API showed it (its own serializers); a deleted deal holds what it was. An event's
deliveries, one per active endpoint of the club that chose its type, are written with it, and
queued once the transaction commits (``api.tasks``).

Within a bulk load (``matches.services.season_changes_batched``: a season's history import,
the demo) the deals' and matches' events are collected and written at the block's end, still
inside its transaction, in a few queries for all of them (``changes_batched``); a deal's row
is the one scored at its change, and a match is shown as the block left it. A deal entered at
the table is recorded in such a block too (``nights.services``), so that its event shows the
table's entry, linked and confirmed by the block's end, as the API shows the deal after the
commit.

The list's cursor (``GET /api/v1/events/?since=<id>``, issue 28) must never step over an event:
a client passes the id of the last event it was shown and must later be shown every event
that comes after it, exactly once. Ids alone cannot do that on PostgreSQL: an id is taken
when the event is written, not when its transaction commits, so a later id can commit first
(the deal that completes a match takes longer) and ``id > since`` never shows the earlier one.
Hiding the events of transactions still in flight is not enough either while the order is
the ids': a transaction that began long ago (a small transaction id) may write its event last,
commit, and be listed while a younger one holding a smaller id is still open.

So each event stores its transaction's id (``Event.xact``, set by the database) and the list
(``events_final``, ``events_after``):

- shows only the events of transactions older than the oldest one still in flight in this
  database, in the statement's own snapshot: ``xact`` below the least of the snapshot's
  in-progress transactions (``pg_snapshot_xip``) that are not known to belong to another
  database, or below its ``xmax`` when there are none. Every transaction of this database
  below that horizon is over (committed: its events are in the snapshot; rolled back: they
  never will be), and every transaction that has not yet written has a larger id (ids are
  handed out in increasing order, a transaction gets its own at its first write, and the
  horizon only rises). So the events below the horizon are final: none joins them later.
  Transaction ids are the server's, shared by its databases: a transaction of another
  database (another site's, a test worker's, a report left open) writes no event here, so it
  holds nothing back. Which database an in-progress transaction belongs to is read from
  ``pg_stat_activity`` (``backend_xid``, ``datname``: visible to every role), after the
  snapshot was taken; one that has ended by then, or is not found there (a prepared
  transaction), counts as this database's: the horizon can only be lower than the truth,
  never higher, so an event may wait a little longer but is never stepped over.
- orders them by (``xact``, ``id``): the events a later poll adds (from transactions at or
  above the earlier horizon) all come after everything an earlier poll could list, so the
  list only ever grows at its end, and ``since`` resumes just after the event named, at its
  place in that order (whatever its id). Ids stay unique, but are not always increasing
  along the list: a client passes the *last* event listed (one that passes the greatest id
  seen may be shown a few events again, never fewer). A cursor whose event is gone (its club
  removed) resumes at the nearest event before it.

The cost: an event is listed only once every transaction older than its own has ended, so a
long transaction (an import, a session left open in a transaction) holds the list back while
it runs; nothing is lost. A bulk load's events share their transaction's id and follow each
other in id order. Webhooks are made from the same rows, each delivery queued as its
transaction commits (their order is not the list's: a receiver orders by nothing, it uses the
id to ignore a repeat).

SQLite runs one writing transaction at a time (each starts IMMEDIATE: ``config.env``), so
there ids are taken and committed in the same order, every event is final once visible, and
``xact`` is 0: the order is the ids'.
"""

import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BigIntegerField,
    F,
    Func,
    Q,
    QuerySet,
    Subquery,
    Value,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce
from django.urls import reverse
from rest_framework.renderers import JSONRenderer

from api.models import Delivery, Event, EventType, WebhookEndpoint
from api.tasks import deliveries_enqueue_on_commit
from api.webhooks import clubs_with_endpoints, delivery_new

_renderer = JSONRenderer()


def _plain(data: Any) -> Any:
    """The serializer's output as JSON would carry it (dates as text, decimals as numbers)."""
    return json.loads(_renderer.render(data))


class _Horizon(Func):
    """The oldest transaction of this database still in flight, as the statement's snapshot
    sees it (the module's docstring): every transaction of this database with a smaller id is
    over. ``mod`` takes the 32-bit ``xid`` of ``pg_stat_activity`` out of the 64-bit ``xid8``
    (the epoch above it). 1 on SQLite (every ``xact`` there is 0)."""

    template = (
        "(SELECT LEAST(pg_snapshot_xmax(s)::text::bigint, ("
        "SELECT MIN(x::text::bigint) FROM pg_snapshot_xip(s) AS x"
        " WHERE mod(x::text::bigint, 4294967296) NOT IN ("
        "SELECT backend_xid::text::bigint FROM pg_stat_activity"
        " WHERE backend_xid IS NOT NULL AND datname <> current_database())))"
        " FROM (SELECT pg_current_snapshot() AS s) AS snapshot)"
    )
    output_field = BigIntegerField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return "1", []


class _Own(Func):
    """This transaction's own id if it has written (NULL if not, and on SQLite)."""

    template = "(pg_current_xact_id_if_assigned()::text::bigint)"
    output_field = BigIntegerField()

    def as_sqlite(self, compiler, connection, **extra_context):
        return "NULL", []


def events_final(events: QuerySet[Event]) -> QuerySet[Event]:
    """These events whose transactions and all older ones are over, in the list's order
    (``xact``, ``id``): a later call only adds events after them (the module's docstring).
    A transaction also sees its own events, not yet committed (the horizon counts it as in
    flight): a request's own writes, a test's."""
    return events.filter(Q(xact__lt=_Horizon()) | Q(xact=_Own())).order_by("xact", "id")


def events_after(events: QuerySet[Event], since: int) -> QuerySet[Event]:
    """These events after the event ``since`` in the list's order: after its place
    (``xact``, ``id``), taken from the event itself in the same statement, or from the
    nearest event before it that is still stored (0 and none before it: all of them)."""
    xact = Coalesce(
        Subquery(Event.objects.filter(pk__lte=since).order_by("-pk").values("xact")[:1]),
        Value(-1),
        output_field=BigIntegerField(),
    )
    return events.alias(since_xact=xact).filter(
        Q(xact__gt=F("since_xact")) | Q(xact=F("since_xact"), id__gt=since)
    )


def events_record(events: Iterable[Event]) -> list[Event]:
    """Write events (unsaved, ``data`` plain JSON) and their deliveries in the current
    transaction, in a few queries; queue the deliveries when it commits."""
    events = list(events)
    if not events:
        return []
    saved = Event.objects.bulk_create(events)  # PostgreSQL and SQLite return the ids
    clubs = {event.club_id for event in saved}
    endpoints: dict[int, list[WebhookEndpoint]] = {club: [] for club in clubs}
    if clubs & clubs_with_endpoints():
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
    updated_at: Any = None  # the deal's as the API shows it, when not its own
    deals: int = 0  # an ended match's deals


_batch: ContextVar[list[_Change] | None] = ContextVar("events_batch", default=None)
_shown_deals: ContextVar[dict[int, Any] | None] = ContextVar("deals_shown", default=None)


@contextmanager
def deals_shown() -> Iterator[dict[int, Any]]:
    """The deals the events written in this block showed (recorded or corrected), by deal
    id, as JSON carries them: a write's answer is the deal as its event shows it, rendered
    once (``DealSerializer``, with the table's entries read once)."""
    shown: dict[int, Any] = {}
    token = _shown_deals.set(shown)
    try:
        yield shown
    finally:
        _shown_deals.reset(token)


def on_changes_batched(*, phase: str, **signal) -> None:
    """``matches.signals.changes_batched``: collect from the start, write at the end."""
    if phase == "start":
        _batch.set([])
        return
    changes = _batch.get()
    _batch.set(None)
    if phase == "end" and changes:
        events_record(_shown(changes, batched=True))


def _collect(change: _Change) -> None:
    batch = _batch.get()
    if batch is not None:
        batch.append(change)
    else:
        events_record(_shown([change], batched=False))


def _shown(changes: list[_Change], *, batched: bool) -> list[Event]:
    """The events of these changes, each object shown as the API shows it: the deals' table
    entries read in one query, the ended matches (with their pending entries) in one; outside
    a batch each ended match is the service's, just saved, with its table and session, and
    only its pending entries are read. A deal just recorded outside a batch has no entry to
    read: the table's entries become deals in a batch (``season_changes_batched``), linked
    before its end; so an API's recorded deal reads none (one query fewer on every deal)."""
    from api.serializers.deals import DealSerializer
    from api.serializers.matches import MatchSerializer
    from clubs.models import Club
    from matches.selectors import matches_counted
    from nights.table_selectors import deal_confirmations, pending_prefetch

    scored = sorted(
        {
            change.match.pk
            for change in changes
            if change.row is not None and (batched or change.type != EventType.DEAL_RECORDED)
        }
    )
    entries: dict[int, dict] = deal_confirmations(match_ids=scored) if scored else {}
    ended = [change for change in changes if change.type in MATCH_EVENTS.values()]
    matches = {change.match.pk: change.match for change in ended}
    if batched and ended:  # the batch's later writes may have changed them: read afresh
        clubs = Club.objects.filter(pk__in={change.club_id for change in ended})
        matches = {
            match.pk: match
            for match in matches_counted(clubs=clubs)
            .filter(pk__in=matches)
            .prefetch_related(pending_prefetch())
        }
    elif ended:  # each the service's, just saved, its deals counted as the list counts them
        for change in ended:
            change.match.deal_count = change.deals
        prefetch_related_objects(list(matches.values()), pending_prefetch())
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
                "entries": entries.get(match.pk, {}),
                "updated": {change.deal.sequence: change.updated_at or change.deal.updated_at},
            }
            data = DealSerializer(change.row, context=context).data
        plain = _plain(data)
        shown = _shown_deals.get()
        if shown is not None and change.row is not None and change.deal is not None:
            shown.setdefault(change.deal.pk, plain)  # the deal itself, before those re-scored
        events.append(Event(club_id=change.club_id, type=change.type, data=plain))
    return events


def on_deal_changed(*, action, match, club_id, deal, row, updated_at=None, **signal) -> None:
    """``matches.signals.deal_changed``: the deal as ``GET /matches/{id}/deals/{n}/`` shows
    it; a deleted deal as it was entered (its match, sequence and result). A later deal that
    a correction re-scored is a ``deal.corrected`` too."""
    _collect(
        _Change(
            type=DEAL_EVENTS[action],
            club_id=club_id,
            match=match,
            deal=deal,
            row=row,
            updated_at=updated_at,
        )
    )


def on_match_ended(*, action, match, club_id, deals, **signal) -> None:
    """``matches.signals.match_ended``: the match as ``GET /matches/{id}/`` shows it (the
    service's match, its table and session read with it: not read again)."""
    _collect(_Change(type=MATCH_EVENTS[action], club_id=club_id, match=match, deals=deals))


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

    plan = night_plan(night=night, ahead=1)
    shown = next(known for known in plan.rounds if known.number == round.number)
    data = {"night": night.pk, **NightRoundSerializer(shown).data}
    event_record(club_id=club_id, type=EventType.NIGHT_ROUND_STARTED, data=data)
