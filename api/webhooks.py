"""Sending webhooks: signing, the address check (SSRF), one attempt, backoff and giving up.

A delivery is a POST of the event as JSON (``event_body``) with the headers
``Partscore-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the endpoint's
secret>`` (and a second ``v1=`` with its previous secret during a rotation's grace period),
``Partscore-Event-Id`` and ``Partscore-Event-Type``. A 2xx answer delivers it;
anything else (or no answer within ``WEBHOOKS_TIMEOUT`` seconds, redirects included) is tried
again after 1, 2, 4 ... minutes (``WEBHOOKS_BACKOFF_SECONDS``, doubled, at most
``WEBHOOKS_BACKOFF_MAX_SECONDS``) until ``WEBHOOKS_RETRY_SECONDS`` (a day) after it was
written; then it gives up, the endpoint is disabled and the club's directors are told by mail.

Only https addresses, and only to public addresses: the host is resolved at delivery time and
an address that is not globally routable (``address_public``: private, loopback, link-local,
shared, reserved, multicast, or an IPv6 form carrying such an IPv4 address) is refused, without
saying which address it was; the connection goes to the address checked (a second lookup cannot
change it). A literal address is checked when the endpoint is registered too. With
``WEBHOOKS_ALLOW_HTTP_LOOPBACK`` (tests, development) http to a loopback address is allowed.
"""

import hashlib
import hmac
import http.client
import ipaddress
import json
import secrets
import socket
import ssl
import time
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from api.models import Delivery, DeliveryStatus, Event, EventType, WebhookEndpoint
from api.shared import forget, shared
from clubs.models import Membership, Role

USER_AGENT = "Partscore-Webhooks/1"


def new_secret() -> str:
    return "whsec_" + secrets.token_hex(24)


ENDPOINT_CLUBS_KEY = "webhooks:clubs"
ENDPOINT_CLUBS_SECONDS = 60


def clubs_with_endpoints() -> frozenset[int]:
    """The clubs that have an active endpoint, or had one a moment ago: kept as one set in the
    shared cache for ``ENDPOINT_CLUBS_SECONDS`` and dropped whenever an endpoint is saved or
    deleted (``forget_endpoint_clubs``), so that an event of a club with none (most) looks
    for no endpoint (bench/deal_cost.py: a fifth of a recorded deal). An endpoint disabled
    without a save (``.update()``) leaves its club in the set: its events only look again."""
    return shared(
        ENDPOINT_CLUBS_KEY,
        ENDPOINT_CLUBS_SECONDS,
        lambda: frozenset(
            WebhookEndpoint.objects.filter(active=True).values_list("club_id", flat=True).distinct()
        ),
    )


def forget_endpoint_clubs(**signal: object) -> None:
    """``post_save`` and ``post_delete`` of an endpoint: the set is read again, at once and
    once the change commits (a reader between the two could have kept the set without it)."""
    forget(ENDPOINT_CLUBS_KEY)
    transaction.on_commit(lambda: forget(ENDPOINT_CLUBS_KEY))


def delivery_new(*, endpoint: WebhookEndpoint, event: Event) -> Delivery:
    now = timezone.now()
    return Delivery(
        endpoint=endpoint,
        event=event,
        next_attempt_at=now,
        retry_until=now + timedelta(seconds=settings.WEBHOOKS_RETRY_SECONDS),
    )


# --- the request -------------------------------------------------------------------------


def event_body(event: Event) -> bytes:
    """What is sent: the event as ``GET /api/v1/events/`` lists it."""
    payload = {
        "id": event.pk,
        "type": event.type,
        "created_at": event.created_at.isoformat().replace("+00:00", "Z"),
        "club": event.club_id,
        "data": event.data,
    }
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False).encode()


def signature(secret: str, timestamp: int, body: bytes, *older: str) -> str:
    """The ``Partscore-Signature`` header's value: ``t=<timestamp>,v1=<hex>``, with one more
    ``v1=`` for each older secret that still signs (during a rotation's grace period)."""
    signed = f"{timestamp}.".encode() + body
    digests = [
        hmac.new(key.encode(), signed, hashlib.sha256).hexdigest() for key in (secret, *older)
    ]
    return f"t={timestamp}," + ",".join(f"v1={digest}" for digest in digests)


def signing_secrets(endpoint: WebhookEndpoint) -> list[str]:
    """The secrets that sign the endpoint's deliveries now: its secret, and the previous one
    until its grace period ends."""
    if endpoint.previous_secret_signs_until is None:
        return [endpoint.secret]
    return [endpoint.secret, endpoint.previous_secret]


