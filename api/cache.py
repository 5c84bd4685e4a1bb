"""The API's read cache: GET answers about one club, kept in the shared cache until what they
show changes.

A cached view names the object its answer is about (``Owner``: a match, a season, a session,
a club night or a club, from the URL) and what else the answer shows beyond the club's own
data (``depends``: the match, the club's matches, the season's ladder, the night's matches).
The answer is stored rendered (a hit sends the stored bytes: no serializer, no renderer)
under the request's full URL, language and media type with the generations
(``api.generations``) of the club and of those, read *before* it was computed, and served
again only while they are unchanged, to a client that may read the club (the club's members
and keys, and everyone for a public club unless the answer is for members only). Every write
renews the generations (the services announce it), so no client reads an answer older than
the last write it could see; a deal recorded at one table leaves the
other matches' score sheets cached. Only answers of 200 are stored; anything else (a 404, a
400 for a bad filter) is computed each time, once (the view's own 404 is not taken for a
failure of the cache).

Every 200 carries an ETag and ``Cache-Control: private, no-cache`` (``clubs.live``), and a
client that sends the ETag back in ``If-None-Match`` gets a 304 with no body while the answer
is unchanged: the stored answer's ETag is the digest of its generations and its key, so a
poll of an unchanged answer is answered from the cache alone. An answer outside the cache
(the cache off, or a client that is not the club's reader) has the digest of its body.

On only with a cache that every process shares (``API_READ_CACHE``, on with ``REDIS_URL``).
If the cache fails, the view answers from the database as if nothing were cached.
"""

import hashlib
import logging
from collections.abc import Callable
from functools import wraps
from typing import Any, NamedTuple

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.utils.translation import get_language
from rest_framework.response import Response

from api import access
from api.ids import whole_id
from clubs import live
from clubs.generations import generations
from clubs.live import conditional, modified_from_data, modified_from_tokens, tokens_etag
from clubs.models import Club, Season, Session
from matches.models import Match
from nights.models import Night

logger = logging.getLogger(__name__)


class Owner(NamedTuple):
    """The object an answer is about: ``kind`` is "match", "season", "session", "night" or
    "club"."""

    kind: str
    id: int


def _key(*parts) -> str:
    return ":".join((settings.API_READ_CACHE_NAMESPACE, *map(str, parts)))


def _entry_key(request) -> str:
    """The answer's key: its URL, language and the media type it is rendered in (a client
    may ask for ``application/json; indent=4``)."""
    url = f"{request.accepted_media_type} {request.build_absolute_uri()}"
    digest = hashlib.blake2b(url.encode(), digest_size=16).hexdigest()
    # Not "answer": earlier versions stored the data unrendered under that name.
    return _key("rendered", get_language(), digest)


_CLUBS: dict[tuple[str, str, int], int] = {}
# How each kind of object reaches its club. These never change once the row exists.
_CLUB_OF = {
    "match": lambda pk: Match.objects.filter(pk=pk).values_list("table__session__club_id"),
    "season": lambda pk: Season.objects.filter(pk=pk).values_list("club_id"),
    "session": lambda pk: Session.objects.filter(pk=pk).values_list("club_id"),
    "night": lambda pk: Night.objects.filter(pk=pk).values_list("session__club_id"),
    "club": lambda pk: Club.objects.filter(pk=pk).values_list("pk"),
    # Not a club: the session a night is played in (it never changes either).
    "session-of-night": lambda pk: Night.objects.filter(pk=pk).values_list("session_id"),
}
_CLUBS_KEPT = 100_000


