"""Request logging: one line per request, with a request id, as JSON (or plain text).

`RequestLogMiddleware` gives each request an id (the incoming `X-Request-ID` when it is a
sane token, a new one otherwise), returns it in the `X-Request-ID` response header and, when
the response is out, logs one line on the `partscore.request` logger with the method, path,
status, duration and user. 401 and 403 answers are logged at WARNING, 5xx at ERROR.

Every record logged while a request is handled carries the request id and whatever a view
added with `bind()`, e.g. `bind(club=club.slug)`, or `bind(user="key:1a2b3c")` for an
API-key client (a bound `user` replaces the logged-in user in the request line).

Both formats keep one record on one line whatever a client sent: JSON escapes control
characters, and the plain format (`PlainFormatter`) escapes them the same way (a request path's
newline is written `\\n`), with C1 controls, bidi overrides and the backslash itself.
"""

from __future__ import annotations

import logging
import re
import time
import uuid
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from types import MappingProxyType
from typing import Any

from django.contrib.auth import SESSION_KEY
from django.db import DatabaseError
from django.utils.functional import empty
from pythonjsonlogger.core import RESERVED_ATTRS
from pythonjsonlogger.json import JsonFormatter as _JsonFormatter

REQUEST_ID_HEADER = "X-Request-ID"
_SANE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]{0,127}")
_EMPTY: Mapping[str, Any] = MappingProxyType({})
_fields: ContextVar[Mapping[str, Any]] = ContextVar("partscore_log_fields", default=_EMPTY)

request_logger = logging.getLogger("partscore.request")


def bind(**fields: Any) -> None:
    """Add fields to every log record of the current request (or task)."""
    _fields.set(MappingProxyType({**_fields.get(), **fields}))


def bound() -> Mapping[str, Any]:
    """The fields bound in the current context."""
    return _fields.get()


@contextmanager
def log_context(**fields: Any) -> Iterator[None]:
    """Bind fields for the duration of a block, then restore what was bound before."""
    token = _fields.set(MappingProxyType({**_fields.get(), **fields}))
    try:
        yield
    finally:
        _fields.reset(token)


def request_id_from(value: str | None) -> str:
    """The incoming id when it is a short token (so it cannot forge log lines), else a new one."""
    if value and _SANE_ID.fullmatch(value):
        return value
    return uuid.uuid4().hex


# A table's entry link (nights.pad): /t/<token>/ opens the table to whoever has it, so its
# token is never logged in full.
_TABLE_LINK = re.compile(r"/t/[^/\s?#'\"]+")
MASKED_LINK = "/t/***"


def mask_table_links(text: str) -> str:
    """``text`` with every table entry link's token masked."""
    return _TABLE_LINK.sub(MASKED_LINK, text)


def _mask(record: logging.LogRecord) -> None:
    texts = [record.msg, *_args(record), getattr(record, "path", "")]
    if not any("/t/" in str(text) for text in texts):
        return
    message = record.getMessage()
    record.msg, record.args = mask_table_links(message), ()
    path = getattr(record, "path", None)
    if isinstance(path, str):
        setattr(record, "path", mask_table_links(path))  # noqa: B010  (an extra field)


def _args(record: logging.LogRecord) -> tuple:
    args = record.args
    if isinstance(args, tuple):
        return args
    return () if args is None else (args,)


class ContextFilter(logging.Filter):
    """Copies the bound fields onto each record; `request_id` is always present ("-" outside).
    Masks the token of a table's entry link in the message and the ``path`` field (the request
    line, Django's "Not Found" and the dev server's lines alike)."""

    def filter(self, record: logging.LogRecord) -> bool:
        _mask(record)
        for key, value in _fields.get().items():
            if not hasattr(record, key):
                setattr(record, key, value)
        if not hasattr(record, "request_id"):
            # django.request logs some responses after the middleware has returned.
            request = getattr(record, "request", None)
            record.request_id = getattr(request, "request_id", "-")
        return True


# What a plain line escapes as JSON would: C0 controls, DEL, C1 controls, the line and
# paragraph separators, the bidi marks, embeddings, overrides and isolates, and the backslash.
_ESCAPES = {
    code: f"\\u{code:04x}"
    for code in (
        *range(0x20),
        *range(0x7F, 0xA0),
        0x061C,
        0x200E,
        0x200F,
        *range(0x2028, 0x202F),
        *range(0x2066, 0x206A),
    )
} | {ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t", ord("\\"): "\\\\"}


def escape_controls(text: str) -> str:
    """``text`` with every control character written as an escape: one line, read as sent."""
    return text.translate(_ESCAPES)


class PlainFormatter(logging.Formatter):
    """Plain text lines (`LOG_FORMAT=plain`) in which no field can start another line: the
    formatted line (message, its arguments and every other field) is escaped; a traceback
    keeps its own lines, each escaped and indented, so none of them reads as a record."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape_controls(super().formatMessage(record))

    def format(self, record: logging.LogRecord) -> str:
        # The record's line is escaped above; what follows it is a traceback or a stack.
        line, *trace = super().format(record).split("\n")
        return "\n".join([line, *("    " + escape_controls(more) for more in trace)])


class JsonFormatter(_JsonFormatter):
    """One JSON object per line: time, level, logger, message and every extra field."""

    def __init__(self) -> None:
        super().__init__(
            "{levelname}{name}{message}",
            style="{",
            rename_fields={"levelname": "level", "name": "logger"},
            timestamp="time",
            # Django passes the request object along; its id is logged, not its repr.
            reserved_attrs=[*RESERVED_ATTRS, "request", "server_time"],
        )


def _user(request) -> str | None:
    """The signed-in user's name; ``#<id>`` when the answer never needed the account (a 304
    of a poll answered from the cache, ``clubs.live``: reading it would be that request's one
    query)."""
    user = getattr(request, "user", None)  # absent when a middleware answered before auth
    try:
        if user is not None and getattr(user, "_wrapped", None) is empty:
            session = getattr(request, "session", None)
            pk = None if session is None else session.get(SESSION_KEY)
            return None if pk is None else f"#{pk}"
        if user is None or not user.is_authenticated:
            return None
    except DatabaseError:  # the session could not be read: the answer (a 503) says why
        return None
    return user.get_username()


def _level(status: int) -> int:
    if status >= 500:
        return logging.ERROR
    if status in (401, 403):  # failed authentication or authorization
        return logging.WARNING
    return logging.INFO


class RequestLogMiddleware:
    """First in MIDDLEWARE, so that every answer, redirects included, is logged once."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request_id = request_id_from(request.headers.get(REQUEST_ID_HEADER))
        request.request_id = request_id
        started = time.monotonic()
        with log_context(request_id=request_id):
            response = self.get_response(request)
            response[REQUEST_ID_HEADER] = request_id
            fields = {
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.monotonic() - started) * 1000, 1),
                "user": bound().get("user") or _user(request),
            }
            request_logger.log(
                _level(response.status_code),
                "%s %s %s",
                request.method,
                request.path,
                response.status_code,
                extra=fields,
            )
        return response
