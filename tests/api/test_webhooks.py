"""Webhooks (issue 20): endpoints through the API, signing (checked by the documented snippet),
the address check (SSRF), one attempt against a local receiver, backoff, giving up, send
again."""

import ipaddress
import json
import re
import socket
import threading
import time
from datetime import datetime, timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.core import mail
from django.utils import timezone

from api import webhooks
from api.models import WEBHOOK_EVENT_TYPES, Delivery, DeliveryStatus, Event, WebhookEndpoint
from api.tasks import deliver_due
from matches import services as match_services
from scoring.engine import PassedOut, Played

ROOT = Path(__file__).resolve().parents[2]
WEBHOOKS = "/api/v1/webhooks/"


def documented_verify():
    """The verifying snippet of docs/api/webhooks.md, as a receiver would copy it."""
    text = (ROOT / "docs" / "api" / "webhooks.md").read_text()
    block = re.search(r"^# Events and webhooks\n.*?```python\n(.*?)```", text, re.S | re.M)
    assert block, "docs/api/webhooks.md has no python block under 'Events and webhooks'"
    namespace: dict = {}
    exec(block.group(1), namespace)
    return namespace["verify"]


# --- signing -------------------------------------------------------------------------------


def test_a_signature_verifies_with_the_readme_snippet_and_nothing_else_does():
    verify = documented_verify()
    body = b'{"id":1,"type":"deal.recorded"}'
    now = int(time.time())
    header = webhooks.signature("whsec_x", now, body)
    assert re.fullmatch(r"t=\d+,v1=[0-9a-f]{64}", header)
    assert verify("whsec_x", header, body)
    assert not verify("whsec_y", header, body)
    assert not verify("whsec_x", header, body + b" ")
    assert not verify("whsec_x", webhooks.signature("whsec_x", now - 600, body), body)
    assert not verify("whsec_x", "garbage", body)


# --- the address check ---------------------------------------------------------------------


@pytest.fixture
def resolves_to(monkeypatch):
    """Make every host name resolve to the given addresses."""

    def set_addresses(*addresses):
        def getaddrinfo(host, port, *args, **kwargs):
            return [
                (
                    socket.AF_INET6 if ":" in a else socket.AF_INET,
                    socket.SOCK_STREAM,
                    6,
                    "",
                    (a, port),
                )
                for a in addresses
            ]

        monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)

    return set_addresses


@pytest.mark.parametrize(
    "address",
    [
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "127.0.0.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "::1",
        "fc00::1",
        "fe80::1",
        "::ffff:10.0.0.1",
    ],
)
def test_private_loopback_and_link_local_addresses_are_refused(settings, resolves_to, address):
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = False
    resolves_to(address)
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("https://hooks.example/in")


# IPv6 forms that carry a private IPv4 address (or are not global themselves), and IPv4
# ranges that are not globally routable: refused at creation (a literal address) and when
# sending (a name that resolves to one).
NOT_PUBLIC = [
    "64:ff9b::a9fe:a9fe",  # NAT64 of 169.254.169.254
    "64:ff9b::a00:5",  # NAT64 of 10.0.0.5
    "64:ff9b:1::a00:5",  # local-use NAT64 (RFC 8215)
    "::a9fe:a9fe",  # IPv4-compatible 169.254.169.254
    "::7f00:1",  # IPv4-compatible 127.0.0.1
    "::5db8:d822",  # IPv4-compatible, even of a public address (deprecated, not routed)
    "::ffff:0:7f00:1",  # SIIT IPv4-translated 127.0.0.1
    "::ffff:7f00:1",  # IPv4-mapped 127.0.0.1
    "2002:7f00:1::",  # 6to4 of 127.0.0.1
    "2002:a00:5::1",  # 6to4 of 10.0.0.5
    "fec0::1",  # deprecated site-local
    "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
    "2001:db8::1",  # documentation
    "ff02::1",  # multicast
    "::",
    "192.88.99.1",  # 6to4 relay anycast
    "192.0.0.8",  # IETF protocol assignments
    "198.18.0.1",  # benchmarking
    "240.0.0.1",  # reserved
    "255.255.255.255",
]
PUBLIC = ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946", "64:ff9b::5db8:d822"]


