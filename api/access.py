"""Who may read and write which club's data through the API.

A client is a signed-in user (session or token) or a club API key. Reading:
- a club's members (its players and directors) and its API keys read all its data;
- everyone, anonymous clients included, reads the public part of a club marked public:
  the club, its seasons, matches, deals and score sheets (ladders too, later);
- a club's players, sessions, tables and nights are for its members and keys only.
Writing: a club's directors and its read-write keys. Superusers read and write every club.

Each function memoises its answer on the request, so a view asks the database once. The views
hand these clubs to the apps' selectors (``clubs=``), which read the rows.
"""

from django.db.models import Q, QuerySet

from api.models import ClubAPIKey
from clubs.models import Club
from clubs.selectors import can_direct, clubs_directed_by, clubs_visible_to


def api_key(request) -> ClubAPIKey | None:
    auth = getattr(request, "auth", None)
    return auth if isinstance(auth, ClubAPIKey) else None


def signed_in_user(request):
    """The authenticated user account, or None (anonymous, or an API key)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    return user


def is_identified(request) -> bool:
    return signed_in_user(request) is not None or api_key(request) is not None


def client_id(request) -> str:
    """A stable name for the client, e.g. to keep idempotency keys apart."""
    key = api_key(request)
    if key is not None:
        return f"key:{key.prefix}"
    user = signed_in_user(request)
    return f"user:{user.pk}" if user is not None else "anonymous"


def _memo(request, name, compute):
    cache = request.__dict__.setdefault("_partscore_access", {})
    if name not in cache:
        cache[name] = compute()
    return cache[name]


def member_clubs(request) -> QuerySet[Club]:
    """Clubs whose full data (players, sessions, tables) the client reads."""

    def compute():
        key = api_key(request)
        if key is not None:
            return Club.objects.filter(pk=key.club_id)
        user = signed_in_user(request)
        if user is None:
            return Club.objects.none()
        return clubs_visible_to(user)

    return _memo(request, "member", compute)


def readable_clubs(request) -> QuerySet[Club]:
    """Clubs the client reads at least the public part of: its member clubs and every public
    club."""
    return _memo(
        request,
        "readable",
        lambda: Club.objects.filter(Q(public=True) | Q(pk__in=member_clubs(request).values("pk"))),
    )


def writable_clubs(request) -> QuerySet[Club]:
    """Clubs whose data the client writes: those it directs, or a read-write key's club."""

    def compute():
        key = api_key(request)
        if key is not None:
            if key.can_write:
                return Club.objects.filter(pk=key.club_id)
            return Club.objects.none()
        user = signed_in_user(request)
        if user is None:
            return Club.objects.none()
        return clubs_directed_by(user)

    return _memo(request, "writable", compute)


def can_write_club(request, club_id: int) -> bool:
    """Whether the client writes this club's data (as ``writable_clubs``, without a query for
    a key): a read-write key's club, or a club the user directs (``can_direct``, the pages'
    rule), asked once per club and request."""
    key = api_key(request)
    if key is not None:
        return key.can_write and key.club_id == club_id
    user = signed_in_user(request)
    return _memo(request, ("directs", club_id), lambda: can_direct(user, club_id))