class Refused(Exception):
    """The address may not be called; the message says why (kept on the delivery)."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str
    address: str  # the IP address checked, which the connection goes to


IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# IPv4 ranges not globally routable that ``is_global`` (before Python 3.12.4) lets through.
_IPV4_NOT_GLOBAL = [
    ipaddress.ip_network(net)
    for net in ("192.0.0.0/24", "192.88.99.0/24", "198.18.0.0/15", "240.0.0.0/4")
]
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
_NAT64 = ipaddress.ip_network("64:ff9b::/96")  # RFC 6052: the IPv4 address in the last 32 bits
_NAT64_LOCAL = ipaddress.ip_network("64:ff9b:1::/48")  # RFC 8215 (bits 48-63 and 72-87)
_COMPATIBLE = ipaddress.ip_network("::/96")  # deprecated IPv4-compatible (RFC 4291)
_TRANSLATED = ipaddress.ip_network("::ffff:0:0:0/96")  # SIIT IPv4-translated (RFC 2765)


def _embedded_ipv4(ip: ipaddress.IPv6Address) -> list[ipaddress.IPv4Address]:
    """Every IPv4 address an IPv6 address carries: mapped, NAT64 (well-known and local-use),
    IPv4-compatible, IPv4-translated, 6to4 and Teredo (its server and its client)."""
    found = [ip.ipv4_mapped, ip.sixtofour, *(ip.teredo or ())]
    number = int(ip)
    if ip in _NAT64 or ip in _COMPATIBLE or ip in _TRANSLATED:
        found.append(ipaddress.IPv4Address(number & 0xFFFFFFFF))
    if ip in _NAT64_LOCAL:
        high = (number >> 64) & 0xFFFF  # bits 48-63, then the u octet (64-71) is skipped
        low = (number >> 40) & 0xFFFF  # bits 72-87
        found.append(ipaddress.IPv4Address((high << 16) | low))
    return [address for address in found if address is not None]


def _ipv4_public(ip: ipaddress.IPv4Address) -> bool:
    return (
        ip.is_global
        and not ip.is_multicast
        and not ip.is_reserved
        and not any(ip in net for net in _IPV4_NOT_GLOBAL)
    )


def address_public(ip: IPAddress) -> bool:
    """True for an address that is globally routable: an IPv4 one outside every private,
    shared, reserved, documentation and special range; an IPv6 one in global unicast
    (2000::/3, not a special range), or IPv4-mapped or NAT64 (64:ff9b::/96) of a public IPv4
    address. Every IPv4 address embedded in an IPv6 one (6to4, Teredo, ...) must be public
    too; the deprecated forms (IPv4-compatible, IPv4-translated, site-local) never are."""
    if isinstance(ip, ipaddress.IPv4Address):
        return _ipv4_public(ip)
    ip = ipaddress.IPv6Address(int(ip))  # without a zone (%eth0)
    embedded = _embedded_ipv4(ip)
    if not all(_ipv4_public(address) for address in embedded):
        return False
    if ip.ipv4_mapped is not None or ip in _NAT64:
        return True  # the IPv4 address it stands for, checked above
    return ip in _GLOBAL_UNICAST and ip.is_global and not ip.is_multicast


def literal_address(host: str) -> IPAddress | None:
    """The address that a URL's host names literally (``[::1]``, ``10.0.0.5``, and the forms
    a resolver reads as IPv4 too: ``0x7f.1``, ``2130706433``), else None (a name)."""
    try:
        return ipaddress.ip_address(host)
    except ValueError:
        pass
    try:
        return ipaddress.IPv4Address(socket.inet_aton(host))
    except (OSError, UnicodeError, ValueError):
        return None


def resolve(url: str) -> Target:
    """The address to call for ``url``, or ``Refused``."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    loopback_ok = settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK
    if scheme not in ("https", "http") or not parts.hostname:
        raise Refused(_("Only https:// addresses are allowed."))
    try:
        port = parts.port or (443 if scheme == "https" else 80)
    except ValueError:
        raise Refused(_("The address's port is not valid.")) from None
    try:
        infos = socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise Refused(_("The host name does not resolve: %(error)s") % {"error": error}) from None
    addresses = [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]
    for ip in addresses:
        if loopback_ok and ip.is_loopback:
            continue
        if not address_public(ip):
            # Without the address: the log would tell any director what an internal name
            # resolves to.
            raise Refused(
                _("The host resolves to an address that is not public; it is not called.")
            )
    if scheme == "http" and not (loopback_ok and all(ip.is_loopback for ip in addresses)):
        raise Refused(_("Only https:// addresses are allowed."))
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    return Target(scheme, parts.hostname, port, path, str(addresses[0]))


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float):
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self):
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float):
        super().__init__(
            target.host, target.port, timeout=timeout, context=ssl.create_default_context()
        )
        self._address = target.address

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str]) -> int:
    """POST ``body`` to ``url`` (checked by ``resolve``); the answer's status code. Raises
    ``Refused`` or ``OSError`` (no connection, timeout, TLS)."""
    target = resolve(url)
    timeout = settings.WEBHOOKS_TIMEOUT
    connection_class = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = connection_class(target, timeout)
    try:
        connection.request("POST", target.path, body=body, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)
        return response.status
    except http.client.HTTPException as error:
        raise OSError(str(error) or type(error).__name__) from None
    finally:
        connection.close()


