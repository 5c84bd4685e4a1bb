"""Django's own error answers (config/errors.py): the API's JSON shape under /api/ for what
fails outside a view, the pages' templates elsewhere, and a 503 while the database is down."""

from datetime import date
from types import SimpleNamespace
from unittest.mock import patch

import psycopg.errors
import pytest
from django.db import IntegrityError, InterfaceError, OperationalError, connection
from django.test import Client
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs import transactions
from clubs.models import Session, Table
from clubs.services import player_create
from clubs.transactions import ATTEMPTS
from config.errors import database_unavailable
from matches.models import Deal, Match
from matches.services import deal_record, match_create
from scoring.engine import Played
from tests.clubs.factories import make_club, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def club():
    """A public club "ace" with its director (``club.director``) and four players."""
    director = make_user("dora")
    club = make_club(creator=director, name="Ace", slug="ace", public=True)
    return SimpleNamespace(
        pk=club.pk,
        club=club,
        director=director,
        players=[player_create(club=club, name=f"Player {n}") for n in range(4)],
    )


def api_client(**credentials) -> APIClient:
    """A client that gets the answer a real client would (not the view's exception)."""
    client = APIClient(raise_request_exception=False)
    client.credentials(**credentials)
    return client


def token_client(user) -> APIClient:
    return api_client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")


def api_error(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"code", "detail", "errors", "codes"} and body["code"] == code, body
    return body


def database_down():
    """Every connection attempt and query fails, as while PostgreSQL is stopped."""
    refused = OperationalError("connection to server at 127.0.0.1 failed: Connection refused")
    return patch.object(connection, "ensure_connection", side_effect=refused)


# --- requests Django refuses before any view ---------------------------------------------------


def test_a_body_over_the_limit_is_a_413_naming_the_limit(club, settings):
    body = '{"name": "' + "x" * 10_000_000 + '"}'
    response = token_client(club.director).post(
        "/api/v1/players/", body, content_type="application/json"
    )
    detail = api_error(response, 413, "too_large")["detail"]
    assert str(settings.DATA_UPLOAD_MAX_MEMORY_SIZE) in detail


def test_too_many_parameters_are_a_400(club):
    query = "&".join("p=1" for n in range(1001))  # short: a URL over 4096 characters is a 414
    response = api_client().get(f"/api/v1/clubs/?{query}")
    assert "1000" in api_error(response, 400, "too_many_fields")["detail"]


def test_a_host_not_allowed_is_a_400_in_the_apis_shape_and_a_page_elsewhere(club):
    response = api_client().get("/api/v1/clubs/", HTTP_HOST="evil.example")
    api_error(response, 400, "bad_request")
    response = Client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400 and response["Content-Type"].startswith("text/html")


def test_paths_under_api_outside_v1_are_a_json_404(club):
    api_error(api_client().get("/api/v2/clubs/"), 404, "not_found")
    api_error(api_client().get("/api/"), 404, "not_found")
    page = Client().get("/no-such-page/")
    assert page.status_code == 404 and "There is no such page" in page.content.decode()


def test_an_uncaught_error_in_the_api_is_a_500_in_its_shape(club, monkeypatch):
    from api import access

    def broken(request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(access, "readable_clubs", broken)
    body = api_error(api_client().get("/api/v1/clubs/"), 500, "server_error")
    assert "a bug" not in body["detail"]


# --- the database down -------------------------------------------------------------------------


@pytest.mark.parametrize("client_kind", ["token", "session", "anonymous"])
def test_the_api_answers_503_with_retry_after_while_the_database_is_down(club, client_kind):
    if client_kind == "token":
        client = token_client(club.director)
    else:
        client = api_client()
        if client_kind == "session":
            client.force_login(club.director)
    with database_down():
        response = client.get("/api/v1/clubs/")
    api_error(response, 503, "unavailable")
    assert response["Retry-After"] == "5"
    assert "X-Request-ID" in response  # the request line is logged, with its 503
    # And once it is back, the same request is answered.
    assert client.get("/api/v1/clubs/").status_code == 200


@pytest.mark.parametrize("signed_in", [False, True])
def test_pages_answer_a_translated_503_while_the_database_is_down(club, signed_in):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="pl")
    if signed_in:
        client.force_login(club.director)
    with database_down():
        response = client.get("/clubs/ace/")
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "X-Request-ID" in response
    page = response.content.decode()
    assert '<html lang="pl">' in page and "Chwilowo niedostępne" in page


