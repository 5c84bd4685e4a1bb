"""Every list runs the same number of queries for one row per page as for a hundred."""

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from api import webhooks
from clubs import services as club_services
from clubs.models import Membership, Session
from matches import services as match_services
from scoring.engine import PassedOut, Played
from tests.api.conftest import PLAYED_ON

pytestmark = pytest.mark.usefixtures("read_cache_off")


@pytest.fixture
def world(world_once):
    """The module's shared world, each test in a savepoint rolled back after it."""
    return world_once


@pytest.fixture
def busy_world(world):
    """Club A with several rows of everything (and a player who is also in club B)."""
    a = world.a
    players = [club_services.player_create(club=a.club, name=f"Extra {n}") for n in range(4)]
    Membership.objects.create(player=players[0], club=world.b.club)
    for n in range(3):
        match = match_services.match_create(
            club=a.club,
            kind="rubber" if n % 2 else "chicago",
            seats=dict(zip("NESW", players if n % 2 else a.players, strict=True)),
            played_on=PLAYED_ON,
        )
        match_services.deal_record(match=match, result=Played("2S", "S", 8))
        match_services.deal_record(match=match, result=PassedOut())
    club_services.season_create(
        club=a.club, name="2024", start_date="2024-01-01", end_date="2024-12-31"
    )
    for day in ("2025-04-01", "2025-04-08"):
        club_services.session_get_or_create(club=a.club, date=day)
    session = Session.objects.get(club=a.club, date=PLAYED_ON)
    club_services.table_create(session=session)
    club_services.club_create(
        creator=a.director, name="Alpha II", slug="alpha-2", country="PL", public=True
    )
    club_services.club_update(club=a.club, public=True)  # anonymous clients see it too
    return world


LISTS = [
    "/api/v1/clubs/",
    "/api/v1/players/",
    "/api/v1/seasons/",
    "/api/v1/sessions/",
    "/api/v1/tables/",
    "/api/v1/matches/",
]


def count_queries(client, url) -> tuple[int, int]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.json()
    return len(queries), len(response.json()["results"])


MEMBERS_ONLY = {"/api/v1/players/", "/api/v1/sessions/", "/api/v1/tables/"}
CASES = [
    (role, url)
    for role in ("director_a", "read_key_a", "player_a", "anonymous")
    for url in LISTS
    if not (role == "anonymous" and url in MEMBERS_ONLY)  # a 401 for anonymous clients
]


@pytest.mark.parametrize(("role", "url"), CASES)
def test_a_list_runs_the_same_queries_at_page_size_1_and_100(busy_world, role, url):
    client = busy_world.client(role)
    client.get(url)  # warm up per-process caches
    one, rows_one = count_queries(client, f"{url}?page_size=1")
    many, rows_many = count_queries(client, f"{url}?page_size=100")
    assert rows_one == 1 and rows_many >= 2, (rows_one, rows_many)
    assert one == many


def test_the_deals_list_runs_the_same_queries_for_each_page_size(busy_world):
    client = busy_world.client("director_a")
    url = f"/api/v1/matches/{busy_world.a.match.pk}/deals/"
    match_services.deal_record(match=busy_world.a.match, result=Played("1NT", "E", 7))
    one, rows_one = count_queries(client, f"{url}?page_size=1")
    many, rows_many = count_queries(client, f"{url}?page_size=100")
    assert (rows_one, rows_many) == (1, 2)
    assert one == many


def test_a_deal_written_through_the_api_reads_the_match_only_to_lock_it(world, director_a):
    """Before its lock a write asks only which club the match is at (not the whole match,
    table, session and club), and a club with no webhook endpoint looks for none."""
    url = f"/api/v1/matches/{world.a.match.pk}/deals/"
    body = {"contract": "2S", "declarer": "S", "tricks": 8}
    # An endpoint an earlier test made and rolled back may still be in the kept set.
    cache.delete(webhooks.ENDPOINT_CLUBS_KEY)
    first = director_a.post(url, body, format="json")  # keeps the clubs with endpoints: none
    with CaptureQueriesContext(connection) as queries:
        answer = director_a.post(url, {"contract": "3NT", "declarer": "E", "tricks": 9})
    assert answer.status_code == 201, answer.content
    sequence = first.json()["sequence"] + 1
    assert answer.json()["sequence"] == sequence
    reads = [query["sql"] for query in queries if query["sql"].lstrip().startswith("SELECT")]
    match_reads = [
        sql for sql in reads if 'FROM "matches_match"' in sql or "FROM matches_match" in sql
    ]
    assert len(match_reads) == 2  # its club, then the lock
    assert '"clubs_club"."name"' not in match_reads[0]
    assert "FOR UPDATE" in match_reads[1] or connection.vendor == "sqlite"  # IMMEDIATE
    assert not [sql for sql in reads if "api_webhookendpoint" in sql]
    assert director_a.get(f"{url}{sequence}/").json() == answer.json()