# --- one attempt ---------------------------------------------------------------------------


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed attempt: 1, 2, 4 ... minutes, capped."""
    first = settings.WEBHOOKS_BACKOFF_SECONDS
    seconds = min(first * 2 ** max(attempts - 1, 0), settings.WEBHOOKS_BACKOFF_MAX_SECONDS)
    return timedelta(seconds=seconds)


# A delivery is sent while its endpoint is active; a test event also to a disabled one (to
# try the receiver before enabling it).
SENDABLE = Q(endpoint__active=True) | Q(event__type=EventType.PING)


def delivery_claim(delivery_id: int) -> bool:
    """Take a due delivery for one attempt: its next attempt moves ``WEBHOOKS_LEASE_SECONDS``
    ahead, so no other worker sends it meanwhile, and a worker that dies while sending leaves
    it due again after that (the sweep sends it)."""
    now = timezone.now()
    lease = now + timedelta(seconds=settings.WEBHOOKS_LEASE_SECONDS)
    return bool(
        Delivery.objects.filter(
            pk=delivery_id,
            status__in=[DeliveryStatus.PENDING, DeliveryStatus.FAILED],
            next_attempt_at__lte=now,
        )
        .filter(SENDABLE)
        .update(next_attempt_at=lease)
    )


def delivery_attempt(delivery_id: int) -> str | None:
    """Send a due delivery once and record the outcome; returns its new status (None when it
    was not due: sent already, being sent, or its endpoint disabled)."""
    if not delivery_claim(delivery_id):
        return None
    delivery = Delivery.objects.select_related("endpoint", "event").get(pk=delivery_id)
    endpoint, event = delivery.endpoint, delivery.event
    body = event_body(event)
    timestamp = int(time.time())
    current, *older = signing_secrets(endpoint)
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "Partscore-Event-Id": str(event.pk),
        "Partscore-Event-Type": event.type,
        "Partscore-Delivery-Id": str(delivery.pk),
        "Partscore-Signature": signature(current, timestamp, body, *older),
    }
    code, error = None, ""
    try:
        code = post(endpoint.url, body, headers)
    except Refused as refusal:
        error = str(refusal)
    except OSError as failure:
        error = f"{type(failure).__name__}: {failure}" if str(failure) else type(failure).__name__
    if code is not None and not 200 <= code < 300:
        error = _("The endpoint answered %(code)s.") % {"code": code}
    return delivery_outcome(delivery, code=code, error=error)


def delivery_outcome(delivery: Delivery, *, code: int | None, error: str) -> str:
    """Record an attempt's outcome: delivered, to be tried again, or given up (the endpoint
    disabled and its club's directors told)."""
    now = timezone.now()
    attempts = delivery.attempts + 1
    fields = {"attempts": attempts, "last_attempt_at": now, "last_status_code": code}
    if not error:
        status = DeliveryStatus.SUCCEEDED
        fields |= {"status": status, "next_attempt_at": None, "last_error": ""}
    elif now + backoff(attempts) > delivery.retry_until:
        status = DeliveryStatus.GAVE_UP
        fields |= {"status": status, "next_attempt_at": None, "last_error": error[:500]}
    else:
        status = DeliveryStatus.FAILED
        fields |= {
            "status": status,
            "next_attempt_at": now + backoff(attempts),
            "last_error": error[:500],
        }
    Delivery.objects.filter(pk=delivery.pk).update(**fields)
    if status == DeliveryStatus.GAVE_UP:
        endpoint_give_up(endpoint=delivery.endpoint, error=error, since=delivery.created_at)
    return status


