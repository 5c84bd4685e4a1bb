"""A small world for the API tests: two clubs, A (private) and B, each with a director,
players, a season and a Chicago match with one deal; a signed-in player of A; a read-only
and a read-write API key of A. ``as_role`` gives an API client authenticated as each of the
six roles of the permission matrix, with real credentials (token or API key header)."""

from dataclasses import dataclass
from datetime import date

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from api.models import ClubAPIKey, KeyAccess
from clubs import services as club_services
from matches import services as match_services
from nights.services import night_round_start, night_start
from scoring.engine import Played

PLAYED_ON = date(2025, 3, 14)
ROLES = ["anonymous", "player_a", "director_a", "director_b", "read_key_a", "write_key_a"]


@dataclass
class Side:
    club: object
    director: object
    season: object
    players: list
    match: object


def make_user(username, **extra):
    return get_user_model().objects.create_user(username=username, password="pw", **extra)


def build_club(name: str, slug: str, director_name: str, *, public=False) -> Side:
    director = make_user(director_name)
    club = club_services.club_create(
        creator=director, name=name, slug=slug, country="PL", public=public
    )
    season = club_services.season_create(
        club=club, name="2025", start_date=date(2025, 1, 1), end_date=date(2025, 12, 31)
    )
    players = [
        club_services.player_create(club=club, name=f"{name} player {n}") for n in range(1, 5)
    ]
    match = match_services.match_create(
        club=club,
        kind="chicago",
        seats=dict(zip("NESW", players, strict=True)),
        played_on=PLAYED_ON,
        actor=director,
    )
    match_services.deal_record(match=match, result=Played("4S", "N", 10))
    return Side(club=club, director=director, season=season, players=players, match=match)


@dataclass
class World:
    a: Side
    b: Side
    player_a_user: object
    read_key_a: str
    write_key_a: str

    def client(self, role: str) -> APIClient:
        client = APIClient()
        users = {
            "player_a": self.player_a_user,
            "director_a": self.a.director,
            "director_b": self.b.director,
        }
        if role in users:
            token, _created = Token.objects.get_or_create(user=users[role])
            client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
        elif role == "read_key_a":
            client.credentials(HTTP_AUTHORIZATION=f"Api-Key {self.read_key_a}")
        elif role == "write_key_a":
            client.credentials(HTTP_AUTHORIZATION=f"Api-Key {self.write_key_a}")
        else:
            assert role == "anonymous", role
        return client


def build_world() -> World:
    a = build_club("Alpha", "alpha", "director_a")
    b = build_club("Beta", "beta", "director_b")
    player_a_user = make_user("player_a")
    club_services.player_update(player=a.players[0], user=player_a_user)
    _key, read_key = ClubAPIKey.objects.create_key(
        name="reader", club=a.club, access=KeyAccess.READ
    )
    _key, write_key = ClubAPIKey.objects.create_key(
        name="writer", club=a.club, access=KeyAccess.WRITE
    )
    return World(a=a, b=b, player_a_user=player_a_user, read_key_a=read_key, write_key_a=write_key)


@pytest.fixture
def read_cache_off(settings):
    """For tests of the queries an answer computes: the read cache (test_read_cache.py) off."""
    settings.API_READ_CACHE = False


@pytest.fixture
def director_a(world) -> APIClient:
    return world.client("director_a")


@pytest.fixture
def world(db) -> World:
    """A fresh world for this test."""
    return build_world()


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    """One world for a whole module, built once in an outer transaction; each test (which
    asks for ``world_once``) runs in a savepoint inside it that is rolled back after it."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build_world()
        transaction.set_rollback(True)


@pytest.fixture
def world_once(shared_world, db) -> World:
    shared_world.__dict__.pop("rubber", None)
    return shared_world


NIGHT_DAY = date(2025, 3, 21)


@pytest.fixture
def night(world):
    """A round-robin night of club A on ``NIGHT_DAY``, three rounds, its first started."""
    night = night_start(
        club=world.a.club,
        date=NIGHT_DAY,
        players=world.a.players,
        movement="round_robin",
        rounds=3,
    )
    night_round_start(night=night)
    return night