@pytest.mark.parametrize("path", ["/login/", "/admin/login/"])
def test_a_login_while_the_database_is_down_is_a_503_page(club, settings, path):
    """django-axes checks the attempt in the database before the password is."""
    settings.AXES_ENABLED = True
    client = Client(raise_request_exception=False)
    with database_down():
        response = client.post(path, {"username": "dora", "password": "pw", "next": "/"})
    assert response.status_code == 503 and response["Retry-After"] == "5"


def test_database_errors_are_recognised_through_what_they_caused():
    def raised_from(cause):
        try:
            raise RuntimeError("while reading the session") from cause
        except RuntimeError as error:
            return error

    assert database_unavailable(OperationalError("the server closed the connection"))
    assert database_unavailable(InterfaceError("connection already closed"))
    assert database_unavailable(raised_from(OperationalError("terminating connection")))
    assert not database_unavailable(raised_from(ValueError("a bug")))
    assert not database_unavailable(IntegrityError("a duplicate key"))
    assert not database_unavailable(None)


def fail_after_insert_into(table: str):
    """A query wrapper: the database goes away right after a row is written to ``table``
    (savepoint statements still pass, as the test's own transaction needs them)."""
    written = False

    def wrapper(execute, sql, params, many, context):
        nonlocal written
        statement = sql.lstrip().upper()
        if written and not statement.startswith(("SAVEPOINT", "RELEASE", "ROLLBACK")):
            raise OperationalError("server closed the connection unexpectedly")
        result = execute(sql, params, many, context)
        written = written or statement.startswith(f'INSERT INTO "{table.upper()}"')
        return result

    return wrapper


def test_a_503_never_hides_a_half_written_match_or_deal(club):
    client = token_client(club.director)
    seats = dict(zip("NESW", (p.pk for p in club.players), strict=True))
    body = {"club": club.pk, "kind": "chicago", "played_on": "2025-05-02", "seats": seats}
    with connection.execute_wrapper(fail_after_insert_into("matches_match")):
        response = client.post("/api/v1/matches/", body, format="json")
    api_error(response, 503, "unavailable")
    assert not Match.objects.exists()
    assert not Table.objects.exists() and not Session.objects.exists()

    match = match_create(
        club=club.club,
        kind="chicago",
        seats=dict(zip("NESW", club.players, strict=True)),
        played_on=date(2025, 5, 2),
    )
    deal_record(match=match, result=Played("4S", "N", 10))
    with connection.execute_wrapper(fail_after_insert_into("matches_deal")):
        response = client.post(
            f"/api/v1/matches/{match.pk}/deals/",
            {"contract": "3NT", "declarer": "E", "tricks": 9},
            format="json",
        )
    api_error(response, 503, "unavailable")
    assert list(Deal.objects.values_list("sequence", flat=True)) == [1]
    match.refresh_from_db()
    assert (match.total_ns, match.total_ew) == (420, 0)


# --- a deadlock: the server runs the write again, then asks to try again ------------------------


def deadlock_on_insert_into(table: str, times: int):
    """A query wrapper: the database ends the transaction as a deadlock's victim at the first
    ``times`` rows written to ``table`` (as PostgreSQL raises it: Django's OperationalError
    from psycopg's DeadlockDetected); ``wrapper.attempts`` counts the writes tried."""

    def wrapper(execute, sql, params, many, context):
        if sql.lstrip().upper().startswith(f'INSERT INTO "{table.upper()}"'):
            wrapper.attempts += 1
            if wrapper.attempts <= times:
                error = OperationalError("deadlock detected")
                error.__cause__ = psycopg.errors.DeadlockDetected("deadlock detected")
                raise error
        return execute(sql, params, many, context)

    wrapper.attempts = 0
    return wrapper


