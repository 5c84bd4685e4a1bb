"""Plain helpers that build club data through the services (shared by tests/clubs and
tests/matches)."""

import datetime
import itertools

from django.contrib.auth import get_user_model

from clubs.services import club_create, player_create, season_create

_counter = itertools.count(1)

SEASON_START = datetime.date(2025, 1, 1)
SEASON_END = datetime.date(2025, 12, 31)
PLAY_DATE = datetime.date(2025, 3, 14)


def make_user(username=None, **fields):
    username = username or f"user{next(_counter)}"
    return get_user_model().objects.create_user(username=username, password="pw", **fields)


def make_club(*, creator=None, slug=None, season=True, **options):
    """A club (its creator a director), with a 2025 season unless ``season`` is False."""
    creator = creator or make_user()
    n = next(_counter)
    club = club_create(
        creator=creator,
        name=options.pop("name", f"Club {n}"),
        slug=slug or f"club-{n}",
        country=options.pop("country", "PL"),
        **options,
    )
    if season:
        season_create(club=club, name="2025", start_date=SEASON_START, end_date=SEASON_END)
    return club


def make_players(club, count=4, *, prefix="Player"):
    n = next(_counter)
    return [player_create(club=club, name=f"{prefix} {n}-{i}") for i in range(1, count + 1)]


def seats_of(players):
    return dict(zip("NESW", players, strict=False))