@pytest.mark.parametrize("address", NOT_PUBLIC)
def test_embedded_ipv4_and_other_non_global_forms_are_refused_when_sending(
    settings, resolves_to, address
):
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = True  # allows loopback, and nothing else
    resolves_to(address)
    with pytest.raises(webhooks.Refused) as refused:
        webhooks.resolve("https://hooks.example/in")
    # The log tells no one what an internal name resolves to.
    assert address not in str(refused.value)
    assert str(ipaddress.ip_address(address)) not in str(refused.value)
    assert "not public" in str(refused.value)


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_address_in_any_form_is_called(settings, resolves_to, address):
    resolves_to(address)
    assert webhooks.resolve("https://hooks.example/in").address == address


def test_the_delivery_log_does_not_tell_what_a_refused_name_resolves_to(
    world, settings, resolves_to
):
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = False
    resolves_to("10.0.0.5")
    delivery = a_delivery(world, an_endpoint(world, "https://intranet.example/hook"))
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.FAILED
    delivery.refresh_from_db()
    assert "10.0.0.5" not in delivery.last_error
    assert delivery.last_error == (
        "The host resolves to an address that is not public; it is not called."
    )


def literal(address: str) -> str:
    return f"https://[{address}]/in" if ":" in address else f"https://{address}/in"


@pytest.mark.parametrize("address", [*NOT_PUBLIC, "10.0.0.5", "127.0.0.1", "::1", "0x7f.1"])
def test_a_literal_address_that_is_not_public_is_a_400_at_creation(world, director_a, address):
    body = {"club": world.a.club.pk, "url": literal(address), "events": ["deal.recorded"]}
    response = director_a.post(WEBHOOKS, body, format="json")
    assert response.status_code == 400, response.json()
    assert list(response.json()["errors"]) == ["url"]
    assert "not public" in response.json()["errors"]["url"][0]
    endpoint = an_endpoint(world, "https://hooks.example/in")
    changed = director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"url": literal(address)})
    assert changed.status_code == 400, changed.json()
    assert list(changed.json()["errors"]) == ["url"]


@pytest.mark.parametrize("address", PUBLIC)
def test_a_public_literal_address_is_accepted_at_creation(world, director_a, address):
    body = {"club": world.a.club.pk, "url": literal(address), "events": ["deal.recorded"]}
    assert director_a.post(WEBHOOKS, body, format="json").status_code == 201


def test_a_name_with_one_private_address_among_public_ones_is_refused(settings, resolves_to):
    resolves_to("93.184.216.34", "10.0.0.1")
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("https://hooks.example/in")


def test_a_public_https_address_is_called_at_the_address_checked(settings, resolves_to):
    resolves_to("93.184.216.34")
    target = webhooks.resolve("https://hooks.example:8443/in?x=1")
    assert (target.scheme, target.host, target.port, target.path, target.address) == (
        "https",
        "hooks.example",
        8443,
        "/in?x=1",
        "93.184.216.34",
    )


def test_http_is_refused_except_to_loopback_when_the_setting_allows_it(settings, resolves_to):
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = True
    resolves_to("93.184.216.34")
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("http://hooks.example/in")
    resolves_to("127.0.0.1")
    assert webhooks.resolve("http://localhost:9/in").address == "127.0.0.1"
    resolves_to("::1")
    assert webhooks.resolve("http://localhost:9/in").address == "::1"
    resolves_to("10.0.0.1")  # the setting allows loopback, nothing else
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("http://hooks.example/in")
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = False
    resolves_to("127.0.0.1")
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("http://localhost:9/in")
    with pytest.raises(webhooks.Refused):
        webhooks.resolve("ftp://hooks.example/in")


# --- backoff -------------------------------------------------------------------------------


def test_the_backoff_doubles_from_a_minute_up_to_an_hour(settings):
    settings.WEBHOOKS_BACKOFF_SECONDS = 60
    settings.WEBHOOKS_BACKOFF_MAX_SECONDS = 3600
    waits = [webhooks.backoff(n).total_seconds() for n in range(1, 10)]
    assert waits == [60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]


