"""Logs: one JSON line per request, with its request id, method, path, status and user."""

import io
import json
import logging
import re

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
    client.force_login(django_user_model.objects.create_user("director"))
    client.get("/club/")
    assert request_lines(log_lines())[0]["user"] == "director"


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


def test_plain_lines_carry_the_request_id():
    record = logging.LogRecord("x", logging.INFO, __file__, 1, "hello", None, None)
    with log_context(request_id="abc"):
        ContextFilter().filter(record)
    formatter = logging.Formatter(settings.LOGGING["formatters"]["plain"]["format"])
    assert formatter.format(record).endswith("INFO x [abc] hello")
