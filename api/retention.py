"""How long events are kept (issue 32): ``EVENTS_KEEP_DAYS`` (30 by default), then pruned
with their deliveries by beat's daily ``api.prune_events``. A deal leaves about 1.3 KB of
events: kept forever, a federation's year would be some 25 GB.

The newest event pruned is remembered (``EventsPruned``): a client whose cursor
(``GET /api/v1/events/?since=<id>``) is older than that has missed events it can no longer be
shown, and is told so (410, ``events_gone``) with the cursor to resume from once it has read
the current data again; ``since=0`` (a new client) lists what is kept.
"""

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.db.models import Min
from django.utils import timezone

from api.models import Delivery, Event, EventsPruned

logger = logging.getLogger(__name__)

BATCH = 5000
"""Events deleted per transaction: a short lock each, whatever the backlog."""


def events_gone_before() -> int:
    """The newest event id pruned (0 if none was): a cursor older than it missed events."""
    return EventsPruned.objects.filter(pk=1).values_list("last_event", flat=True).first() or 0


def events_prune(*, before: datetime) -> int:
    """Delete the events made before ``before``, and their deliveries, ``BATCH`` at a time,
    each batch with the mark of the newest pruned in its transaction. Returns how many."""
    pruned = 0
    while True:
        with transaction.atomic():
            ids = list(
                Event.objects.filter(created_at__lt=before)
                .order_by("id")
                .values_list("id", flat=True)[:BATCH]
            )
            if not ids:
                return pruned
            Delivery.objects.filter(event_id__in=ids).delete()
            Event.objects.filter(id__in=ids).delete()
            mark, _created = EventsPruned.objects.select_for_update().get_or_create(pk=1)
            mark.last_event = max(mark.last_event, ids[-1])
            mark.pruned_at = timezone.now()
            mark.save()
            pruned += len(ids)


@shared_task(name="api.prune_events", acks_late=True, soft_time_limit=30 * 60, time_limit=35 * 60)
def prune_events() -> int:
    """Beat's daily pruning of the events older than ``EVENTS_KEEP_DAYS``."""
    before = timezone.now() - timedelta(days=settings.EVENTS_KEEP_DAYS)
    pruned = events_prune(before=before)
    oldest = Event.objects.aggregate(oldest=Min("id"))["oldest"]
    logger.info("events pruned: %s (made before %s; oldest kept %s)", pruned, before, oldest)
    return pruned
