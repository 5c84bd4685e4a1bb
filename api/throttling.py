"""API throttles, counted in the shared cache.

A club's API key is throttled as itself (scope ``api_key``), not as an anonymous client of
its IP address: many third-party apps may share an address, and one app's key is one client.
"""

from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from api.models import ClubAPIKey


def _api_key(request) -> ClubAPIKey | None:
    return request.auth if isinstance(request.auth, ClubAPIKey) else None


class AnonymousClientThrottle(AnonRateThrottle):
    """Anonymous clients, per IP address; requests with an API key are counted per key."""

    def get_cache_key(self, request, view):
        if _api_key(request) is not None:
            return None
        return super().get_cache_key(request, view)


class SignedInUserThrottle(UserRateThrottle):
    """Signed-in users, per user (DRF's own class would also count anonymous clients)."""

    def get_cache_key(self, request, view):
        if not request.user or not request.user.is_authenticated:
            return None
        return super().get_cache_key(request, view)


class APIKeyRateThrottle(SimpleRateThrottle):
    """Requests made with a club API key, per key."""

    scope = "api_key"

    def get_cache_key(self, request, view):
        key = _api_key(request)
        if key is None:
            return None
        return self.cache_format % {"scope": self.scope, "ident": key.pk}
