"""The pages' throttles: an anonymous client over its rate gets a 429 page with Retry-After,
in its language; PDFs have a lower rate of their own; signed-in users, the API, /health/, the
sign-in page, the language switch and static files are not counted."""

import logging
import secrets

import pytest
from django.core.cache import cache
from django.urls import reverse
from rest_framework.throttling import SimpleRateThrottle

from config.cache import SharedClientRedisCache
from matches.services import deal_record, match_create
from scoring.engine import Played
from tests.clubs.factories import PLAY_DATE, make_club, make_players, make_user, seats_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def low_rates(settings):
    settings.PAGE_THROTTLE_ANON = "5/min"
    settings.PDF_THROTTLE_ANON = "2/min"


@pytest.fixture
def client_ip():
    ip = f"198.51.100.{secrets.randbelow(250) + 1}"  # a fresh address: the cache may be shared
    yield ip
    cache.delete_many([f"throttle_page_{ip}", f"throttle_pdf_{ip}"])


@pytest.fixture
def director():
    return make_user()


@pytest.fixture
def match(director):
    """A complete Chicago of a public club."""
    club = make_club(creator=director, public=True)
    match = match_create(
        club=club, kind="chicago", seats=seats_of(make_players(club)), played_on=PLAY_DATE
    )
    for _ in range(4):
        deal_record(match=match, result=Played("1NT", "N", 7))
    return match


def test_the_anonymous_pdf_over_the_rate_is_a_translated_429(client, low_rates, client_ip, match):
    url = reverse("matches:sheet_pdf", args=[match.pk])
    responses = [
        client.get(url, REMOTE_ADDR=client_ip, HTTP_ACCEPT_LANGUAGE="el") for _ in range(3)
    ]
    assert [r.status_code for r in responses] == [200, 200, 429]
    refused = responses[-1]
    assert 0 < int(refused["Retry-After"]) <= 60
    assert refused["Content-Type"].startswith("text/html")
    html = refused.content.decode()
    assert '<html lang="el">' in html
    assert "Πάρα πολλά αιτήματα" in html  # "Too many requests"
    assert f"σε {refused['Retry-After']} δευτερόλεπτ" in html  # "in N seconds"
    assert "/login/?next=" in html

    # The pages have a rate of their own; another address is counted apart.
    sheet = reverse("matches:sheet", args=[match.pk])
    assert client.get(sheet, REMOTE_ADDR=client_ip).status_code == 200
    other = "203.0.113.7"
    try:
        assert client.get(url, REMOTE_ADDR=other).status_code == 200
    finally:
        cache.delete(f"throttle_pdf_{other}")


def test_pages_over_the_rate_leave_the_api_health_and_static_files_alone(
    client, low_rates, client_ip, match, settings
):
    settings.WHITENOISE_USE_FINDERS = True  # serve static files as with DEBUG (none collected)
    sheet = reverse("matches:sheet", args=[match.pk])
    statuses = [client.get(sheet, REMOTE_ADDR=client_ip).status_code for _ in range(6)]
    assert statuses == [200] * 5 + [429]
    assert client.get("/", REMOTE_ADDR=client_ip).status_code == 429
    assert client.get("/api/v1/clubs/", REMOTE_ADDR=client_ip).status_code == 200
    assert client.get("/health/", REMOTE_ADDR=client_ip).status_code == 200
    assert client.get(reverse("clubs:login"), REMOTE_ADDR=client_ip).status_code == 200
    switched = client.post(reverse("set_language"), {"language": "el"}, REMOTE_ADDR=client_ip)
    assert switched.status_code == 302
    assert client.get("/static/css/partscore.css", REMOTE_ADDR=client_ip).status_code == 200


def test_a_signed_in_director_is_not_throttled(client, low_rates, client_ip, match, director):
    client.force_login(director)
    pdf = reverse("matches:sheet_pdf", args=[match.pk])
    table = reverse("matches:table", args=[match.pk])
    statuses = {client.get(pdf, REMOTE_ADDR=client_ip).status_code for _ in range(5)}
    statuses |= {client.get(table, REMOTE_ADDR=client_ip).status_code for _ in range(8)}
    assert statuses == {200}


def test_behind_a_proxy_the_client_address_is_counted(client, low_rates, settings, match):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    url = reverse("matches:sheet_pdf", args=[match.pk])
    proxy, clients = "10.0.0.1", [f"198.51.100.{secrets.randbelow(250) + 1}" for _ in range(2)]
    try:
        statuses = [
            client.get(url, REMOTE_ADDR=proxy, HTTP_X_FORWARDED_FOR=ip).status_code
            for ip in clients
            for _ in range(3)
        ]
    finally:
        cache.delete_many([f"throttle_pdf_{ip}" for ip in [proxy, *clients]])
    assert statuses == [200, 200, 429] * 2


def test_pages_are_answered_while_the_cache_is_down(client, low_rates, monkeypatch, caplog):
    monkeypatch.setattr(
        SimpleRateThrottle, "cache", SharedClientRedisCache("redis://127.0.0.1:1/0", {})
    )
    with caplog.at_level(logging.WARNING, logger="api.throttling"):
        statuses = [client.get("/").status_code for _ in range(6)]
    assert statuses == [200] * 6
    assert "page throttle not applied: the cache is unreachable" in caplog.text