# --- a local receiver ----------------------------------------------------------------------


class Receiver:
    """An HTTP server on 127.0.0.1 answering each POST with the next of ``codes`` (then 200)
    and keeping what it received."""

    def __init__(self, codes=()):
        self.codes = list(codes)
        self.received: list[tuple[dict, bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((dict(self.headers), body))
                code = receiver.codes.pop(0) if receiver.codes else 200
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hook"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver(settings):
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = True
    made = []

    def make(codes=()):
        made.append(Receiver(codes))
        return made[-1]

    yield make
    for server in made:
        server.close()


def an_endpoint(world, url, events=("deal.recorded",)):
    return WebhookEndpoint.objects.create(
        club=world.a.club, url=url, events=list(events), secret=webhooks.new_secret()
    )


def a_delivery(world, endpoint) -> Delivery:
    match_services.deal_record(match=world.a.match, result=Played("2H", "E", 8))
    return Delivery.objects.get(endpoint=endpoint)


def test_a_delivery_is_posted_signed_and_marked_delivered(world, receiver):
    server = receiver()
    endpoint = an_endpoint(world, server.url)
    delivery = a_delivery(world, endpoint)
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.SUCCEEDED
    [(headers, body)] = server.received
    event = delivery.event
    assert headers["Partscore-Event-Id"] == str(event.pk)
    assert headers["Partscore-Event-Type"] == "deal.recorded"
    assert documented_verify()(endpoint.secret, headers["Partscore-Signature"], body)
    sent = json.loads(body)
    assert sent == {
        "id": event.pk,
        "type": "deal.recorded",
        "created_at": sent["created_at"],
        "club": world.a.club.pk,
        "data": event.data,
    }
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts, delivery.last_status_code) == ("succeeded", 1, 200)
    assert delivery.next_attempt_at is None
    # Not due any more: a second message for it sends nothing.
    assert webhooks.delivery_attempt(delivery.pk) is None
    assert len(server.received) == 1


def test_a_failed_attempt_is_tried_again_after_the_backoff(world, receiver, settings):
    settings.WEBHOOKS_BACKOFF_SECONDS = 60
    server = receiver([500])
    delivery = a_delivery(world, an_endpoint(world, server.url))
    before = timezone.now()
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.FAILED
    delivery.refresh_from_db()
    assert delivery.last_status_code == 500
    assert "500" in delivery.last_error
    assert before + timedelta(seconds=59) < delivery.next_attempt_at
    assert delivery.next_attempt_at < timezone.now() + timedelta(seconds=61)
    assert webhooks.delivery_attempt(delivery.pk) is None  # not due yet
    assert deliver_due.apply().get() == []
    Delivery.objects.filter(pk=delivery.pk).update(next_attempt_at=timezone.now())
    assert webhooks.deliveries_due() == [delivery.pk]
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.SUCCEEDED
    delivery.refresh_from_db()
    assert delivery.attempts == 2
    assert len(server.received) == 2
    assert (
        server.received[0][0]["Partscore-Event-Id"] == server.received[1][0]["Partscore-Event-Id"]
    )


def test_a_refused_address_is_a_failed_attempt_naming_why(world, settings):
    settings.WEBHOOKS_ALLOW_HTTP_LOOPBACK = False
    delivery = a_delivery(world, an_endpoint(world, "https://127.0.0.1:9/hook"))
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.FAILED
    delivery.refresh_from_db()
    assert "not public" in delivery.last_error
    assert delivery.last_status_code is None


def test_after_a_day_it_gives_up_disables_the_endpoint_and_mails_the_directors(world, receiver):
    world.a.director.email = "director@alpha.example"
    world.a.director.save()
    server = receiver([500])
    endpoint = an_endpoint(world, server.url)
    delivery = a_delivery(world, endpoint)
    Delivery.objects.filter(pk=delivery.pk).update(retry_until=timezone.now())
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.GAVE_UP
    endpoint.refresh_from_db()
    assert not endpoint.active
    assert "500" in endpoint.disabled_reason
    [message] = mail.outbox
    assert message.to == ["director@alpha.example"]
    assert server.url in message.body
    # A disabled endpoint gets nothing, even when a change chooses it.
    match_services.deal_record(match=world.a.match, result=PassedOut())
    assert Delivery.objects.filter(endpoint=endpoint).count() == 1


# --- the API -------------------------------------------------------------------------------


def test_a_director_registers_reads_changes_and_removes_an_endpoint(world, director_a):
    response = director_a.post(
        WEBHOOKS,
        {
            "club": world.a.club.pk,
            "url": "https://hooks.example/in",
            "events": ["deal.deleted", "deal.recorded"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["events"] == ["deal.recorded", "deal.deleted"]
    assert created["secret"].startswith("whsec_")
    assert created["active"] is True
    url = f"{WEBHOOKS}{created['id']}/"
    # The secret is shown once: in the answer to the creation, never again.
    shown = {key: value for key, value in created.items() if key != "secret"}
    assert director_a.get(url).json() == shown
    assert created["secret"] not in json.dumps(director_a.get(WEBHOOKS).json())
    assert "secret" not in director_a.get(WEBHOOKS).json()["results"][0]
    changed = director_a.patch(url, {"events": ["match.completed"], "active": False})
    assert changed.status_code == 200
    assert "secret" not in changed.json()
    assert changed.json()["events"] == ["match.completed"]
    assert changed.json()["active"] is False
    assert director_a.delete(url).status_code == 204
    assert director_a.get(url).status_code == 404


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"url": "http://hooks.example/in"}, "url"),
        ({"url": "ftp://hooks.example/in"}, "url"),
        ({"url": "https://user:pw@hooks.example/in"}, "url"),
        ({"events": []}, "events"),
        ({"events": ["deal.eaten"]}, "events"),
        ({"events": "deal.recorded"}, "events"),
        ({"secret": "mine"}, "secret"),
        ({"club": 999999}, "club"),
    ],
)
def test_a_bad_field_is_a_400_naming_it(world, director_a, changes, field):
    body = {"club": world.a.club.pk, "url": "https://hooks.example/in", "events": ["deal.recorded"]}
    response = director_a.post(WEBHOOKS, {**body, **changes}, format="json")
    assert response.status_code == 400, response.json()
    assert [name.split(".")[0] for name in response.json()["errors"]] == [field]


