"""One error format for every API response that is not a success.

    {"code": "invalid", "detail": "tricks: tricks must be 0 to 13, got 14",
     "errors": {"tricks": ["tricks must be 0 to 13, got 14"]},
     "codes": {"tricks": ["max_value"]}}

``code`` is a stable machine-readable word (invalid, parse_error, not_authenticated,
authentication_failed, permission_denied, not_found, method_not_allowed, conflict,
idempotency_key_reused, throttled, ...); ``detail`` is one human sentence; ``errors`` maps
each bad field (nested fields dotted, e.g. ``seats.N``; query parameters by name) to its
messages, and is empty when no field is at fault. ``codes`` is keyed as ``errors``, a stable
machine-readable word beside each message, in the same order (``required``, ``max_value``,
``unknown_field``, ``season_overlap``, ...): the messages are translated, the codes never
change with the language.

The handler also turns the services' errors into HTTP: Django's ``ValidationError`` with a
field dict is a 400 on those fields (a view may rename service fields to its own with
``service_error_fields``) and a service's ``NotPermitted`` a 403 naming them, the engine's
``InvalidInput`` a 400 on its field, ``MatchConflict`` and the engine's ``MatchComplete`` a
409, a database integrity error (a concurrent write that lost a race) a 409 instead of a
500, and a deadlock or serialization failure that remained after the server ran the write
again (``clubs.transactions``) a 503 ``try_again`` with a short ``Retry-After``, not the
outage's ``unavailable``.

What fails outside DRF's views (a body over Django's size limit, a Host header not allowed, the
database unreachable, any uncaught error) reaches Django's own error handlers, which answer
under /api/ with ``response_for`` (config/errors.py): the same shape, never an HTML page.
"""

from django.core.exceptions import NON_FIELD_ERRORS
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import IntegrityError
from django.http import Http404, HttpResponse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.exceptions import ErrorDetail
from rest_framework.renderers import JSONRenderer
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler

from clubs.messages import engine_message
from clubs.services import NotPermitted
from clubs.transactions import retryable
from matches.services import MatchConflict
from scoring.engine import InvalidInput, MatchComplete


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_detail = _("The request conflicts with the current state of the data.")
    default_code = "conflict"


class IdempotencyKeyReused(exceptions.APIException):
    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_detail = _(
        "This Idempotency-Key was already used for a different request; "
        "use a new key for a new request."
    )
    default_code = "idempotency_key_reused"


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = _("The request body is too large.")
    default_code = "too_large"


class BadRequest(exceptions.APIException):
    status_code = status.HTTP_400_BAD_REQUEST
    default_detail = _("The request is malformed.")
    default_code = "bad_request"


class EventsGone(exceptions.APIException):
    """A events cursor older than the newest event pruned (``api.retention``): the client
    missed events it can no longer be shown. ``since``: where to resume once it has read the
    current data again."""

    status_code = status.HTTP_410_GONE
    default_code = "events_gone"

    def __init__(self, since: int, days: int):
        super().__init__(
            _(
                "Events up to %(since)s are no longer kept (they are kept %(days)s days): read "
                "the data you follow again (matches, ladders), then list the events with "
                "since=%(since)s."
            )
            % {"since": since, "days": days}
        )
        self.since = since


class PreconditionFailed(exceptions.APIException):
    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_detail = _(
        "The data changed since your copy (If-Match names another ETag); fetch it again, "
        "then retry with its ETag."
    )
    default_code = "precondition_failed"


class ServiceUnavailable(exceptions.APIException):
    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _(
        "The database cannot be reached at the moment. Retry in a few seconds; with the same "
        "Idempotency-Key, a retry never records twice."
    )
    default_code = "unavailable"


class TryAgain(exceptions.APIException):
    """A write the database ended to break a deadlock (or could not serialize), still after
    the server ran it again (``clubs.transactions``): nothing of it stayed, and the same
    request sent again succeeds. Not an outage: ``Retry-After`` is short."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_detail = _(
        "Another change was written at the same moment and this one could not be; nothing of "
        "it was recorded. Send it again; with the same Idempotency-Key, a retry never records "
        "twice."
    )
    default_code = "try_again"
    retry_after = 1
    """Seconds (``Retry-After``)."""


class ServerError(exceptions.APIException):
    default_detail = _("Something went wrong on our side. Please try again in a moment.")
    default_code = "server_error"


# Codes raised with ``code=`` instead of their exception class's ``default_code``, by status
# (config/errors.py). tests/api/test_error_codes.py finds every such ``code=`` in the code base
# and fails while one is missing here.
EXPLICIT_CODES: dict[int, tuple[str, ...]] = {
    status.HTTP_400_BAD_REQUEST: ("too_many_fields",),
}


def _exception_classes(cls: type[exceptions.APIException]):
    yield cls
    for sub in cls.__subclasses__():
        yield from _exception_classes(sub)


def codes_by_status() -> dict[int, list[str]]:
    """Every ``code`` an error body can carry, by HTTP status: the ``default_code`` of each
    API exception class (DRF's and ours; a ``ValidationError``'s body is always ``invalid``,
    ``error_body``) and ``EXPLICIT_CODES``. The schema's error bodies declare ``code`` as this
    enum (api.schema), so a new exception class or status is declared by defining it."""
    found: dict[int, set[str]] = {}
    for cls in _exception_classes(exceptions.APIException):
        if cls is exceptions.APIException:
            continue
        found.setdefault(cls.status_code, set()).add(str(cls.default_code))
    for code, names in EXPLICIT_CODES.items():
        found.setdefault(code, set()).update(names)
    return {code: sorted(names) for code, names in sorted(found.items())}


def _rename(field: str, renames: dict[str, str]) -> str:
    if field == NON_FIELD_ERRORS:
        return api_settings.NON_FIELD_ERRORS_KEY
    return renames.get(field, field)


DEFAULT_CODE = "invalid"
"""The code of a field's message that was given none."""