def club_of(kind: str, object_id: int) -> int | None:
    """The club of a match, season, session, night or club (``kind``), or None if there is
    none; with ``kind`` "session-of-night", the night's session.

    A match, season, session or night never changes club (nor a night its session) and ids
    are never used again, so a found club is remembered in this process, and in the shared
    cache for the other processes. If the shared cache fails, the database answers."""
    key = (settings.API_READ_CACHE_NAMESPACE, kind, object_id)
    club_id = _CLUBS.get(key)
    if club_id is None:
        shared_key: str | None = _key("club-of", kind, object_id)
        try:
            club_id = cache.get(shared_key)
        except Exception:
            logger.warning("the shared cache failed; asking the database", exc_info=True)
            shared_key = None
        if club_id is None:
            row = _CLUB_OF[kind](object_id).first()
            if row is None:
                return None
            club_id = row[0]
            if shared_key is not None:
                try:
                    cache.set(shared_key, club_id, timeout=settings.API_READ_CACHE_SECONDS)
                except Exception:
                    logger.warning("could not remember a club in the shared cache", exc_info=True)
        if len(_CLUBS) >= _CLUBS_KEPT:
            _CLUBS.clear()
        _CLUBS[key] = club_id
    return club_id


def _content_type(request) -> str:
    """The Content-Type DRF gives an answer in the request's renderer."""
    renderer = request.accepted_renderer
    charset = f"; charset={renderer.charset}" if renderer.charset else ""
    return f"{renderer.media_type}{charset}"


def _may_read(request, club_id: int, public: bool) -> bool:
    """As ``access.readable_clubs``: a public club, or one of the client's member clubs."""
    if public:
        return True
    return access.member_clubs(request).filter(pk=club_id).exists()


def _matches_scope(request, club_id: int) -> tuple[str, int | str]:
    """The narrowest set of matches a filtered list's rows all come from."""
    query = request.query_params
    session, season = whole_id(query.get("session")), whole_id(query.get("season"))
    player = whole_id(query.get("player"))
    if session is not None:
        return ("session-matches", session)
    if season is not None:
        return ("player-matches", f"{season}-{player}") if player else ("season-matches", season)
    return ("matches", club_id)


def _scopes(
    request, about: Owner, club_id: int, depends: tuple[str, ...]
) -> list[tuple[str, int | str]]:
    scopes: list[tuple[str, int | str]] = [("club", club_id)]
    for name in depends:
        if name == "matches":
            scopes.append(_matches_scope(request, club_id))
        elif name == "night":  # the night's rounds are its session's matches
            session_id = club_of("session-of-night", about.id)
            scopes.append(("session-matches", -1 if session_id is None else session_id))
        else:  # "match" or "ladder": the owner's own
            scopes.append((name, about.id))
    return scopes


class _Looked(NamedTuple):
    club_id: int
    entry_key: str
    tokens: tuple[str, ...]
    entry: tuple | None  # (tokens, public, body) as stored, or None
    read_at: float  # when the tokens were read


def _look_up(request, about: Owner, depends: tuple[str, ...]) -> _Looked | None:
    """The answer's club, key, current generations and stored copy; None if there is no
    such object. Only the cache is asked (and the database once per object for its club)."""
    club_id = club_of(*about)
    if club_id is None:
        return None
    entry_key = _entry_key(request)
    read_at = live._now()
    tokens, found = generations(_scopes(request, about, club_id, depends), read_also=[entry_key])
    return _Looked(club_id, entry_key, tokens, found.get(entry_key), read_at)


def body_validated(view, request, response, *, read_at: float, modified=None, etag_of=None):
    """An answer outside the read cache, with an ETag from its rendered body (a 304 when the
    client has it): rendered here as DRF would render it after the view. ``modified``: its
    Last-Modified, by default the newest ``updated_at`` it shows (``read_at``: when the view
    began reading)."""
    if not isinstance(response, Response) or response.status_code != 200:
        return response
    response.accepted_renderer = request.accepted_renderer
    response.accepted_media_type = request.accepted_media_type
    response.renderer_context = view.get_renderer_context()  # type: ignore[attr-defined]
    if modified is None:
        modified = modified_from_data(response.data, read_at)
    etag = None if etag_of is None else etag_of(response.data)
    return conditional(request, lambda: response, etag=etag, last_modified=modified)