@pytest.mark.parametrize(
    "role, code",
    [
        ("anonymous", 401),
        ("player_a", 403),
        ("director_b", 400),  # club A is private: to B's director it does not exist
        ("read_key_a", 403),
        ("write_key_a", 201),
        ("director_a", 201),
    ],
)
def test_only_the_clubs_directors_and_write_keys_register(world, role, code):
    body = {"club": world.a.club.pk, "url": "https://hooks.example/in", "events": ["deal.recorded"]}
    response = world.client(role).post(WEBHOOKS, body, format="json")
    assert response.status_code == code, response.json()


@pytest.mark.parametrize(
    "role, sees",
    [
        ("director_a", True),
        ("write_key_a", True),
        ("read_key_a", False),
        ("player_a", False),
        ("director_b", False),
    ],
)
def test_only_directors_and_write_keys_read_endpoints_and_their_secrets(world, role, sees):
    endpoint = an_endpoint(world, "https://hooks.example/in")
    client = world.client(role)
    listed = client.get(WEBHOOKS).json()["results"]
    assert [item["id"] for item in listed] == ([endpoint.pk] if sees else [])
    assert client.get(f"{WEBHOOKS}{endpoint.pk}/").status_code == (200 if sees else 404)
    assert client.get(f"{WEBHOOKS}{endpoint.pk}/deliveries/").status_code == (200 if sees else 404)