@pytest.fixture
def no_pause(monkeypatch):
    monkeypatch.setattr(transactions, "_pause", lambda attempt: None)


def match_body(club) -> dict:
    seats = dict(zip("NESW", (p.pk for p in club.players), strict=True))
    return {"club": club.pk, "kind": "chicago", "played_on": "2025-05-02", "seats": seats}


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [None, "start-1"])
def test_a_deadlock_is_retried_inside_the_server(club, no_pause, key):
    client = token_client(club.director)
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    deadlocks = deadlock_on_insert_into("matches_match", times=ATTEMPTS - 1)
    with connection.execute_wrapper(deadlocks):
        response = client.post("/api/v1/matches/", match_body(club), format="json", **headers)
    assert response.status_code == 201, response.json()
    assert deadlocks.attempts == ATTEMPTS
    # Written once: each attempt that failed left nothing.
    assert Match.objects.count() == 1 and Table.objects.count() == 1
    assert Session.objects.count() == 1
    if key:
        again = client.post("/api/v1/matches/", match_body(club), format="json", **headers)
        assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
        assert again.json() == response.json() and Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("key", [None, "start-1"])
def test_a_deadlock_that_remains_is_a_503_to_try_again_not_an_outage(club, no_pause, key):
    client = token_client(club.director)
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    deadlocks = deadlock_on_insert_into("matches_match", times=ATTEMPTS)
    with connection.execute_wrapper(deadlocks):
        response = client.post("/api/v1/matches/", match_body(club), format="json", **headers)
    body = api_error(response, 503, "try_again")
    assert response["Retry-After"] == "1"
    assert "cannot be reached" not in body["detail"] and "Send it again" in body["detail"]
    assert deadlocks.attempts == ATTEMPTS  # bounded: the outermost transaction alone retries
    assert not Match.objects.exists() and not Session.objects.exists()
    # Sent again, it is recorded (once).
    response = client.post("/api/v1/matches/", match_body(club), format="json", **headers)
    assert response.status_code == 201 and Match.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_a_deadlock_that_remains_is_a_translated_page_to_try_again(club, no_pause):
    client = Client(raise_request_exception=False, HTTP_ACCEPT_LANGUAGE="pl")
    client.force_login(club.director)
    form = {
        "kind": "chicago",
        **{
            seat: p.pk
            for seat, p in zip(("north", "east", "south", "west"), club.players, strict=True)
        },
        "first_dealer": "N",
        "played_on": "2025-05-02",
    }
    deadlocks = deadlock_on_insert_into("matches_match", times=ATTEMPTS)
    with connection.execute_wrapper(deadlocks):
        response = client.post("/clubs/ace/matches/new/", form)
    assert response.status_code == 503 and response["Retry-After"] == "1"
    page = response.content.decode()
    assert '<html lang="pl">' in page and "Spróbuj ponownie" in page
    assert "Chwilowo niedostępne" not in page
    assert deadlocks.attempts == ATTEMPTS and not Match.objects.exists()
    with connection.execute_wrapper(deadlock_on_insert_into("matches_match", times=1)):
        response = client.post("/clubs/ace/matches/new/", form)
    assert response.status_code == 302 and Match.objects.count() == 1


def test_a_deadlock_is_not_taken_for_an_outage():
    error = OperationalError("deadlock detected")
    error.__cause__ = psycopg.errors.DeadlockDetected("deadlock detected")
    assert not database_unavailable(error)
    error = OperationalError("could not serialize access")
    error.__cause__ = psycopg.errors.SerializationFailure("could not serialize access")
    assert not database_unavailable(error)
