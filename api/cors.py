"""CORS for the clubs' browser apps: a web page at an origin some club lists
(``Club.api_origins``, set by its directors in the admin or with the API's club PATCH) may
call the API from the browser. Only under /api/; no credentials (cookies) go with such a
request: an app sends its API key or token in ``Authorization``.

django-cors-headers answers the preflight and adds the headers; it asks
``check_request_enabled`` (connected in ``ApiConfig.ready``) whether a request's origin is
allowed. Every club's origins are kept, as one set, in the shared cache for
``ORIGINS_SECONDS`` and dropped whenever a club's data changes (``club_changed``), so an
origin a director adds or removes counts within that time in every process.
"""

import logging

from django.core.cache import cache

from clubs.models import Club

logger = logging.getLogger(__name__)

ORIGINS_KEY = "cors:origins"
ORIGINS_SECONDS = 60


def allowed_origins() -> frozenset[str]:
    """Every origin a club lists."""
    try:
        found = cache.get(ORIGINS_KEY)
    except Exception:
        logger.warning("the shared cache failed; reading the origins from the database")
        found = None
    if found is not None:
        return found
    origins = frozenset(
        origin
        for listed in Club.objects.exclude(api_origins=[]).values_list("api_origins", flat=True)
        for origin in listed or ()
    )
    try:
        cache.set(ORIGINS_KEY, origins, timeout=ORIGINS_SECONDS)
    except Exception:
        logger.warning("could not keep the origins in the shared cache")
    return origins


def forget_origins(**kwargs) -> None:
    """``club_changed``'s receiver: the origins are read again at the next request."""
    try:
        cache.delete(ORIGINS_KEY)
    except Exception:
        logger.warning("could not drop the origins from the shared cache")


def request_allowed(sender, request, **kwargs) -> bool:
    """``check_request_enabled``'s receiver: an API request from an origin a club lists."""
    origin = request.headers.get("origin")
    if not origin or not request.path_info.startswith("/api/"):
        return False
    return origin.lower() in allowed_origins()