def test_the_delivery_log_and_send_again(
    world, director_a, receiver, django_capture_on_commit_callbacks
):
    server = receiver([500])
    endpoint = an_endpoint(world, server.url)
    delivery = a_delivery(world, endpoint)
    webhooks.delivery_attempt(delivery.pk)
    log = director_a.get(f"{WEBHOOKS}{endpoint.pk}/deliveries/").json()["results"]
    assert [(d["id"], d["status"], d["attempts"], d["last_status_code"]) for d in log] == [
        (delivery.pk, "failed", 1, 500)
    ]
    assert log[0]["event"] == delivery.event_id
    assert log[0]["event_type"] == "deal.recorded"
    path = f"{WEBHOOKS}{endpoint.pk}/deliveries/{delivery.pk}/send-again/"
    assert world.client("read_key_a").post(path).status_code == 403
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = director_a.post(path)
    assert response.status_code == 202
    assert response.json()["status"] == "pending"
    assert len(queued) == 1  # the delivery's task, queued once this commits
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.SUCCEEDED
    assert (
        director_a.post(f"{WEBHOOKS}{endpoint.pk}/deliveries/999999/send-again/").status_code == 404
    )
    other = an_endpoint(world, server.url)
    assert (
        director_a.post(f"{WEBHOOKS}{other.pk}/deliveries/{delivery.pk}/send-again/").status_code
        == 404
    )


def test_enabling_a_disabled_endpoint_makes_what_it_missed_due(world, director_a, receiver):
    server = receiver([500])
    endpoint = an_endpoint(world, server.url)
    delivery = a_delivery(world, endpoint)
    Delivery.objects.filter(pk=delivery.pk).update(retry_until=timezone.now())
    webhooks.delivery_attempt(delivery.pk)
    endpoint.refresh_from_db()
    assert not endpoint.active
    response = director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"active": True})
    assert response.status_code == 200
    assert response.json()["disabled_reason"] == ""
    assert webhooks.deliveries_due() == [delivery.pk]
    assert webhooks.delivery_attempt(delivery.pk) == DeliveryStatus.SUCCEEDED


def deals_recorded(world, count):
    for _ in range(count):
        match_services.deal_record(match=world.a.match, result=PassedOut())


def test_enabling_an_endpoint_a_director_disabled_sends_what_happened_meanwhile(
    world, director_a, receiver
):
    server = receiver()
    endpoint = an_endpoint(world, server.url)
    url = f"{WEBHOOKS}{endpoint.pk}/"
    assert director_a.patch(url, {"active": False}).status_code == 200
    before = Event.objects.order_by("id").last().pk
    deals_recorded(world, 3)
    assert not Delivery.objects.filter(endpoint=endpoint).exists()  # disabled: nothing yet
    missed = list(
        Event.objects.filter(club=world.a.club, type="deal.recorded", pk__gt=before)
        .order_by("id")
        .values_list("pk", flat=True)
    )
    assert len(missed) == 3
    assert director_a.patch(url, {"active": True}).status_code == 200
    due = webhooks.deliveries_due(endpoint_id=endpoint.pk)
    assert [Delivery.objects.get(pk=pk).event_id for pk in due] == missed  # in their order
    for pk in due:
        assert webhooks.delivery_attempt(pk) == DeliveryStatus.SUCCEEDED
    assert [int(headers["Partscore-Event-Id"]) for headers, _ in server.received] == missed
    # Enabled again (and disabled and enabled once more): nothing is sent twice.
    assert director_a.patch(url, {"active": False}).status_code == 200
    assert director_a.patch(url, {"active": True}).status_code == 200
    assert webhooks.deliveries_due(endpoint_id=endpoint.pk) == []
    assert Delivery.objects.filter(endpoint=endpoint).count() == 3