def endpoint_give_up(*, endpoint: WebhookEndpoint, error: str, since: datetime) -> None:
    """Disable the endpoint (once) and mail the club's directors."""
    with translation.override(settings.LANGUAGE_CODE):
        reason = _("Disabled after a day of failed deliveries: %(error)s") % {"error": error}
        with transaction.atomic():
            disabled = WebhookEndpoint.objects.filter(pk=endpoint.pk, active=True).update(
                active=False, disabled_reason=reason[:300], disabled_at=timezone.now()
            )
        if not disabled:
            return  # another delivery gave up first and told them
        recipients = sorted(
            {
                email
                for email in Membership.objects.filter(
                    club_id=endpoint.club_id, role=Role.DIRECTOR, player__user__isnull=False
                ).values_list("player__user__email", flat=True)
                if email
            }
        )
        if not recipients:
            return
        subject = _("Partscore: webhook endpoint disabled")
        message = _(
            "Partscore could not deliver events to %(url)s since %(since)s, so this endpoint "
            "is now disabled.\n\nLast error: %(error)s\n\nOnce the receiver works again, "
            "enable the endpoint in the admin or through the API and send the failed "
            "deliveries again."
        ) % {"url": endpoint.url, "since": since.isoformat(timespec="minutes"), "error": error}
        send_mail(subject, message, None, recipients, fail_silently=True)


def delivery_send_again(*, delivery: Delivery) -> Delivery:
    """Make a delivery due now (whatever its status), with another day of retries."""
    now = timezone.now()
    delivery.status = DeliveryStatus.PENDING
    delivery.next_attempt_at = now
    delivery.retry_until = now + timedelta(seconds=settings.WEBHOOKS_RETRY_SECONDS)
    delivery.save(update_fields=["status", "next_attempt_at", "retry_until"])
    return delivery


# An event written while an endpoint was being disabled may have looked for endpoints just
# after the disable committed, with a time stamp just before it: caught up too.
CATCH_UP_MARGIN = timedelta(minutes=1)


def endpoint_disable(*, endpoint: WebhookEndpoint, reason: str) -> WebhookEndpoint:
    """Stop sending to an endpoint; enabling it again sends what happened meanwhile."""
    endpoint.active = False
    endpoint.disabled_reason = reason[:300]
    endpoint.disabled_at = timezone.now()
    endpoint.save(update_fields=["active", "disabled_reason", "disabled_at"])
    return endpoint


def endpoint_enable(*, endpoint: WebhookEndpoint) -> WebhookEndpoint:
    """Enable an endpoint again; its deliveries not yet delivered are due at once, each with
    another day of retries (those given up are sent again too), and so is each event of its
    types written while it was disabled (``deliveries_catch_up``)."""
    now = timezone.now()
    disabled_at = endpoint.disabled_at
    endpoint.active = True
    endpoint.disabled_reason = ""
    endpoint.disabled_at = None
    endpoint.save(update_fields=["active", "disabled_reason", "disabled_at"])
    endpoint.deliveries.exclude(status=DeliveryStatus.SUCCEEDED).update(
        status=DeliveryStatus.PENDING,
        next_attempt_at=now,
        retry_until=now + timedelta(seconds=settings.WEBHOOKS_RETRY_SECONDS),
    )
    deliveries_catch_up(endpoint=endpoint, since=disabled_at)
    return endpoint


def deliveries_catch_up(*, endpoint: WebhookEndpoint, since: datetime | None) -> list[Delivery]:
    """Deliveries, due now, of the club's events of the endpoint's types written since
    ``since`` (when it was disabled) that it has none of: the newest
    ``WEBHOOKS_CATCH_UP_MAX``, of the last ``WEBHOOKS_CATCH_UP_SECONDS`` at most (older ones
    are in the events list), oldest first."""
    now = timezone.now()
    start = max(
        (since or now) - CATCH_UP_MARGIN,
        endpoint.created_at,
        now - timedelta(seconds=settings.WEBHOOKS_CATCH_UP_SECONDS),
    )
    missed = (
        Event.objects.filter(
            club_id=endpoint.club_id, type__in=endpoint.events, created_at__gte=start
        )
        .exclude(deliveries__endpoint=endpoint)
        .order_by("-id")[: settings.WEBHOOKS_CATCH_UP_MAX]
    )
    deliveries = [delivery_new(endpoint=endpoint, event=event) for event in reversed(missed)]
    return Delivery.objects.bulk_create(deliveries)


def deliveries_due(*, endpoint_id: int | None = None, limit: int = 1000) -> list[int]:
    """The ids of deliveries due now (of one endpoint, or all), the longest waiting first."""
    due = Delivery.objects.filter(
        status__in=[DeliveryStatus.PENDING, DeliveryStatus.FAILED],
        next_attempt_at__lte=timezone.now(),
    ).filter(SENDABLE)
    if endpoint_id is not None:
        due = due.filter(endpoint_id=endpoint_id)
    return list(due.order_by("next_attempt_at", "id").values_list("pk", flat=True)[:limit])
