"""Password guessing: django-axes locks a username at one IP address out of every login."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings as django_settings
from django.db.models import F

PASSWORD = "the-right-password-42"
ADMIN_LOGIN = "/admin/login/"


@pytest.fixture
def director(django_user_model, settings):
    settings.AXES_ENABLED = True  # config/test_settings.py turns it off for client.login()
    return django_user_model.objects.create_superuser("director", "d@example.org", PASSWORD)


def log_in(client, password, ip="192.0.2.10"):
    data = {"username": "director", "password": password, "next": "/admin/"}
    return client.post(ADMIN_LOGIN, data, REMOTE_ADDR=ip)


def logged_in(client):
    return "_auth_user_id" in client.session


def let_the_cool_off_pass():
    """The clock moves on: every recorded attempt becomes older than the cool-off."""
    AccessAttempt.objects.update(
        attempt_time=F("attempt_time") - django_settings.AXES_COOLOFF_TIME - timedelta(seconds=1)
    )


def test_the_settings_lock_after_five_failures_for_fifteen_minutes():
    assert django_settings.AXES_FAILURE_LIMIT == 5
    cool_off = django_settings.AXES_COOLOFF_TIME
    assert cool_off == timedelta(minutes=15)
    assert django_settings.AXES_LOCKOUT_PARAMETERS == [["username", "ip_address"]]
    assert django_settings.AUTHENTICATION_BACKENDS[0] == "axes.backends.AxesStandaloneBackend"


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_admin_login_until_the_cool_off_passes(client, director):
    statuses = [log_in(client, f"guess-{n}").status_code for n in range(5)]
    assert statuses == [200, 200, 200, 200, 429]  # the fifth failure locks

    refused = log_in(client, PASSWORD)
    assert refused.status_code == 429
    assert not logged_in(client)

    let_the_cool_off_pass()
    accepted = log_in(client, PASSWORD)
    assert accepted.status_code == 302
    assert accepted["Location"] == "/admin/"
    assert logged_in(client)


@pytest.mark.django_db
def test_the_lockout_is_for_that_username_at_that_address_only(client, director):
    for n in range(5):
        log_in(client, f"guess-{n}", ip="192.0.2.10")
    assert log_in(client, PASSWORD, ip="192.0.2.10").status_code == 429

    assert log_in(client, PASSWORD, ip="192.0.2.77").status_code == 302
    assert logged_in(client)


@pytest.mark.django_db
def test_a_success_before_the_limit_clears_the_count(client, director):
    for n in range(4):
        log_in(client, f"guess-{n}")
    assert log_in(client, PASSWORD).status_code == 302
    client.logout()
    statuses = [log_in(client, f"guess-{n}").status_code for n in range(4)]
    assert statuses == [200] * 4


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"),
    [
        ("en", "Too many wrong passwords"),
        ("el", "Πάρα πολλοί λάθος κωδικοί"),
        ("pl", "Zbyt wiele błędnych haseł"),
        ("es", "Demasiadas contraseñas incorrectas"),
        ("nl", "Te veel verkeerde wachtwoorden"),
    ],
)
def test_the_lockout_page_is_the_sites_in_the_clients_language(client, director, language, title):
    for n in range(5):
        log_in(client, f"guess-{n}")
    data = {"username": "director", "password": PASSWORD, "next": "/admin/"}
    refused = client.post(
        ADMIN_LOGIN, data, REMOTE_ADDR="192.0.2.10", HTTP_ACCEPT_LANGUAGE=language
    )
    assert refused.status_code == 429
    page = refused.content.decode()
    assert f'<html lang="{language}">' in page
    assert f"<h1>{title}</h1>" in page
    assert "15" in page  # the cool-off, in minutes
    assert "Account locked" not in page  # django-axes' own English message