def cached_read(
    owner: Callable[..., Owner | None],
    *,
    depends: tuple[str, ...],
    members_only: bool = False,
    etag_of: Callable[[Any], str] | None = None,
):
    """Cache a GET view's answer. ``owner(view, request, **kwargs)`` names the object the
    answer is about, or None for an answer that is not about one club (not cached).
    ``depends``, beyond the club's own data: "match" (the owner, a match, and its deals),
    "matches" (the matches the list's filters select from: a session's, a player's in a
    season, a season's or the club's), "ladder" (the owner's, a season's, stored ladder) and
    "night" (the owner's, a club night's, matches: its session's). ``members_only``: the
    answer is for the club's members and keys only, even when the club is public.
    ``etag_of(data)``: the answer's ETag from its data, the same whatever the cache does (kept
    with the stored answer), instead of the digest of its generations and key: a resource a
    client may send back in ``If-Match`` (``api.polling.deal_etag``)."""
    assert set(depends) <= {"match", "matches", "ladder", "night"}, depends

    def decorate(method):
        @wraps(method)
        def view_method(view, request, *args, **kwargs):
            about = owner(view, request, **kwargs) if settings.API_READ_CACHE else None
            looked = None
            if about is not None:
                try:
                    looked = _look_up(request, about, depends)
                except Exception:
                    logger.warning(
                        "the read cache failed; answering from the database", exc_info=True
                    )
            if looked is None:  # not cached (no such object: the view answers a 404, an empty list)
                read_at = live._now()
                response = method(view, request, *args, **kwargs)
                if about is None and getattr(view, "_polled", None) is not None:
                    return response  # about no one club: api.polling gives the validators
                return body_validated(view, request, response, read_at=read_at, etag_of=etag_of)
            club_id, entry_key, tokens, entry, read_at = looked
            etag = tokens_etag(tokens, [entry_key])
            modified = modified_from_tokens(tokens, read_at)
            if entry is not None and entry[0] == tokens and _may_read(request, club_id, entry[1]):
                body = entry[2]
                if etag_of is not None and len(entry) > 3:
                    etag = entry[3]
                return conditional(
                    request,
                    lambda: HttpResponse(body, content_type=_content_type(request)),
                    etag=etag,
                    last_modified=modified,
                )
            response = method(view, request, *args, **kwargs)
            if response.status_code != 200:
                return response
            public = not members_only and Club.objects.filter(pk=club_id, public=True).exists()
            # Only an answer given to a client that may read the club is everyone's answer
            # (a list's filter on a club the client may not read answers an empty list), and
            # only it has the generations' ETag.
            if not _may_read(request, club_id, public):
                return body_validated(view, request, response, read_at=read_at, etag_of=etag_of)
            if etag_of is not None:
                etag = etag_of(response.data)
            try:
                body = request.accepted_renderer.render(
                    response.data, request.accepted_media_type, view.get_renderer_context()
                )
                cache.set(
                    entry_key,
                    (tokens, public, body, etag),
                    timeout=settings.API_READ_CACHE_SECONDS,
                )
            except Exception:
                logger.warning("could not store an answer in the read cache", exc_info=True)
            return conditional(request, lambda: response, etag=etag, last_modified=modified)

        view_method.read_scope = (owner, depends)  # type: ignore[attr-defined]
        return view_method

    return decorate


def path_owner(kind: str, kwarg: str) -> Callable[..., Owner | None]:
    """The object named by the URL's ``kwarg``."""

    def owner(view, request, **kwargs) -> Owner | None:
        object_id = whole_id(kwargs.get(kwarg))
        return None if object_id is None else Owner(kind, object_id)

    return owner


def filter_owner(*params: str) -> Callable[..., Owner | None]:
    """A list's rows all belong to the club of the first of ``params`` (query parameters
    named after the kind of object) given in the query string; without one, no single club."""

    def owner(view, request, **kwargs) -> Owner | None:
        for param in params:
            object_id = whole_id(request.query_params.get(param))
            if object_id is not None:
                return Owner(param, object_id)
        return None

    return owner
