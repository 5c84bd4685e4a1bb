"""Fixtures for the pages: compiled catalogs, clubs with players and matches."""

import time
from datetime import date
from pathlib import Path

import pytest
from django.conf import settings
from django.db import OperationalError
from django.utils.translation import trans_real

from clubs.management.commands.compile_catalogs import catalog_compile
from clubs.services import club_create, player_create, season_create
from matches.services import deal_record, match_create
from scoring.engine import PassedOut, Played


@pytest.fixture(scope="session", autouse=True)
def compiled_catalogs():
    """`make test` compiles the catalogs first; a bare pytest run compiles any that changed
    here, so the pages speak every language either way."""
    po_paths = Path(settings.BASE_DIR, "locale").glob("*/LC_MESSAGES/django.po")
    changed = [po_path for po_path in po_paths if catalog_compile(po_path)]
    if changed:
        trans_real._translations = {}  # load the new catalogs on next use
        trans_real._default = None


DAY = date(2025, 3, 14)
# The worked Chicago of docs/rules.md, "Worked examples" (first dealer North): NS 500, EW 120.
WORKED_CHICAGO = [("2S", "N", 8), None, ("2H", "S", 9), ("3NT", "E", 8), ("1C", "W", 7)]


def play(match, deals):
    """Record ``deals`` (contract, declarer, tricks), None for a passed-out deal."""
    for deal in deals:
        if deal is None:
            deal_record(match=match, result=PassedOut())
        else:
            contract, declarer, tricks = deal
            deal_record(match=match, result=Played(contract, declarer, tricks))
    match.refresh_from_db()
    return match


@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("director", password="pw")


@pytest.fixture
def make_club(director):
    def make(*, slug="kifisia", name="Kifisia Bridge Club", public=True, **options):
        club = club_create(
            creator=director, name=name, slug=slug, country="GR", public=public, **options
        )
        season_create(
            club=club, name="Spring 2025", start_date=date(2025, 1, 1), end_date=date(2025, 6, 30)
        )
        return club

    return make


@pytest.fixture
def club(make_club):
    return make_club()


@pytest.fixture
def players(club):
    names = ["Anna", "Ben", "Chloe", "Dimitris", "Eva", "Filip"]
    return [player_create(club=club, name=name) for name in names]


@pytest.fixture
def new_match(club, players):
    def make(kind="chicago", seats=None, first_dealer="N", played_on=DAY):
        if seats is None:
            seats = dict(zip("NESW", players[:4], strict=True))
            if kind == "two_player":
                seats = {"N": players[0], "E": players[1]}
        return match_create(
            club=club, kind=kind, seats=seats, first_dealer=first_dealer, played_on=played_on
        )

    return make


@pytest.fixture
def worked_chicago(new_match):
    return play(new_match(), WORKED_CHICAGO)


def while_polled(write, *, attempts: int = 40):
    """``write()`` from the test's thread while open pages poll the live server. The tests'
    in-memory SQLite shares one cache between threads and locks a table the server's thread is
    reading (SQLITE_LOCKED: no busy timeout applies), so a refused write is tried again a moment
    later; any other error, or the same one for two seconds, is raised. PostgreSQL never
    refuses."""
    for attempt in range(attempts):
        try:
            return write()
        except OperationalError as error:
            if "locked" not in str(error) or attempt == attempts - 1:
                raise
            time.sleep(0.05)
    raise AssertionError("unreachable")