def test_enabling_an_endpoint_disabled_after_a_day_of_failures_sends_what_happened_meanwhile(
    world, director_a, receiver
):
    server = receiver([500])
    endpoint = an_endpoint(world, server.url, events=("deal.recorded", "match.completed"))
    failed = a_delivery(world, endpoint)
    Delivery.objects.filter(pk=failed.pk).update(retry_until=timezone.now())
    assert webhooks.delivery_attempt(failed.pk) == DeliveryStatus.GAVE_UP
    endpoint.refresh_from_db()
    assert not endpoint.active
    deals_recorded(world, 3)
    assert Delivery.objects.filter(endpoint=endpoint).count() == 1
    response = director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"active": True})
    assert response.status_code == 200
    due = webhooks.deliveries_due(endpoint_id=endpoint.pk)
    assert len(due) == 4  # the one it gave up on, and the 3 recorded while disabled
    for pk in due:
        assert webhooks.delivery_attempt(pk) == DeliveryStatus.SUCCEEDED
    sent = [int(headers["Partscore-Event-Id"]) for headers, _ in server.received[1:]]
    expected = Event.objects.filter(
        club=world.a.club, type="deal.recorded", pk__gte=failed.event_id
    ).order_by("id")
    assert sent == list(expected.values_list("pk", flat=True))


def test_what_an_enabled_endpoint_is_sent_is_bounded(world, director_a, receiver, settings):
    settings.WEBHOOKS_CATCH_UP_MAX = 2
    endpoint = an_endpoint(world, receiver().url)
    director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"active": False})
    deals_recorded(world, 3)
    director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"active": True})
    newest = Event.objects.filter(club=world.a.club).order_by("-id")[:2]
    assert sorted(Delivery.objects.filter(endpoint=endpoint).values_list("event", flat=True)) == (
        sorted(event.pk for event in newest)
    )


def test_the_admin_enable_action_sends_what_was_missed(world, receiver):
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    client.force_login(get_user_model().objects.get(username="director_a"))
    endpoint = an_endpoint(world, receiver().url)
    client.post(
        "/admin/api/webhookendpoint/", {"action": "disable", "_selected_action": [endpoint.pk]}
    )
    deals_recorded(world, 2)
    client.post(
        "/admin/api/webhookendpoint/", {"action": "enable", "_selected_action": [endpoint.pk]}
    )
    endpoint.refresh_from_db()
    assert endpoint.active
    assert len(webhooks.deliveries_due(endpoint_id=endpoint.pk)) == 2


# --- secrets: shown once, rotated with a grace period; a test event --------------------------


def test_rotating_a_secret_signs_with_both_during_the_grace_period(world, director_a, receiver):
    server = receiver()
    endpoint = an_endpoint(world, server.url)
    old = endpoint.secret
    verify = documented_verify()
    response = director_a.post(f"{WEBHOOKS}{endpoint.pk}/rotate-secret/", {}, format="json")
    assert response.status_code == 200, response.json()
    rotated = response.json()
    new = rotated["secret"]
    assert new.startswith("whsec_") and new != old
    expires = datetime.fromisoformat(rotated["previous_secret_expires_at"].replace("Z", "+00:00"))
    assert abs(expires - (timezone.now() + timedelta(hours=24))) < timedelta(minutes=1)
    shown = director_a.get(f"{WEBHOOKS}{endpoint.pk}/").json()
    assert "secret" not in shown
    assert shown["previous_secret_expires_at"] == rotated["previous_secret_expires_at"]

    # During the grace period: both sign (v1= twice, the new one first).
    assert webhooks.delivery_attempt(a_delivery(world, endpoint).pk) == DeliveryStatus.SUCCEEDED
    headers, body = server.received[-1]
    header = headers["Partscore-Signature"]
    assert re.fullmatch(r"t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}", header)
    assert verify(new, header, body) and verify(old, header, body)
    assert not verify("whsec_other", header, body)

    # After it: the new one alone.
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        previous_secret_expires_at=timezone.now() - timedelta(seconds=1)
    )
    match_services.deal_record(match=world.a.match, result=PassedOut())
    latest = Delivery.objects.filter(endpoint=endpoint).order_by("-id").first()
    assert webhooks.delivery_attempt(latest.pk) == DeliveryStatus.SUCCEEDED
    headers, body = server.received[-1]
    assert re.fullmatch(r"t=\d+,v1=[0-9a-f]{64}", headers["Partscore-Signature"])
    assert verify(new, headers["Partscore-Signature"], body)
    assert not verify(old, headers["Partscore-Signature"], body)
    assert director_a.get(f"{WEBHOOKS}{endpoint.pk}/").json()["previous_secret_expires_at"] is None


