"""Writes of the API's own records: webhook endpoints and their deliveries (``api.webhooks``
sends them). Errors are ``ValidationError`` keyed by field."""

from collections.abc import Sequence
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from api import webhooks
from api.events import events_record
from api.models import WEBHOOK_EVENT_TYPES, Delivery, Event, EventType, WebhookEndpoint
from api.tasks import deliveries_enqueue_on_commit
from clubs.models import Club

LOOPBACK_HOSTS = {"127.0.0.1", "::1", "localhost"}


def webhook_url_checked(url: object) -> str:
    """The address, trimmed, or a ValidationError on ``url`` (the admin's form checks too):
    https, and a literal IP address only if it is public (a name is checked when sending)."""
    if not isinstance(url, str) or not url.strip():
        raise ValidationError({"url": [_("Give the address that receives the events.")]})
    url = url.strip()
    parts = urlsplit(url)
    if len(url) > 500 or not parts.hostname or parts.username or parts.password:
        raise ValidationError({"url": [_("Give a full https:// address, without a password.")]})
    address = webhooks.literal_address(parts.hostname)
    loopback_ok = (
        settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK and address is not None and address.is_loopback
    )
    if address is not None and not webhooks.address_public(address) and not loopback_ok:
        raise ValidationError(
            {"url": [_("This address is not public; give one that the internet reaches.")]}
        )
    if parts.scheme == "https":
        return url
    if (
        parts.scheme == "http"
        and settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK
        and parts.hostname in LOOPBACK_HOSTS
    ):
        return url
    raise ValidationError({"url": [_("Only https:// addresses are allowed.")]})


def webhook_events_checked(events: object) -> list[str]:
    """The event types chosen, in their known order, or a ValidationError on ``events``."""
    if not isinstance(events, (list, tuple)) or not events:
        raise ValidationError({"events": [_("Choose at least one event.")]})
    known = [value for value, _label in WEBHOOK_EVENT_TYPES]
    unknown = [event for event in events if event not in known]
    if unknown:
        raise ValidationError(
            {
                "events": [
                    _("Unknown event %(event)s; choose among %(events)s.")
                    % {"event": unknown[0], "events": ", ".join(known)}
                ]
            }
        )
    return [event for event in known if event in events]  # known order, no repeats


@transaction.atomic
def webhook_create(
    *, club: Club, url: str, events: Sequence[str], actor: Any = None
) -> WebhookEndpoint:
    """Register an endpoint for some of the club's events; its signing secret is made here."""
    return WebhookEndpoint.objects.create(
        club=club,
        url=webhook_url_checked(url),
        events=webhook_events_checked(events),
        secret=webhooks.new_secret(),
        created_by=actor if getattr(actor, "pk", None) else None,
    )


@transaction.atomic
def webhook_update(
    *,
    endpoint: WebhookEndpoint,
    url: str | None = None,
    events: Sequence[str] | None = None,
    active: bool | None = None,
) -> WebhookEndpoint:
    """Change the address or the events, or disable or enable the endpoint (enabling sends
    its undelivered deliveries again, and the events of its types since it was disabled)."""
    fields = []
    if url is not None:
        endpoint.url = webhook_url_checked(url)
        fields.append("url")
    if events is not None:
        endpoint.events = webhook_events_checked(events)
        fields.append("events")
    if fields:
        endpoint.save(update_fields=fields)
    if active is True and not endpoint.active:
        webhooks.endpoint_enable(endpoint=endpoint)
        deliveries_enqueue_on_commit(webhooks.deliveries_due(endpoint_id=endpoint.pk))
    elif active is False and endpoint.active:
        webhooks.endpoint_disable(endpoint=endpoint, reason=_("Disabled by a director."))
    return endpoint


# A rotated secret's grace period: 24 h unless asked otherwise, at most a week.
SECRET_GRACE_DEFAULT = timedelta(hours=24)
SECRET_GRACE_MAX = timedelta(days=7)


@transaction.atomic
def webhook_rotate_secret(
    *, endpoint: WebhookEndpoint, grace_period: timedelta = SECRET_GRACE_DEFAULT
) -> WebhookEndpoint:
    """Give the endpoint a new signing secret; the current one goes on signing (a second
    ``v1=``) for ``grace_period`` (0: it stops at once), while the receiver moves to the new
    one. Rotating again within that period drops the oldest."""
    if not timedelta(0) <= grace_period <= SECRET_GRACE_MAX:
        raise ValidationError(
            {
                "grace_period": [
                    _("Give a grace period of 0 to %(max)d seconds.")
                    % {"max": int(SECRET_GRACE_MAX.total_seconds())}
                ]
            }
        )
    endpoint = WebhookEndpoint.objects.select_for_update().get(pk=endpoint.pk)
    if grace_period:
        endpoint.previous_secret = endpoint.secret
        endpoint.previous_secret_expires_at = timezone.now() + grace_period
    else:
        endpoint.previous_secret = ""
        endpoint.previous_secret_expires_at = None
    endpoint.secret = webhooks.new_secret()
    endpoint.save(update_fields=["secret", "previous_secret", "previous_secret_expires_at"])
    return endpoint


@transaction.atomic
def webhook_test(*, endpoint: WebhookEndpoint) -> Delivery:
    """Send a test event (``ping``) to this endpoint only, even a disabled one; it is in the
    endpoint's delivery log, not in the events list."""
    [event] = events_record(
        [Event(club_id=endpoint.club_id, type=EventType.PING, data={"webhook": endpoint.pk})]
    )
    delivery = webhooks.delivery_new(endpoint=endpoint, event=event)
    delivery.save()
    deliveries_enqueue_on_commit([delivery.pk])
    return delivery


@transaction.atomic
def webhook_delete(*, endpoint: WebhookEndpoint) -> None:
    endpoint.delete()


@transaction.atomic
def delivery_send_again(*, delivery: Delivery) -> Delivery:
    """Send a delivery again now (queued when this commits), with another day of retries."""
    delivery = webhooks.delivery_send_again(delivery=delivery)
    deliveries_enqueue_on_commit([delivery.pk])
    return delivery
