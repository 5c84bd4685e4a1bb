"""Celery tasks that send webhooks (thin wrappers around ``api.webhooks``).

``deliver`` is queued for each delivery when its event's transaction commits, and again by
``deliver_due`` (beat, every ``WEBHOOKS_SWEEP_SECONDS``) for every delivery that is due: a
retry whose wait is over, a message lost with the broker, or a delivery whose worker died
while sending it (its claim expires after ``WEBHOOKS_LEASE_SECONDS``). An event is so
delivered at least once; the receiver tells repeats apart by ``Partscore-Event-Id``.

Both run on the ``webhooks`` queue (``CELERY_TASK_ROUTES``), consumed by a worker of their own
(the Procfile's ``webhooks``): a receiver that is slow or down holds that worker only, never
the default queue's ladder recalculations.
"""

import logging

from celery import shared_task
from django.db import transaction

from api import webhooks
from api.retention import prune_events  # noqa: F401  (beat's daily api.prune_events)

logger = logging.getLogger(__name__)


@shared_task(
    name="api.deliver_webhook",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=60,
    time_limit=90,
)
def deliver(delivery_id: int) -> str | None:
    status = webhooks.delivery_attempt(delivery_id)
    if status is not None:
        logger.info("webhook delivery %s: %s", delivery_id, status)
    return status


@shared_task(
    name="api.deliver_webhooks_due",
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=60,
    time_limit=90,
)
def deliver_due() -> list[int]:
    ids = webhooks.deliveries_due()
    for pk in ids:
        deliver.delay(pk)
    if ids:
        logger.info("webhook sweep: queued deliveries=%s", ",".join(map(str, ids)))
    return ids


def deliveries_enqueue_on_commit(ids: list[int]) -> None:
    """Queue these deliveries once the current transaction commits (a message lost then is
    queued again by the sweep)."""

    def enqueue() -> None:
        for pk in ids:
            deliver.delay(pk)

    transaction.on_commit(enqueue, robust=True)
