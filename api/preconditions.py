"""``If-Match`` on a write (RFC 9110, 13.1.1): the client sends the ETag its copy came with and
the write is done only if that copy is still the answer a GET would give; otherwise a 412 in
the API's error shape, with the current ETag, and nothing is written. Without the header a
write is done as before (it is optional).

The comparison is strong: a weak ETag (``W/"..."``) matches nothing, ``*`` matches any
current answer. The current ETag is the one a GET of the same URL gives now (``api.cache``,
``clubs.live``): the view's own read, computed with the request's conditional headers put
aside so that it answers in full.
"""

from collections.abc import Callable
from typing import Any

from django.utils.http import parse_etags
from django.utils.translation import gettext
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.response import Response

from api.errors import PreconditionFailed, error_body

HEADER = "If-Match"
_CONDITIONAL = (
    "HTTP_IF_MATCH",
    "HTTP_IF_NONE_MATCH",
    "HTTP_IF_MODIFIED_SINCE",
    "HTTP_IF_UNMODIFIED_SINCE",
)


def matches(current: str | None, header: str) -> bool:
    """Whether ``If-Match: header`` passes for an answer whose ETag is ``current``."""
    wanted = parse_etags(header)
    if not current:
        return False
    if wanted == ["*"]:
        return True
    return not current.startswith("W/") and current in wanted


def current_etag(request, read: Callable[[], Any]) -> str | None:
    """The ETag of ``read()`` (the view's GET of the same URL), answered in full."""
    meta = request.META
    kept = {name: meta.pop(name) for name in _CONDITIONAL if name in meta}
    try:
        response = read()
    finally:
        meta.update(kept)
    return response.get("ETag") if getattr(response, "status_code", None) == 200 else None


def refused(request, read: Callable[[], Any]) -> Response | None:
    """None when the write may go ahead (no ``If-Match``, or it matches); otherwise the 412
    to answer, with the current ETag."""
    header = request.headers.get(HEADER)
    if header is None:
        return None
    if not parse_etags(header):
        message = gettext('not an ETag: send the ETag a GET gave (e.g. "abc...") or *')
        raise ValidationError({HEADER: [ErrorDetail(message, "not_an_etag")]})
    current = current_etag(request, read)
    if matches(current, header):
        return None
    headers = {"ETag": current} if current else None
    return Response(error_body(PreconditionFailed()), status=412, headers=headers)
