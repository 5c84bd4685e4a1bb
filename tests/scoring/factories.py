"""Building clubs, seasons and matches for the ladder tests.

``stored_match`` writes a complete match with the totals and winner the engine would have
stored (for pure ladder cases); tests of the whole path record deals through
``matches.services`` instead.
"""

import itertools
from datetime import date

from clubs.models import Club, Membership, Player, Season, Session, Table
from matches.models import Match

_numbers = itertools.count(1)


def make_club(**options) -> Club:
    number = next(_numbers)
    options.setdefault("name", f"Club {number}")
    options.setdefault("slug", f"club-{number}")
    options.setdefault("country", "PL")
    return Club.objects.create(**options)


def make_season(club: Club, year: int = 2025, **fields) -> Season:
    fields.setdefault("name", f"Season {year}")
    fields.setdefault("start_date", date(year, 1, 1))
    fields.setdefault("end_date", date(year, 12, 31))
    return Season.objects.create(club=club, **fields)


def make_players(club: Club, *names: str) -> list[Player]:
    players = []
    for name in names:
        player = Player.objects.create(name=name)
        Membership.objects.create(player=player, club=club)
        players.append(player)
    return players


def stored_match(
    season: Season,
    played_on: date,
    seats: tuple,
    totals: tuple[int, int],
    winner: str,
    *,
    kind: str | None = None,
    status: str = "complete",
    finished_early: bool = False,
) -> Match:
    """A match as the services would have stored it. ``seats`` is (N, E, S, W), or (N, E) at
    a table of two; ``winner`` is "NS", "EW", "tie" (or "" when not complete)."""
    session, _created = Session.objects.get_or_create(
        club=season.club, date=played_on, defaults={"season": season}
    )
    two = len(seats) == 2
    number = session.tables.count() + 1
    table = Table.objects.create(session=session, number=number, seats=2 if two else 4)
    north, east, *rest = seats
    south, west = rest if rest else (None, None)
    return Match.objects.create(
        table=table,
        season=session.season,
        kind=kind or ("two_player" if two else "chicago"),
        north=north,
        east=east,
        south=south,
        west=west,
        status=status,
        finished_early=finished_early,
        total_ns=totals[0],
        total_ew=totals[1],
        winner=winner if status == "complete" else "",
    )
