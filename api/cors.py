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

from api.shared import forget, shared
from clubs.models import Club

ORIGINS_KEY = "cors:origins"
ORIGINS_SECONDS = 60


def allowed_origins() -> frozenset[str]:
    """Every origin a club lists."""
    return shared(
        ORIGINS_KEY,
        ORIGINS_SECONDS,
        lambda: frozenset(
            origin
            for listed in Club.objects.exclude(api_origins=[]).values_list("api_origins", flat=True)
            for origin in listed or ()
        ),
    )


def forget_origins(**kwargs) -> None:
    """``club_changed``'s receiver: the origins are read again at the next request."""
    forget(ORIGINS_KEY)


def request_allowed(sender, request, **kwargs) -> bool:
    """``check_request_enabled``'s receiver: an API request from an origin a club lists."""
    origin = request.headers.get("origin")
    if not origin or not request.path_info.startswith("/api/"):
        return False
    return origin.lower() in allowed_origins()
