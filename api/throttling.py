"""API throttles, counted in the shared cache.

A club's API key is throttled as itself (scope ``api_key``), not as an anonymous client of
its IP address: many third-party apps may share an address, and one app's key is one client.

When the cache does not answer (Redis down), a throttle lets the request through and logs a
warning: an outage of the cache must not stop the API (deals are still recorded while Redis
is down; ``bench/faults.py``), and the requests are counted again once it is back.
"""

import logging

from redis.exceptions import RedisError
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from api.models import ClubAPIKey

logger = logging.getLogger(__name__)


def _api_key(request) -> ClubAPIKey | None:
    return request.auth if isinstance(request.auth, ClubAPIKey) else None


class AllowWhenCacheIsDown(SimpleRateThrottle):
    """A throttle that lets the request through when the cache does not answer (the pages'
    throttles, ``config.page_throttle``, too)."""

    kind = "API throttle"  # for the log

    def allow_request(self, request, view):
        try:
            return super().allow_request(request, view)
        except RedisError as error:
            logger.warning("%s not applied: the cache is unreachable (%s)", self.kind, error)
            return True


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
