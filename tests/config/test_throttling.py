"""API throttling through the shared cache: a client over its rate gets 429 and Retry-After."""

import secrets

import pytest
from django.conf import settings
from django.core.cache import cache
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from api.models import ClubAPIKey
from clubs.models import Club
from config.logging import log_context


class Ping(APIView):
    """A view with the project's default throttles, as every API view has."""

    permission_classes = [AllowAny]

    def get(self, request):
        return Response({"pong": True})


@pytest.fixture
def low_rates(monkeypatch):
    # DRF reads the rates once, at import; the test suite runs with high ones.
    monkeypatch.setattr(
        SimpleRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "4/min", "api_key": "2/min"}
    )


@pytest.fixture
def client_ip():
    ip = f"198.51.100.{secrets.randbelow(250) + 1}"  # a fresh address: the cache may be shared
    yield ip
    cache.delete(f"throttle_anon_{ip}")


def test_both_throttles_are_on_by_default():
    assert settings.REST_FRAMEWORK["DEFAULT_THROTTLE_CLASSES"] == [
        "api.throttling.AnonymousClientThrottle",
        "api.throttling.SignedInUserThrottle",
        "api.throttling.APIKeyRateThrottle",
    ]


def test_an_anonymous_client_over_its_rate_gets_429_with_retry_after(low_rates, client_ip):
    view, factory = Ping.as_view(), APIRequestFactory()
    responses = [view(factory.get("/ping/", REMOTE_ADDR=client_ip)) for _ in range(4)]
    assert [r.status_code for r in responses] == [200, 200, 200, 429]
    assert 0 < int(responses[-1]["Retry-After"]) <= 60

    other = view(factory.get("/ping/", REMOTE_ADDR="198.51.100.254"))
    cache.delete("throttle_anon_198.51.100.254")
    assert other.status_code == 200  # counted per address


@pytest.mark.django_db
def test_a_user_over_its_rate_gets_429_with_retry_after(low_rates, django_user_model):
    user = django_user_model.objects.create_user("app-developer", password="x")
    view, factory = Ping.as_view(), APIRequestFactory()
    statuses = []
    cache.delete(f"throttle_user_{user.pk}")  # the cache may be shared with an earlier run
    try:
        for _ in range(5):
            request = factory.get("/ping/", REMOTE_ADDR="198.51.100.1")
            force_authenticate(request, user=user)
            response = view(request)
            statuses.append(response.status_code)
    finally:
        cache.delete(f"throttle_user_{user.pk}")
    assert statuses == [200, 200, 200, 200, 429]
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db
def test_an_api_key_is_throttled_as_itself_not_as_its_address(low_rates, client_ip):
    club = Club.objects.create(name="Keyed", slug="keyed", country="NL")
    key, raw = ClubAPIKey.objects.create_key(name="scoreboard app", club=club)
    view, factory = Ping.as_view(), APIRequestFactory()

    def keyed():
        return view(
            factory.get("/ping/", REMOTE_ADDR=client_ip, HTTP_AUTHORIZATION=f"Api-Key {raw}")
        )

    # Outside a request nothing resets what authentication binds for the log: log_context does.
    with log_context():
        try:
            statuses = [keyed().status_code for _ in range(3)]
            # The key's requests did not use up the address's anonymous allowance.
            anonymous = [
                view(factory.get("/ping/", REMOTE_ADDR=client_ip)).status_code for _ in range(3)
            ]
        finally:
            cache.delete(f"throttle_api_key_{key.pk}")
    assert statuses == [200, 200, 429]
    assert anonymous == [200, 200, 200]
