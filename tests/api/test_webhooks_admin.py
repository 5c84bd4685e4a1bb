"""Webhook endpoints in the admin: a director registers one for a club they direct, reads
its secret and the delivery log, sends deliveries again and enables a disabled endpoint."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from api.models import Delivery, DeliveryStatus, WebhookEndpoint
from matches import services as match_services
from scoring.engine import PassedOut


@pytest.fixture
def admin_client(world):
    client = Client()
    client.force_login(get_user_model().objects.get(username="director_a"))
    return client


def test_a_director_registers_an_endpoint_and_reads_its_secret_once(world, admin_client):
    response = admin_client.post(
        "/admin/api/webhookendpoint/add/",
        {
            "club": world.a.club.pk,
            "url": "https://hooks.example/in",
            "events": ["deal.recorded", "match.completed"],
        },
        follow=True,
    )
    assert response.status_code == 200
    endpoint = WebhookEndpoint.objects.get(url="https://hooks.example/in")
    assert endpoint.events == ["deal.recorded", "match.completed"]
    assert endpoint.secret.startswith("whsec_")
    assert endpoint.created_by.username == "director_a"
    assert endpoint.secret in response.content.decode()  # the message after saving
    page = admin_client.get(f"/admin/api/webhookendpoint/{endpoint.pk}/change/")
    assert endpoint.secret not in page.content.decode()  # and never again
    assert endpoint.secret not in admin_client.get("/admin/api/webhookendpoint/").content.decode()


def test_a_director_rotates_a_secret_and_sends_a_test_event(
    world, admin_client, django_capture_on_commit_callbacks
):
    endpoint = WebhookEndpoint.objects.create(
        club=world.a.club, url="https://hooks.example/in", events=["deal.recorded"], secret="s1"
    )
    response = admin_client.post(
        "/admin/api/webhookendpoint/",
        {"action": "rotate_secret", "_selected_action": [endpoint.pk]},
        follow=True,
    )
    endpoint.refresh_from_db()
    assert endpoint.secret != "s1" and endpoint.previous_secret == "s1"
    assert endpoint.secret in response.content.decode()  # shown once
    assert endpoint.previous_secret_expires_at > timezone.now() + timedelta(hours=23)
    with django_capture_on_commit_callbacks(execute=False) as queued:
        admin_client.post(
            "/admin/api/webhookendpoint/",
            {"action": "send_test", "_selected_action": [endpoint.pk]},
            follow=True,
        )
    assert len(queued) == 1
    [ping] = Delivery.objects.filter(endpoint=endpoint)
    assert ping.event.type == "ping"


def test_the_test_event_is_not_among_the_events_to_choose(world, admin_client):
    page = admin_client.get("/admin/api/webhookendpoint/add/").content.decode()
    assert 'value="deal.recorded"' in page
    assert 'value="ping"' not in page


@pytest.mark.parametrize(
    "url", ["http://hooks.example/in", "ftp://hooks.example/in", "https://u:p@hooks.example/"]
)
def test_an_address_that_is_not_https_is_refused(world, admin_client, url):
    response = admin_client.post(
        "/admin/api/webhookendpoint/add/",
        {"club": world.a.club.pk, "url": url, "events": ["deal.recorded"]},
    )
    assert response.status_code == 200  # the form again, with the error
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "https://[64:ff9b::a9fe:a9fe]/",
        "https://[64:ff9b::a00:5]/",
        "https://[::a9fe:a9fe]/",
        "https://[::7f00:1]/",
        "https://[::ffff:0:7f00:1]/",
        "https://[2002:7f00:1::]/",
        "https://[fec0::1]/",
        "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/",
        "https://192.88.99.1/",
        "https://10.0.0.5/",
    ],
)
def test_an_address_that_is_not_public_is_refused(world, admin_client, url):
    response = admin_client.post(
        "/admin/api/webhookendpoint/add/",
        {"club": world.a.club.pk, "url": url, "events": ["deal.recorded"]},
    )
    assert response.status_code == 200  # the form again, with the error
    assert "not public" in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_a_director_cannot_register_for_another_club(world, admin_client):
    admin_client.post(
        "/admin/api/webhookendpoint/add/",
        {"club": world.b.club.pk, "url": "https://hooks.example/in", "events": ["deal.recorded"]},
    )
    assert not WebhookEndpoint.objects.exists()


def test_send_again_and_enable(world, admin_client, django_capture_on_commit_callbacks):
    endpoint = WebhookEndpoint.objects.create(
        club=world.a.club, url="https://hooks.example/in", events=["deal.recorded"], secret="s"
    )
    other = WebhookEndpoint.objects.create(
        club=world.b.club, url="https://hooks.example/b", events=["deal.recorded"], secret="s"
    )
    match_services.deal_record(match=world.a.match, result=PassedOut())
    match_services.deal_record(match=world.b.match, result=PassedOut())
    mine, theirs = Delivery.objects.get(endpoint=endpoint), Delivery.objects.get(endpoint=other)
    Delivery.objects.update(status=DeliveryStatus.GAVE_UP, next_attempt_at=None)
    page = admin_client.get("/admin/api/delivery/").content.decode()
    assert f"/admin/api/delivery/{mine.pk}/" in page
    assert f"/admin/api/delivery/{theirs.pk}/" not in page
    with django_capture_on_commit_callbacks(execute=False) as queued:
        admin_client.post(
            "/admin/api/delivery/",
            {"action": "send_again", "_selected_action": [mine.pk, theirs.pk]},
            follow=True,
        )
    assert len(queued) == 1
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.status == DeliveryStatus.PENDING and mine.next_attempt_at <= timezone.now()
    assert theirs.status == DeliveryStatus.GAVE_UP

    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(active=False, disabled_reason="x")
    admin_client.post(
        "/admin/api/webhookendpoint/",
        {"action": "enable", "_selected_action": [endpoint.pk]},
        follow=True,
    )
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.disabled_reason == ""


def test_a_player_without_a_directorship_has_no_webhook_admin(world):
    client = Client()
    client.force_login(world.player_a_user)
    assert client.get("/admin/api/webhookendpoint/").status_code in (302, 403)
