"""API throttles, counted in the shared cache.

A club's API key is throttled as itself (scope ``api_key``), not as an anonymous client of
its IP address: many third-party apps may share an address, and one app's key is one client.

When the cache does not answer (Redis down), a throttle lets the request through and logs a
warning: an outage of the cache must not stop the API (deals are still recorded while Redis
is down; ``bench/faults.py``), and the requests are counted again once it is back.
"""

import logging
import math
from typing import NamedTuple

from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from api.models import ClubAPIKey

logger = logging.getLogger(__name__)


def _api_key(request) -> ClubAPIKey | None:
    return request.auth if isinstance(request.auth, ClubAPIKey) else None


class Quota(NamedTuple):
    """What a client has left under the throttle that counted its request, for the
    ``RateLimit-*`` headers (``api.middleware``): ``limit`` requests per window, ``remaining``
    of them, and ``reset`` seconds until one more is allowed: 0 while some remain, else until
    the oldest request counted leaves the window (what ``Retry-After`` says)."""

    limit: int
    remaining: int
    reset: int


QUOTA_ATTRIBUTE = "partscore_quota"


def quota(request) -> Quota | None:
    """The quota a throttle counted ``request`` under, the tightest if several did."""
    return getattr(request, QUOTA_ATTRIBUTE, None)


class AllowWhenCacheIsDown(SimpleRateThrottle):
    """A throttle that lets the request through when the cache does not answer (the pages'
    throttles, ``config.page_throttle``, too)."""

    kind = "API throttle"  # for the log
    # Set by SimpleRateThrottle (its rate, and in allow_request the request's history).
    num_requests: int
    duration: int
    history: list[float]
    now: float

    def allow_request(self, request, view):
        try:
            allowed = super().allow_request(request, view)
        except RedisError as error:
            logger.warning("%s not applied: the cache is unreachable (%s)", self.kind, error)
            return True
        if self.rate is not None and getattr(self, "key", None) is not None:
            self._remember(request)
        return allowed

    def _remember(self, request) -> None:
        remaining = max(0, self.num_requests - len(self.history))
        # One more is allowed now while some are left, else once the oldest counted leaves.
        oldest = self.history[-1] if self.history else self.now
        reset = 0 if remaining else max(0, math.ceil(oldest + self.duration - self.now))
        counted = Quota(self.num_requests, remaining, reset)
        plain = getattr(request, "_request", request)  # DRF's request wraps Django's
        known = quota(plain)
        if known is None or counted.remaining < known.remaining:
            setattr(plain, QUOTA_ATTRIBUTE, counted)


class AnonymousClientThrottle(AllowWhenCacheIsDown, AnonRateThrottle):
    """Anonymous clients, per IP address; requests with an API key are counted per key."""

    def get_cache_key(self, request, view):
        if _api_key(request) is not None:
            return None
        return super().get_cache_key(request, view)


class SignedInUserThrottle(AllowWhenCacheIsDown, UserRateThrottle):
    """Signed-in users, per user (DRF's own class would also count anonymous clients)."""

    def get_cache_key(self, request, view):
        if not request.user or not request.user.is_authenticated:
            return None
        return super().get_cache_key(request, view)


class APIKeyRateThrottle(AllowWhenCacheIsDown, SimpleRateThrottle):
    """Requests made with a club API key, per key."""

    scope = "api_key"

    def get_cache_key(self, request, view):
        key = _api_key(request)
        if key is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": key.pk}
