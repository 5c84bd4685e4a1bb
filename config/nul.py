"""No NUL character from a request reaches the database.

PostgreSQL refuses a NUL (``\\x00``, ``%00`` in a URL) in text, so a lookup or a write with
one raises deep inside the ORM: a 500, with a traceback logged each time, for any client
that types ``/t/%00/``. ``NulMiddleware`` answers such a request with a 400 before any view
or middleware that reads the database (the session, the user, django-axes) sees it, where
there is a NUL in:

- the path: under /api/ a 400 ``bad_request``; a page: the short translated 400 page;
- a query parameter's name or value, or a field of a form's body (form-encoded, or multipart
  up to ``DATA_UPLOAD_MAX_MEMORY_SIZE``: a larger one is a file's upload, left to its view;
  the history import reads its file for NULs itself, ``matches.season_csv``): under /api/ a
  400 ``invalid`` naming it (code ``null_characters_not_allowed``, as a text filter answers,
  ``api.filters``); a page: the 400 page;
- a header or a cookie (the session's, ``Authorization``): a 400 ``bad_request`` naming the
  header; a page: the 400 page.

A JSON body's strings are checked by the API's parser (``api.parsers``), which names the
field. The URL converters match no NUL either (``clubs.urls``).
"""

from collections.abc import Callable, Iterable

from django.conf import settings
from django.core.exceptions import SuspiciousOperation
from django.core.validators import ProhibitNullCharactersValidator
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext
from django.views import defaults
from rest_framework import exceptions
from rest_framework.exceptions import ErrorDetail

from api import errors as api_errors

NUL = "\x00"


def _header_name(meta_key: str) -> str:
    """``HTTP_X_API_KEY`` as ``X-Api-Key``."""
    return "-".join(part.capitalize() for part in meta_key.removeprefix("HTTP_").split("_"))


def _with_nul(lists: Iterable[tuple[str, list]]) -> list[str]:
    """The names of the parameters (or fields) whose name or any value holds a NUL."""
    return [
        name
        for name, values in lists
        if NUL in name or any(isinstance(value, str) and NUL in value for value in values)
    ]


def _field_errors(names: list[str]) -> exceptions.ValidationError:
    validator = ProhibitNullCharactersValidator()
    message = str(validator.message)  # Django's own, in the request's language
    return exceptions.ValidationError(
        {name: [ErrorDetail(message, code=validator.code)] for name in names}
    )


class NulMiddleware:
    """Placed before everything that reads the database (after the language is known)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.refusal(request) or self.get_response(request)

    def refusal(self, request: HttpRequest) -> HttpResponse | None:
        api = request.path_info.startswith("/api/")
        if NUL in request.path_info or NUL in request.path:
            return self._bad(request, api, gettext("The address holds a NUL character."))
        headers = [key for key, value in request.META.items() if _is_header(key, value)]
        if any(NUL in name or NUL in value for name, value in request.COOKIES.items()):
            headers.insert(0, "HTTP_COOKIE")  # a cookie's escapes (\000) decoded
        if headers:
            detail = gettext("The %(header)s header holds a NUL character.") % {
                "header": _header_name(headers[0])
            }
            return self._bad(request, api, detail)
        names = _with_nul(request.GET.lists())
        if request.method == "POST" and _form(request):
            names += _with_nul(request.POST.lists())
        if names:
            if api:
                return api_errors.response_for(_field_errors(names))
            return defaults.bad_request(request, SuspiciousOperation("a NUL character"))
        return None

    @staticmethod
    def _bad(request: HttpRequest, api: bool, detail: str) -> HttpResponse:
        if api:
            return api_errors.response_for(api_errors.BadRequest(detail))
        return defaults.bad_request(request, SuspiciousOperation(detail))


def _form(request: HttpRequest) -> bool:
    """Whether the body is a form this middleware reads: form-encoded, or multipart up to
    ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (a form's fields; a larger one is a file's upload, which
    its view reads, setting its own upload handlers if it likes)."""
    if request.content_type == "application/x-www-form-urlencoded":
        return True
    if request.content_type != "multipart/form-data":
        return False
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return False
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return limit is None or length <= limit


def _is_header(key: str, value: object) -> bool:
    return key.startswith("HTTP_") and isinstance(value, str) and NUL in value