def _details(errors: list[DjangoValidationError]) -> list[ErrorDetail]:
    """Django's errors as DRF's messages, each with its code."""
    return [
        ErrorDetail(str(message), code=error.code or DEFAULT_CODE)
        for error in errors
        for message in error
    ]


def _from_django(exc: DjangoValidationError, renames: dict[str, str]) -> exceptions.ValidationError:
    if hasattr(exc, "error_dict"):
        detail: dict[str, list[ErrorDetail]] = {}
        for field, errors in exc.error_dict.items():
            detail.setdefault(_rename(field, renames), []).extend(_details(errors))
        return exceptions.ValidationError(detail)
    return exceptions.ValidationError({api_settings.NON_FIELD_ERRORS_KEY: _details(exc.error_list)})


def convert(exc: Exception, renames: dict[str, str] | None = None) -> Exception:
    """The API exception for a service's or the engine's exception (others unchanged)."""
    renames = renames or {}
    if isinstance(exc, NotPermitted):  # before ValidationError, which it is
        return exceptions.PermissionDenied(_from_django(exc, renames).detail)
    if isinstance(exc, DjangoValidationError):
        return _from_django(exc, renames)
    if isinstance(exc, InvalidInput):
        message = ErrorDetail(engine_message(exc), code="not_allowed")
        return exceptions.ValidationError({_rename(exc.field, renames): [message]})
    if isinstance(exc, MatchComplete):
        return Conflict(engine_message(exc))
    if isinstance(exc, MatchConflict):
        return Conflict(str(exc) or Conflict.default_detail)
    if retryable(exc):  # a deadlock, before it is taken for an outage (config/errors.py)
        return TryAgain()
    if isinstance(exc, IntegrityError):
        return Conflict(
            gettext(
                "The data changed while this request was handled (another request was "
                "first); fetch it again and retry."
            )
        )
    if isinstance(exc, Http404):
        return exceptions.NotFound()
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    return exc


def flatten(detail, prefix: str = "") -> dict[str, list[str]]:
    """A DRF error detail (nested dicts and lists) as {"dotted.field": [message, ...]}; each
    message keeps its code (an ``ErrorDetail``, a ``str``)."""
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            nested_whole = key == api_settings.NON_FIELD_ERRORS_KEY and prefix
            name = prefix.rstrip(".") if nested_whole else f"{prefix}{key}"
            for field, messages in flatten(value, f"{name}.").items():
                out.setdefault(field or name, []).extend(messages)
        return out
    if isinstance(detail, list | tuple):
        for index, value in enumerate(detail):
            if isinstance(value, dict | list | tuple):
                for field, messages in flatten(value, f"{prefix}{index}.").items():
                    out.setdefault(field, []).extend(messages)
            else:
                out.setdefault("", []).append(_message(value))
        if "" in out and prefix:
            out[prefix.rstrip(".")] = out.pop("")
        return out
    out[""] = [_message(detail)]
    return out


def _message(value) -> ErrorDetail:
    if isinstance(value, ErrorDetail):
        return value
    return ErrorDetail(str(value), code=DEFAULT_CODE)


def codes_of(errors: dict[str, list[str]]) -> dict[str, list[str]]:
    """Each field's messages' codes, in their order."""
    return {
        field: [getattr(message, "code", None) or DEFAULT_CODE for message in messages]
        for field, messages in errors.items()
    }


def _plain(errors: dict[str, list[str]]) -> dict[str, list[str]]:
    return {field: [str(message) for message in messages] for field, messages in errors.items()}


def error_body(exc: exceptions.APIException) -> dict:
    if isinstance(exc, exceptions.ValidationError):
        errors = flatten(exc.detail)
        if "" in errors:
            errors.setdefault(api_settings.NON_FIELD_ERRORS_KEY, []).extend(errors.pop(""))
        parts = []
        for field, messages in errors.items():
            for message in messages:
                shown = field != api_settings.NON_FIELD_ERRORS_KEY
                parts.append(f"{field}: {message}" if shown else message)
        return {
            "code": "invalid",
            "detail": "; ".join(parts) or gettext("Invalid input."),
            "errors": _plain(errors),
            "codes": codes_of(errors),
        }
    detail = exc.detail
    if isinstance(detail, list | dict):  # an APIException raised with structured detail
        errors = flatten(detail)
        text = "; ".join(m for messages in errors.values() for m in messages)
        return {
            "code": _code(exc),
            "detail": text,
            "errors": _plain(errors),
            "codes": codes_of(errors),
        }
    return {"code": _code(exc), "detail": str(detail), "errors": {}, "codes": {}}


def response_for(
    exc: exceptions.APIException, headers: dict[str, str] | None = None
) -> HttpResponse:
    """``exc`` as the API answers it, for code that runs outside DRF's views."""
    body = JSONRenderer().render(error_body(exc))
    return HttpResponse(
        body, status=exc.status_code, content_type="application/json", headers=headers
    )


def _code(exc: exceptions.APIException) -> str:
    code = getattr(exc.detail, "code", None)
    return code if isinstance(code, str) else exc.default_code


def exception_handler(exc, context):
    view = context.get("view")
    renames = getattr(view, "service_error_fields", None)
    exc = convert(exc, renames)
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    response.data = error_body(exc)
    if isinstance(exc, TryAgain):
        response["Retry-After"] = str(exc.retry_after)
    if isinstance(exc, EventsGone):
        response.data["since"] = exc.since
    return response