def test_a_rotation_with_no_grace_period_stops_the_old_secret_at_once(world, director_a):
    endpoint = an_endpoint(world, "https://hooks.example/in")
    old = endpoint.secret
    path = f"{WEBHOOKS}{endpoint.pk}/rotate-secret/"
    first = director_a.post(path, {"grace_period": 3600}, format="json").json()
    second = director_a.post(path, {"grace_period": 0}, format="json")
    assert second.status_code == 200
    assert second.json()["previous_secret_expires_at"] is None
    endpoint.refresh_from_db()
    assert webhooks.signing_secrets(endpoint) == [second.json()["secret"]]
    assert old not in (endpoint.secret, endpoint.previous_secret)
    assert first["secret"] != second.json()["secret"]


@pytest.mark.parametrize("grace", [-1, 7 * 24 * 3600 + 1, "soon", None])
def test_a_bad_grace_period_is_a_400_naming_it(world, director_a, grace):
    endpoint = an_endpoint(world, "https://hooks.example/in")
    response = director_a.post(
        f"{WEBHOOKS}{endpoint.pk}/rotate-secret/", {"grace_period": grace}, format="json"
    )
    assert response.status_code == 400, response.json()
    assert list(response.json()["errors"]) == ["grace_period"]
    endpoint.refresh_from_db()
    assert endpoint.previous_secret == ""


@pytest.mark.parametrize(
    "role, code",
    [("director_a", 200), ("write_key_a", 200), ("read_key_a", 403), ("director_b", 404)],
)
def test_only_directors_and_write_keys_rotate_and_test(world, role, code):
    endpoint = an_endpoint(world, "https://hooks.example/in")
    client = world.client(role)
    assert client.post(f"{WEBHOOKS}{endpoint.pk}/rotate-secret/").status_code == code
    tested = client.post(f"{WEBHOOKS}{endpoint.pk}/test/").status_code
    assert tested == (202 if code == 200 else code)


def test_a_rotation_retried_with_its_idempotency_key_answers_the_same_secret(world, director_a):
    endpoint = an_endpoint(world, "https://hooks.example/in")
    path = f"{WEBHOOKS}{endpoint.pk}/rotate-secret/"
    first = director_a.post(path, {}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    again = director_a.post(path, {}, format="json", HTTP_IDEMPOTENCY_KEY="r1")
    assert first.json()["secret"] == again.json()["secret"]
    endpoint.refresh_from_db()
    assert endpoint.secret == first.json()["secret"]


def test_a_test_event_goes_to_that_endpoint_only_and_into_its_log(
    world, director_a, receiver, django_capture_on_commit_callbacks
):
    server = receiver()
    endpoint = an_endpoint(world, server.url)
    other = an_endpoint(world, server.url, events=[value for value, _ in WEBHOOK_EVENT_TYPES])
    events_before = director_a.get("/api/v1/events/?page_size=100").json()["results"]
    with django_capture_on_commit_callbacks(execute=False) as queued:
        response = director_a.post(f"{WEBHOOKS}{endpoint.pk}/test/")
    assert response.status_code == 202, response.json()
    assert response.json()["event_type"] == "ping"
    assert len(queued) == 1  # its delivery's task, queued once this commits
    assert webhooks.delivery_attempt(response.json()["id"]) == DeliveryStatus.SUCCEEDED
    [(headers, body)] = server.received
    sent = json.loads(body)
    assert sent["type"] == "ping" and headers["Partscore-Event-Type"] == "ping"
    assert sent["data"] == {"webhook": endpoint.pk}
    assert sent["club"] == world.a.club.pk
    assert documented_verify()(endpoint.secret, headers["Partscore-Signature"], body)
    log = director_a.get(f"{WEBHOOKS}{endpoint.pk}/deliveries/").json()["results"]
    assert [(d["event_type"], d["status"]) for d in log] == [("ping", "succeeded")]
    assert not Delivery.objects.filter(endpoint=other).exists()
    # Not a change to the club's data: not in the events list.
    assert director_a.get("/api/v1/events/?page_size=100").json()["results"] == events_before
    assert director_a.get("/api/v1/events/?type=ping").status_code == 400


def test_a_disabled_endpoint_gets_a_test_event_and_nothing_else(world, director_a, receiver):
    server = receiver()
    endpoint = an_endpoint(world, server.url)
    director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"active": False})
    response = director_a.post(f"{WEBHOOKS}{endpoint.pk}/test/")
    assert response.status_code == 202
    assert webhooks.deliveries_due(endpoint_id=endpoint.pk) == [response.json()["id"]]
    assert webhooks.delivery_attempt(response.json()["id"]) == DeliveryStatus.SUCCEEDED
    assert json.loads(server.received[0][1])["type"] == "ping"


