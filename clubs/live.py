"""Validators for what clients poll (the live pages and the API's reads): an ``ETag`` on each
answer, a ``Last-Modified`` where a real timestamp exists, and a ``304 Not Modified`` with no
body when the client's copy is still the answer.

The ETag comes from one of two places:

- **The generations** (``clubs.generations``) of the scopes the answer depends on, when they
  can be trusted: with ``API_READ_CACHE`` on, every process shares one cache and every write
  renews the tokens of what it touches, before and again after its commit. The ETag is a
  digest of those tokens, read *before* the answer is computed, and of everything else the
  answer varies with (``parts``: the URL with its query, the language, the media type, the
  viewer where the content differs per viewer). A changed scope gives a new ETag, so a client
  never hears "unchanged" after a write it could see; an unchanged one lets the view answer
  304 before it reads the database. A write whose tokens could not be renewed (the cache was
  down) is covered as the read cache covers it: the ETag also carries the current period of
  ``API_READ_CACHE_SECONDS``, so no ETag outlives a change by longer than a cached copy.
- **The answer's body**, otherwise: the embedded default's cache is per process (renewing its
  tokens would tell one process only, so they are not renewed at all: ``_bump``), and the
  shared cache may fail. The view renders the answer and the ETag is a digest of the bytes:
  always exact, and a 304 still spares the transfer and the client's work.

``Last-Modified`` (``modified_from_tokens``, ``modified_from_data``) comes from the same two
places: the time the newest of the answer's generations was made (``clubs.generations``: a
write makes new ones, so it moves with every change the ETag moves with, also with the period),
or without trusted generations the newest ``updated_at`` the answer shows. Both are sent in
whole seconds and never later than the second before the answer was read: a change later in
the same second as the answer would otherwise have the client's own ``If-Modified-Since`` and
be missed. It is the weaker validator (and without the generations a row that left a list
does not move it); a client that has an ETag sends ``If-None-Match``, which wins over
``If-Modified-Since`` (RFC 9110; Django's ``get_conditional_response``).

Every answer says ``Cache-Control: private, no-cache``: a browser may keep a copy but asks
each time whether it is still the answer, and no shared cache keeps a club's pages.
"""

import functools
import hashlib
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.cache import get_conditional_response, patch_cache_control, set_response_etag
from django.utils.http import http_date
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from clubs.generations import Scope, generations, tokens_time

logger = logging.getLogger(__name__)
_now = time.time  # the clock of the ETags' periods (the tests hold it still)


def trusted() -> bool:
    """Whether the generations follow every write in every process (see the module)."""
    return bool(settings.API_READ_CACHE)


def _digest(parts: Iterable[object]) -> str:
    text = "\x1f".join(map(str, parts))
    return '"' + hashlib.blake2b(text.encode(), digest_size=16).hexdigest() + '"'


def tokens_etag(tokens: Sequence[str], parts: Iterable[object]) -> str:
    """The ETag of an answer computed under ``tokens`` (the generations of its scopes) and
    varying with ``parts``; it changes with the period of ``API_READ_CACHE_SECONDS`` too."""
    period = int(_now()) // max(1, settings.API_READ_CACHE_SECONDS)
    return _digest(["generations", period, *tokens, *parts])


def _whole_seconds(newest: float, read_at: float) -> datetime:
    """``newest`` in whole seconds, but never the second ``read_at`` is in (or later): a change
    later in that second would otherwise not move it."""
    return datetime.fromtimestamp(min(int(newest), int(read_at) - 1), tz=UTC)


