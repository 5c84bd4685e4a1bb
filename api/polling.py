"""Validators on every API read (issue 20, cheap polling): each GET answer of 200 carries an
``ETag`` and a ``Last-Modified``, and answers ``304 Not Modified`` to an ``If-None-Match`` (or,
without one, an ``If-Modified-Since``) that says the client has it.

The read cache's answers (``api.cache.cached_read``) get them there, before the view runs. This
gives them to every other read (``Polled``, on every API view), with the same machinery
(``clubs.live``): the ETag is the digest of the rendered body, and ``Last-Modified`` the time
the newest generation of what the answer depends on was made (``poll_scopes``: by default the
generations of every club whose rows the answer may show), read before the view runs; without
trusted generations (``API_READ_CACHE`` off), the newest ``updated_at`` the answer shows. A
download (CSV, XLSX) is streamed: its ETag is the digest of its generations, URL, language and
media type, so it gets validators only with the generations.
"""

import hashlib
import json
import logging
from collections.abc import Mapping

from django.http import StreamingHttpResponse
from django.utils.cache import get_conditional_response
from django.utils.translation import get_language

from api import access
from api.cache import Owner, _scopes, body_validated, club_of
from api.exports import ExportRenderer
from api.ids import whole_id
from clubs import live
from clubs.generations import Scope, generations

logger = logging.getLogger(__name__)

READS = ("GET", "HEAD")


def deal_etag(data: Mapping) -> str:
    """The ETag of one deal (``GET /matches/{id}/deals/{sequence}/``) from its data as
    ``DealSerializer`` gives it: the digest of its fields (with its ``updated_at``), the same
    for every media type and with the read cache on or off. A write that takes ``If-Match``
    compares it with what this GET gives (``api.preconditions``)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return '"' + hashlib.blake2b(text.encode(), digest_size=16).hexdigest() + '"'


def _read_scope(view):
    """``(owner, depends)`` of the view's action when ``cached_read`` answers it."""
    handler = getattr(view, getattr(view, "action", None) or "", None)
    return getattr(handler, "read_scope", None)


class Polled:
    """Validators on the view's reads that the read cache does not answer (see the module).
    ``clock_actions``: answers that change with the clock as well as with writes (a wait that
    becomes long): their Last-Modified is the time they were read."""

    clock_actions: tuple[str, ...] = ()
    poll_kind: str | None = None  # what the URL's ``pk`` names, for ``api.cache.club_of``

    def poll_scopes(self, request) -> list[Scope]:
        """The generations the answer depends on: the club of the object the URL names (see
        ``poll_kind``; remembered once found, so usually no query), else every club whose rows
        it may show (the ``club`` filter's, when given and one of them)."""
        object_id = whole_id(getattr(self, "kwargs", {}).get("pk"))
        if self.poll_kind is not None and object_id is not None:
            club_id = club_of(self.poll_kind, object_id)
            if club_id is not None:
                return [("club", club_id)]
        public = getattr(self, "public_read", False)
        clubs = access.readable_clubs(request) if public else access.member_clubs(request)
        ids = list(clubs.values_list("pk", flat=True))
        wanted = whole_id(request.query_params.get("club"))
        if wanted in ids:
            ids = [wanted]
        return [("club", pk) for pk in ids]

    def _scopes_of(self, request, kwargs, scope) -> list[Scope]:
        if scope is not None:  # a download of a cached answer: the answer's own generations
            owner, depends = scope
            about: Owner | None = owner(self, request, **kwargs)
            club_id = None if about is None else club_of(*about)
            if about is not None and club_id is not None:
                return _scopes(request, about, club_id, depends)
        return self.poll_scopes(request)

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)  # type: ignore[misc]
        self._polled: tuple[float, tuple[str, ...] | None] | None = None
        if request.method not in READS:
            return
        scope = _read_scope(self)
        if (
            scope is not None
            and not isinstance(request.accepted_renderer, ExportRenderer)
            and (not live.trusted() or scope[0](self, request, **kwargs) is not None)
        ):
            return  # the read cache gives the validators
        read_at = live._now()
        tokens = None
        if live.trusted() and getattr(self, "action", None) not in self.clock_actions:
            try:
                tokens, _found = generations(self._scopes_of(request, kwargs, scope))
            except Exception:
                logger.warning("the generations could not be read", exc_info=True)
        self._polled = (read_at, tokens)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]
        polled = getattr(self, "_polled", None)
        if polled is None or response.status_code != 200 or response.has_header("ETag"):
            return response
        read_at, tokens = polled
        if getattr(self, "action", None) in self.clock_actions:
            modified = live.modified_from_data(None, read_at)
        elif tokens is not None:
            modified = live.modified_from_tokens(tokens, read_at)
        else:
            modified = None  # the newest updated_at shown (body_validated)
        if isinstance(response, StreamingHttpResponse):
            if tokens is None or modified is None:
                return response  # its body is not known before it is sent
            parts = [request.get_full_path(), get_language(), request.accepted_media_type]
            etag = live.tokens_etag(tokens, parts)
            seconds = int(modified.timestamp())
            not_modified = get_conditional_response(request, etag=etag, last_modified=seconds)
            return live._finish(not_modified or response, etag, seconds)
        return body_validated(self, request, response, read_at=read_at, modified=modified)