def test_an_endpoint_cannot_choose_the_test_event(world, director_a):
    body = {"club": world.a.club.pk, "url": "https://hooks.example/in", "events": ["ping"]}
    response = director_a.post(WEBHOOKS, body, format="json")
    assert response.status_code == 400
    assert [name.split(".")[0] for name in response.json()["errors"]] == ["events"]


def test_events_are_written_only_once_per_change(world):
    endpoint = an_endpoint(world, "https://hooks.example/in")
    before = Event.objects.count()
    match_services.deal_record(match=world.a.match, result=PassedOut())
    assert Event.objects.count() == before + 1
    assert Delivery.objects.filter(endpoint=endpoint).count() == 1


def test_an_endpoint_disabled_before_the_migration_catches_up_from_its_last_delivery(
    world, director_a
):
    import importlib

    from django.apps import apps

    endpoint = an_endpoint(world, "https://hooks.example/in")
    last = a_delivery(world, endpoint)
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False, disabled_reason="x")
    deals_recorded(world, 2)
    migration = importlib.import_module("api.migrations.0003_webhook_endpoint_disabled_at")
    migration.disabled_since_last_delivery(apps, None)
    endpoint.refresh_from_db()
    assert endpoint.disabled_at == last.created_at
    assert director_a.patch(f"{WEBHOOKS}{endpoint.pk}/", {"active": True}).status_code == 200
    assert Delivery.objects.filter(endpoint=endpoint).count() == 3


# --- which clubs look for endpoints ---------------------------------------------------------


def test_a_club_with_no_endpoint_looks_for_none_and_a_new_endpoint_is_sent_the_next_event(world):
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.delete(webhooks.ENDPOINT_CLUBS_KEY)
    match_services.deal_record(match=world.a.match, result=PassedOut())  # keeps the set
    assert world.a.club.pk not in cache.get(webhooks.ENDPOINT_CLUBS_KEY)
    with CaptureQueriesContext(connection) as queries:
        match_services.deal_record(match=world.a.match, result=PassedOut())
    assert not [query for query in queries if "api_webhookendpoint" in query["sql"]]

    endpoint = an_endpoint(world, "https://hooks.example/in")  # drops the set
    match_services.deal_record(match=world.a.match, result=PassedOut())
    assert Delivery.objects.filter(endpoint=endpoint).count() == 1
    assert world.a.club.pk in cache.get(webhooks.ENDPOINT_CLUBS_KEY)

    endpoint.delete()
    assert cache.get(webhooks.ENDPOINT_CLUBS_KEY) is None


def test_events_find_their_endpoints_when_the_shared_cache_is_down(world, monkeypatch):
    from django.core.cache import cache

    def down(*args, **kwargs):
        raise ConnectionError("the cache is down")

    endpoint = an_endpoint(world, "https://hooks.example/in")
    monkeypatch.setattr(cache, "get", down)
    monkeypatch.setattr(cache, "set", down)
    monkeypatch.setattr(cache, "delete", down)
    match_services.deal_record(match=world.a.match, result=PassedOut())
    assert Delivery.objects.filter(endpoint=endpoint).count() == 1
    an_endpoint(world, "https://hooks.example/other")  # its save forgets nothing, and fails not
