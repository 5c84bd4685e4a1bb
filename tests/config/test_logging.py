"""Logs: one JSON line per request, with its request id, method, path, status and user; plain
lines (LOG_FORMAT=plain) escape control characters as JSON does."""

import io
import json
import logging
import logging.config
import re
from urllib.parse import quote

import pytest
from django.conf import settings

from config.logging import ContextFilter, JsonFormatter, bind, bound, log_context

pytestmark = pytest.mark.urls("tests.config.logging_urls")


@pytest.fixture
def log_lines():
    """Everything logged, formatted by the production formatter, as parsed JSON objects."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.addHandler(handler)
    old_level, root.level = root.level, logging.INFO
    try:
        yield lambda: [json.loads(line) for line in stream.getvalue().splitlines()]
    finally:
        root.removeHandler(handler)
        root.level = old_level


def request_lines(lines):
    return [line for line in lines if line["logger"] == "partscore.request"]


def test_production_logs_json_through_the_context_filter():
    console = settings.LOGGING["handlers"]["console"]
    assert console["formatter"] == "json"  # DEBUG is off under test, as in production
    assert console["filters"] == ["context"]
    assert settings.MIDDLEWARE[0] == "config.logging.RequestLogMiddleware"


@pytest.mark.django_db
def test_a_request_logs_one_json_line_with_its_request_id(client, log_lines):
    response = client.get("/club/?page=2")

    request_id = response["X-Request-ID"]
    assert re.fullmatch(r"[0-9a-f]{32}", request_id)
    [line] = request_lines(log_lines())
    assert line["request_id"] == request_id
    assert line["method"] == "GET"
    assert line["path"] == "/club/"
    assert line["status"] == 200
    assert line["user"] is None
    assert line["level"] == "INFO"
    assert line["message"] == "GET /club/ 200"
    assert isinstance(line["duration_ms"], float)
    assert line["time"]


@pytest.mark.django_db
def test_a_view_binds_fields_onto_its_lines_and_the_request_line(client, log_lines):
    response = client.get("/club/", headers={"X-Request-ID": "edge-7f3a.1"})

    assert response["X-Request-ID"] == "edge-7f3a.1"
    lines = log_lines()
    [view_line] = [line for line in lines if line["logger"] == "partscore.tests"]
    [request_line] = request_lines(lines)
    for line in (view_line, request_line):
        assert line["request_id"] == "edge-7f3a.1"
        assert line["club"] == "hearts"


@pytest.mark.parametrize("incoming", ["has spaces", "x" * 200, "line\nbreak", "-starts-with-dash"])
@pytest.mark.django_db
def test_an_unusable_incoming_request_id_is_replaced(client, log_lines, incoming):
    response = client.get("/club/", HTTP_X_REQUEST_ID=incoming)
    assert re.fullmatch(r"[0-9a-f]{32}", response["X-Request-ID"])
    assert request_lines(log_lines())[0]["request_id"] == response["X-Request-ID"]


@pytest.mark.django_db
def test_the_line_names_the_logged_in_user(client, log_lines, django_user_model):
    """By name when the answer read the account; by id when it never needed it (a poll
    answered 304 from the cache: reading it would be that request's one query)."""
    user = django_user_model.objects.create_user("director")
    client.force_login(user)
    client.get("/whoami/")
    client.get("/club/")
    assert [line["user"] for line in request_lines(log_lines())] == ["director", f"#{user.pk}"]


@pytest.mark.django_db
def test_a_bound_user_names_an_api_key_client(client, log_lines):
    client.get("/keyed/")
    assert request_lines(log_lines())[0]["user"] == "key:1a2b3c4d"


@pytest.mark.django_db
def test_failed_authorizations_are_warnings(client, log_lines):
    assert client.get("/forbidden/").status_code == 403
    assert client.get("/token-only/", HTTP_AUTHORIZATION="Token not-a-token").status_code == 401

    lines = request_lines(log_lines())
    assert [(line["status"], line["level"]) for line in lines] == [
        (403, "WARNING"),
        (401, "WARNING"),
    ]


def test_bind_outside_a_request_and_log_context_restore_what_was_bound():
    with log_context(task="ladder"):
        bind(club="spades")
        assert dict(bound()) == {"task": "ladder", "club": "spades"}
    assert "task" not in bound()


def plain_formatter() -> logging.Formatter:
    """The formatter LOG_FORMAT=plain configures, built from the settings as dictConfig does."""
    configurator = logging.config.DictConfigurator(settings.LOGGING)
    return configurator.configure_formatter(configurator.config["formatters"]["plain"])


@pytest.fixture
def plain_log():
    """Everything logged, formatted by the plain formatter, as the text written."""
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(ContextFilter())
    handler.setFormatter(plain_formatter())
    root = logging.getLogger()
    root.addHandler(handler)
    old_level, root.level = root.level, logging.INFO
    try:
        yield stream.getvalue
    finally:
        root.removeHandler(handler)
        root.level = old_level


def test_plain_lines_carry_the_request_id():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", None, None)
    with log_context(request_id="abc"):
        ContextFilter().filter(record)
    assert plain_formatter().format(record).endswith("INFO x [abc] hello")


# A path that would forge a second line, with other controls: CR, tab, ESC (a terminal's
# colours), DEL, a C1 control (NEL), a bidi override and isolate, and a backslash.
FORGED = "/club/\n2025-01-01 00:00:00,000 INFO partscore.request [x] GET /admin/ 200"
CONTROLS = "\r\t\x1b[31m\x7f\x85\u202e\u2066\\"
ESCAPED = (
    "/club/\\n2025-01-01 00:00:00,000 INFO partscore.request [x] GET /admin/ 200"
    "\\r\\t\\u001b[31m\\u007f\\u0085\\u202e\\u2066\\\\"
)


@pytest.mark.django_db
def test_a_plain_line_escapes_the_control_characters_of_a_request_path(client, plain_log):
    response = client.get(quote(FORGED + CONTROLS))
    assert response.status_code == 404

    [line] = plain_log().splitlines()
    request_id = response["X-Request-ID"]
    assert line.endswith(f" INFO partscore.request [{request_id}] GET {ESCAPED} 404")
    assert line.isprintable()


def test_plain_lines_escape_the_message_its_arguments_and_every_field(plain_log):
    logger = logging.getLogger("partscore.tests")
    with log_context(request_id="a\nb"):
        logger.warning("club %s\u2028said\r%r", "x\ny", "\x00")
    logging.getLogger("odd\nname").info("hi\x9b")

    assert (
        plain_log()
        .splitlines()[0]
        .endswith("WARNING partscore.tests [a\\nb] club x\\ny\\u2028said\\r'\\\\x00'")
    )
    assert plain_log().splitlines()[1].endswith("INFO odd\\nname [-] hi\\u009b")
    assert len(plain_log().splitlines()) == 2


def test_a_plain_traceback_keeps_its_lines_indented_and_escaped(plain_log):
    try:
        raise ValueError("bad\n2025-01-01 00:00:00,000 INFO forged [-] line\x1b")
    except ValueError:
        logging.getLogger("partscore.tests").exception("failed")

    first, *traceback = plain_log().splitlines()
    assert first.endswith("ERROR partscore.tests [-] failed")
    assert traceback[0] == "    Traceback (most recent call last):"
    assert traceback[-2:] == [
        "    ValueError: bad",
        "    2025-01-01 00:00:00,000 INFO forged [-] line\\u001b",
    ]
    assert all(line.startswith("    ") for line in traceback)
