"""Django's own error handlers (``handler400``, ``handler403``, ``handler404`` and
``handler500`` in config/urls.py), for what fails outside a view's own error handling: in a
middleware, in authentication, in reading the request, or anywhere when the database is down.

Under /api/ they answer in the API's error shape (api/errors.py), never an HTML page:

- a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413 ``too_large``, with the limit;
- more parameters than ``DATA_UPLOAD_MAX_NUMBER_FIELDS``: 400 ``too_many_fields``;
- anything else Django refuses as malformed or unsafe (a Host header not in
  ``ALLOWED_HOSTS``, say): 400 ``bad_request``;
- 403 ``permission_denied``, 404 ``not_found``;
- the database unreachable: 503 ``unavailable`` with ``Retry-After``; any other error: 500
  ``server_error``;
- a deadlock or serialization failure that remained after the write was run again
  (``clubs.transactions``): 503 ``try_again`` with a short ``Retry-After``: not an outage,
  the same request sent again succeeds.

Elsewhere they render the pages' templates, and the database unreachable is the translated
503 page with ``Retry-After`` instead of the 500 page (a deadlock: a 503 page that asks to
send the form again). Nothing is half-written meanwhile: every service runs in one
transaction, which the database rolls back when it fails or its connection is lost.
"""

import sys

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent
from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.utils.translation import gettext
from django.views import defaults
from rest_framework import exceptions

from api import errors as api_errors
from clubs.transactions import retryable

RETRY_AFTER_SECONDS = 5
"""How long a client is asked to wait after a 503 for the database (``Retry-After``)."""


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or an error it was raised from) says the database cannot be used now:
    a connection refused or lost, a server shutting down, a lock not granted in time."""
    if retryable(exc):  # the database works: it ended one transaction of a deadlock
        return False
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, OperationalError | InterfaceError):
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _api(request: HttpRequest) -> bool:
    return request.path_info.startswith("/api/")


def _retry_after() -> dict[str, str]:
    return {"Retry-After": str(RETRY_AFTER_SECONDS)}


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.bad_request(request, exception)
    if isinstance(exception, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = gettext("The request body is larger than %(limit)d bytes, the most accepted.")
        return api_errors.response_for(api_errors.PayloadTooLarge(detail % {"limit": limit}))
    if isinstance(exception, TooManyFieldsSent):
        limit = settings.DATA_UPLOAD_MAX_NUMBER_FIELDS
        detail = gettext("The request has more than %(limit)d parameters.")
        error = api_errors.BadRequest(detail % {"limit": limit}, code="too_many_fields")
        return api_errors.response_for(error)
    return api_errors.response_for(api_errors.BadRequest())


def permission_denied(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.permission_denied(request, exception)
    return api_errors.response_for(exceptions.PermissionDenied())


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if not _api(request):
        return defaults.page_not_found(request, exception)
    return api_errors.response_for(exceptions.NotFound())


def server_error(request: HttpRequest) -> HttpResponse:
    """Django calls this while it handles the uncaught exception, which ``sys.exc_info()``
    gives (Django has logged it with its traceback already)."""
    error = sys.exc_info()[1]
    if retryable(error):
        try_again = {"Retry-After": str(api_errors.TryAgain.retry_after)}
        if _api(request):
            return api_errors.response_for(api_errors.TryAgain(), try_again)
        page = loader.get_template("503_try_again.html").render()
        return HttpResponse(page, status=503, headers=try_again)
    unavailable = database_unavailable(error)
    if _api(request):
        if unavailable:
            return api_errors.response_for(api_errors.ServiceUnavailable(), _retry_after())
        return api_errors.response_for(api_errors.ServerError())
    if unavailable:
        page = loader.get_template("503.html").render()
        return HttpResponse(page, status=503, headers=_retry_after())
    return defaults.server_error(request)