def modified_from_tokens(tokens: Sequence[str], read_at: float) -> datetime:
    """The ``Last-Modified`` of an answer computed under ``tokens`` (read at ``read_at``): when
    the newest was made, and not before the current period of ``API_READ_CACHE_SECONDS`` (so
    that, as the ETag, it moves after a write whose tokens could not be renewed)."""
    period = max(1, settings.API_READ_CACHE_SECONDS)
    made = tokens_time(tokens)
    newest = max(read_at if made is None else made, int(read_at) // period * period)
    return _whole_seconds(newest, read_at)


def _times(data: object) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            if key == "updated_at" and isinstance(value, str):
                yield value
            else:
                yield from _times(value)
    elif isinstance(data, list | tuple):
        for value in data:
            yield from _times(value)


def modified_from_data(data: object, read_at: float) -> datetime:
    """The ``Last-Modified`` of an answer without trusted generations: the newest
    ``updated_at`` it shows (the time it was read, if it shows none)."""
    newest = read_at
    stamps = []
    for text in _times(data):
        try:
            stamps.append(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())
        except ValueError:
            continue
    if stamps:
        newest = max(stamps)
    return _whole_seconds(newest, read_at)


def read_generations(
    scopes: Sequence[Scope], *, read_also: Sequence[str] = ()
) -> tuple[tuple[str, ...], dict[str, Any]] | None:
    """The tokens of ``scopes`` and the cache's values of the keys ``read_also``, in one
    round trip (``clubs.generations.generations``), or None when the generations cannot be
    trusted (off, or the cache failed): an ETag is then the body's."""
    if not trusted():
        return None
    try:
        return generations(scopes, read_also=read_also)
    except Exception:
        logger.warning("the generations could not be read; ETag from the body", exc_info=True)
        return None


def generation_etag(scopes: Sequence[Scope], parts: Iterable[object]) -> str | None:
    """The ETag of an answer that depends on ``scopes`` and varies with ``parts``, or None
    when the generations cannot be trusted (``read_generations``): then use the body's."""
    read = read_generations(scopes)
    return None if read is None else tokens_etag(read[0], parts)


def page_parts(
    request: HttpRequest, url: str | None = None, *, viewer: object = None
) -> list[object]:
    """What a page at ``url`` (the request's, with its query, by default) varies with beyond
    its data: the URL, the language, the media type and the viewer (their id: a director sees
    other links than a reader; ``viewer``: whatever stands for them instead)."""
    if viewer is None:
        user = getattr(request, "user", None)
        viewer = user.pk if user is not None and user.is_authenticated else "-"
    return [url or request.get_full_path(), get_language(), "text/html", viewer]


def _finish(response: HttpResponseBase, etag: str, last_modified: int | None) -> HttpResponseBase:
    response["ETag"] = etag
    if last_modified is not None and response.status_code in (200, 304):
        response["Last-Modified"] = http_date(last_modified)
    patch_cache_control(response, private=True, no_cache=True)
    return response


def not_modified(
    request: HttpRequest, *, etag: str, last_modified: datetime | None = None
) -> HttpResponseBase | None:
    """The 304 for a request whose ``If-None-Match`` (or, without one, ``If-Modified-Since``)
    says the client has the answer whose ETag is ``etag``; else None."""
    modified = int(last_modified.timestamp()) if last_modified is not None else None
    found = get_conditional_response(request, etag=etag, last_modified=modified)
    return None if found is None else _finish(found, etag, modified)


def conditional(
    request: HttpRequest,
    answer: Callable[[], HttpResponseBase],
    *,
    etag: str | None,
    last_modified: datetime | None = None,
) -> HttpResponseBase:
    """``answer()``, or a 304 when the request's ``If-None-Match`` (or, without one, its
    ``If-Modified-Since``) says the client has it. ``etag``: from the generations, known before
    the answer is computed (a match answers 304 without computing it), or None: the ETag is
    then the digest of the rendered body. Only a 200 gets validators."""
    # Whole seconds, as HTTP dates are.
    modified = int(last_modified.timestamp()) if last_modified is not None else None
    if etag is not None:
        unchanged = not_modified(request, etag=etag, last_modified=last_modified)
        if unchanged is not None:
            return unchanged
    response = answer()
    if not isinstance(response, HttpResponse) or response.status_code != 200:
        return response  # a stream, a redirect, an error: no validators
    if etag is None:
        if hasattr(response, "render") and not getattr(response, "is_rendered", True):
            response.render()
        set_response_etag(response)
        etag = response["ETag"]
    _finish(response, etag, modified)
    checked = get_conditional_response(
        request, etag=etag, last_modified=modified, response=response
    )
    return checked or response


EtagOf = Callable[[HttpRequest, Sequence[Scope]], str | None]
"""How a page's ETag is made from its request and the scopes it depends on (``page_etag``)."""


def page_etag(request: HttpRequest, scopes: Sequence[Scope]) -> str | None:
    """A page's ETag: the generations of ``scopes`` with ``page_parts``."""
    return generation_etag(scopes, page_parts(request))


def live_page(
    request: HttpRequest,
    answer: Callable[[], HttpResponse],
    *,
    scopes: Sequence[Scope],
    last_modified: datetime | None = None,
    etag_of: EtagOf = page_etag,
) -> HttpResponseBase:
    """A page (or a page's fragment: what a live region polls) that depends on ``scopes``,
    with its validators: see ``conditional`` and the module. ``etag_of``: a page whose
    ETag varies with more than ``page_parts`` (the director's board)."""
    etag = etag_of(request, scopes)
    if etag is not None:
        remember(request.path, scopes)
    return conditional(request, answer, etag=etag, last_modified=last_modified)


# The scopes of the pages this process answered, by path, for ``polled``: 304s that read no
# database. bench/polls.py: a poll of a sheet's or a night's live region cost 5.7x the floor's
# CPU, its queries three quarters of it; 1.5x with this. Bounded: emptied when full.
_scopes_by_path: dict[str, tuple[Scope, ...]] = {}
REMEMBERED_PATHS = 20_000


def remember(path: str, scopes: Sequence[Scope]) -> None:
    """Keep the scopes the answers at ``path`` depend on (``polled``)."""
    if len(_scopes_by_path) >= REMEMBERED_PATHS:
        _scopes_by_path.clear()
    _scopes_by_path[path] = tuple(scopes)


def remembered_scopes(path: str) -> tuple[Scope, ...] | None:
    """The scopes of ``path`` as this process last answered it (``remember``), if it did."""
    return _scopes_by_path.get(path)


View = Callable[..., HttpResponseBase]


def polled_by(etag_of: EtagOf) -> Callable[[View], View]:
    """``polled``, for a view whose ``live_page`` makes its ETag with ``etag_of``."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            scopes = remembered_scopes(request.path)
            if (
                scopes is not None
                and request.method == "GET"
                and "HTTP_IF_NONE_MATCH" in request.META
            ):
                etag = etag_of(request, scopes)
                unchanged = None if etag is None else not_modified(request, etag=etag)
                if unchanged is not None:
                    return unchanged
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


polled = polled_by(page_etag)
"""A view whose path alone names the scopes its ``live_page`` answers depend on (a match's
sheet, a night's pages; not "the current season", which the date moves): a GET with
``If-None-Match`` of a path this process answered before is answered 304 from the cache alone
when its ETag is still the answer's (one round trip, no database, nothing computed). A path
whose scopes changed since (a club's slug given to another) only misses: the tokens of other
scopes give another ETag, and the view answers in full."""


def live_url(request: HttpRequest, path: str | None = None) -> str:
    """The URL a live region of this page polls: the page's (``path``: another page's, for a
    page answered to a form's POST), its query kept, with ``live=1``."""
    query = request.GET.copy() if path is None else QueryDict(mutable=True)
    query["live"] = "1"
    return f"{path or request.path}?{query.urlencode()}"


def wants_live(request: HttpRequest) -> bool:
    """Whether the request polls the page's live region (``live_url``)."""
    return request.GET.get("live") == "1"


def live_region(
    request: HttpRequest,
    html: Callable[[], str],
    *,
    scopes: Sequence[Scope],
    path: str | None = None,
) -> dict[str, object]:
    """A live region as its page shows it: the fragment's ``html``, the ``url`` it polls and
    the ``etag`` the poll's answer will have while nothing changes (so that the first poll is
    a 304 already)."""
    url = live_url(request, path)
    etag = generation_etag(scopes, page_parts(request, url))
    body = mark_safe(html())  # a template's output
    if etag is None:
        response = HttpResponse(body)
        set_response_etag(response)
        etag = response["ETag"]
    return {"url": url, "etag": etag, "html": body}


def live_view(
    request: HttpRequest,
    *,
    page: str,
    fragment: str,
    context: Callable[[], dict[str, Any]],
    scopes: Sequence[Scope],
    last_modified: datetime | None = None,
    page_etag: bool = False,
) -> HttpResponseBase:
    """A page whose ``fragment`` template is its live region: ``?live=1`` answers the fragment
    alone (``live_page``: a 304 while ``scopes`` are unchanged, ``context()`` not even
    computed), anything else the ``page`` template with the region as ``live``. With
    ``page_etag`` the whole page gets validators too (only for a page without a form, whose
    CSRF token would differ on every answer)."""
    if wants_live(request):
        return live_page(
            request,
            lambda: render(request, fragment, context()),
            scopes=scopes,
            last_modified=last_modified,
        )

    def whole() -> HttpResponse:
        data = context()

        def html() -> str:
            return render_to_string(fragment, data, request=request)

        data["live"] = live_region(request, html, scopes=scopes)
        return render(request, page, data)

    return live_page(request, whole, scopes=scopes) if page_etag else whole()
