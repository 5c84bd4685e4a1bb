"""What the API refuses before any view reads the request, in the API's error shape:

- a URL longer than ``API_MAX_URL_LENGTH`` characters (path and query): 414 ``uri_too_long``.
  Gunicorn lets longer request lines through (``limit_request_line`` in
  docker/gunicorn.conf.py) up to nginx's own limit, so below that Partscore answers, in JSON;
- a query parameter given more than once (``?page_size=abc&page_size=5``): 400 naming it.
  Taking the last one (as Django does) would hide the client's mistake. ``ordering`` alone is
  a list: repeated (``?ordering=a&ordering=b``, how a generated client sends an array) it is
  the same as comma-separated (``api.filters.OrderingFilter``);
- a query parameter with an empty value (``?season=``): 400 naming it. An empty filter
  ignored in silence would return every row instead of the ones asked for.

And it adds to every answer the API's throttles counted (``api.throttling``) the
``RateLimit-Limit``, ``RateLimit-Remaining`` and ``RateLimit-Reset`` headers
(draft-ietf-httpapi-ratelimit-headers): the requests allowed per window, how many are left,
and the seconds until one more is (a 429 also says ``Retry-After``).
"""

import functools
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.exceptions import ErrorDetail

from api import errors
from api.throttling import quota


class URITooLong(exceptions.APIException):
    status_code = status.HTTP_414_REQUEST_URI_TOO_LONG
    default_detail = _("The URL is too long.")
    default_code = "uri_too_long"


# Empty values a page of the API's asks for itself: the docs page loads its script as
# ``/api/v1/docs/?script=`` (drf-spectacular's SwaggerSplitView).
EMPTY_ALLOWED = {"api:docs": {"script"}}
# Empty values every list takes: an empty ``ordering`` is the default order (as the schema says).
EMPTY_ANYWHERE = {"ordering"}
# Parameters that are lists: repeated, their values are joined (``api.filters``).
REPEATABLE = {"ordering"}


@functools.cache
def _empty_allowed() -> dict[str, set[str]]:
    return {reverse(name): names for name, names in EMPTY_ALLOWED.items()}


def query_errors(request: HttpRequest) -> dict[str, list[ErrorDetail]]:
    """Each repeated or empty query parameter, with why it is refused."""
    found: dict[str, list[ErrorDetail]] = {}
    may_be_empty = EMPTY_ANYWHERE | _empty_allowed().get(request.path_info, set())
    for name, values in request.GET.lists():
        if len(values) > 1 and name not in REPEATABLE:
            message = gettext("given %(count)d times; give it once") % {"count": len(values)}
            found[name] = [ErrorDetail(message, "repeated")]
        elif values[0] == "" and name not in may_be_empty:
            message = gettext("empty; give a value or leave the parameter out")
            found[name] = [ErrorDetail(message, "empty")]
    return found


class APIMiddleware:
    """Under /api/ only; the pages keep Django's own answers."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith("/api/"):
            return self.get_response(request)
        length = len(request.get_full_path())
        if length > settings.API_MAX_URL_LENGTH:
            detail = gettext(
                "The URL is %(length)d characters long; the API accepts at most %(limit)d."
            ) % {"length": length, "limit": settings.API_MAX_URL_LENGTH}
            return errors.response_for(URITooLong(detail))
        found = query_errors(request)
        if found:
            return errors.response_for(exceptions.ValidationError(found))
        response = self.get_response(request)
        counted = quota(request)
        if counted is not None:
            response["RateLimit-Limit"] = str(counted.limit)
            response["RateLimit-Remaining"] = str(counted.remaining)
            response["RateLimit-Reset"] = str(counted.reset)
        return response
