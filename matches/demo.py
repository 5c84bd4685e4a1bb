"""The demo club that ``make run`` loads once: a season of weekly Chicago evenings and, a few
days ago, an evening of rubbers (one won, one finished early by the Laws, one still in
progress, and a two-player rubber at a table of two). ``nights.demo`` adds the club nights.

Everything goes through the services, so every figure comes from the engine. Results come
from a seeded generator (``random.Random(seed)``), so the demo is the same on every machine,
and look like club bridge: contracts weighted to partscores and games with about one slam in
twenty, a few doubles and pass-outs, and declarers mostly within two tricks of their contract.
"""

import datetime
import random
from collections.abc import Iterable, Sequence
from typing import TypeVar

from django.contrib.auth.models import User
from django.db import transaction

from clubs.models import Club, Player
from clubs.services import (
    Actor,
    club_create,
    player_create,
    season_create,
    session_get_or_create,
    session_update,
    table_create,
)
from matches.models import Match, MatchStatus
from matches.selectors import sheet_of
from matches.services import (
    deal_record,
    match_create,
    match_finish,
    season_changes_batched,
)
from scoring.engine import Contract, DealResult, Doubling, PassedOut, Played, Seat, Strain

T = TypeVar("T")

DEMO_SLUG = "partscore-demo"
DEMO_SEED = 20250314
WEEKS = 6  # weekly Chicago evenings, the last a week before today
RUBBER_DAYS_AGO = 3  # the rubber evening: not today, so that a night started today is new
TABLES = 3  # tables of four on a Chicago evening
ROUNDS = 2  # Chicagos per table and evening, partners changing in between

PLAYER_NAMES = [
    "Anna Kowalska",
    "Bram de Vries",
    "Carmen Ruiz",
    "Dimitris Papadopoulos",
    "Eva Jansen",
    "Filip Nowak",
    "Greta Visser",
    "Héctor Morales",
    "Irene Georgiou",
    "Jan Wiśniewski",
    "Katerina Nikolaou",
    "Lucía Fernández",
    "Marek Zieliński",
    "Nina Bakker",
    "Óscar Castillo",
    "Petra Mulder",
]

# What a deal's final contract is, as weights out of 1000: about one deal in twenty is a
# slam; the rest are mostly partscores and games.
PASSED_OUT = 30
CONTRACT_KINDS = (("partscore", 515), ("game", 405), ("small slam", 45), ("grand slam", 5))
PARTSCORE_STRAINS = (("C", 18), ("D", 18), ("H", 22), ("S", 22), ("NT", 20))
GAME_STRAINS = (("NT", 36), ("H", 26), ("S", 28), ("C", 5), ("D", 5))
SLAM_STRAINS = (("NT", 25), ("H", 25), ("S", 30), ("C", 10), ("D", 10))
PARTSCORE_LEVELS = {
    "NT": ((1, 45), (2, 55)),
    "H": ((1, 20), (2, 45), (3, 35)),
    "S": ((1, 20), (2, 45), (3, 35)),
    "C": ((1, 10), (2, 40), (3, 40), (4, 10)),
    "D": ((1, 10), (2, 40), (3, 40), (4, 10)),
}
GAME_LEVEL = {"NT": 3, "H": 4, "S": 4, "C": 5, "D": 5}
# Tricks over (or under) the contract: about 95 deals in 100 within two tricks.
RESULT_OFFSETS = ((-3, 2), (-2, 6), (-1, 19), (0, 40), (1, 23), (2, 8), (3, 2))
SLAM_OFFSETS = ((-2, 4), (-1, 18), (0, 66), (1, 12))
DOUBLED, REDOUBLED = 70, 7  # per 1000 contracts


def _pick(rng: random.Random, weighted: Iterable[tuple[T, int]]) -> T:
    values: tuple[T, ...]
    weights: tuple[int, ...]
    values, weights = zip(*weighted, strict=True)
    return rng.choices(values, weights=weights)[0]


def random_deal(rng: random.Random, *, seats: str = "NESW") -> DealResult:
    """One deal's result, as ``deal_record`` takes it: passed out, or a contract, a declarer
    among ``seats`` and the tricks declarer took."""
    if rng.randrange(1000) < PASSED_OUT:
        return PassedOut()
    kind = _pick(rng, CONTRACT_KINDS)
    if kind == "partscore":
        strain = _pick(rng, PARTSCORE_STRAINS)
        level = _pick(rng, PARTSCORE_LEVELS[strain])
    elif kind == "game":
        strain = _pick(rng, GAME_STRAINS)
        level = GAME_LEVEL[strain]
    else:
        strain = _pick(rng, SLAM_STRAINS)
        level = 6 if kind == "small slam" else 7
    roll = rng.randrange(1000)
    doubling = "XX" if roll < REDOUBLED else "X" if roll < DOUBLED else ""
    offset = _pick(rng, SLAM_OFFSETS if level >= 6 else RESULT_OFFSETS)
    if doubling and offset > -3 and rng.random() < 0.5:
        offset -= 1  # a double is usually right
    tricks = max(0, min(13, level + 6 + offset))
    return Played(
        Contract(level, Strain(strain), Doubling(doubling)), Seat(rng.choice(seats)), tricks
    )


def _seats_of(match: Match) -> str:
    return "NE" if match.kind == "two_player" else "NESW"


def play_to_the_end(match: Match, rng: random.Random, *, actor: Actor, limit: int = 60) -> None:
    """Record deals until the match is complete (a Chicago's four, a rubber's two games)."""
    for _ in range(limit):
        if match.status != MatchStatus.IN_PROGRESS:
            return
        match = deal_record(
            match=match, result=random_deal(rng, seats=_seats_of(match)), actor=actor
        ).deal.match
    raise RuntimeError(f"the demo match {match.pk} did not end in {limit} deals")


def _play_without_ending(match: Match, rng: random.Random, *, deals: int, actor: Actor) -> None:
    """Record ``deals`` deals that leave the rubber unfinished (asking the engine first)."""
    results: list[DealResult] = []
    rules = match.table.session.club.rules()
    while len(results) < deals:
        result = random_deal(rng, seats=_seats_of(match))
        sheet = sheet_of(match=match, results=[*results, result], rules=rules)
        if sheet.complete:
            continue  # that deal would win the rubber: the evening is not over yet
        deal_record(match=match, result=result, actor=actor)
        results.append(result)


def demo_load(
    *, director: User, seed: int = DEMO_SEED, today: datetime.date | None = None
) -> Club | None:
    """Load the demo club with ``director`` as its director, once: returns the new club, or
    None when it is already there. ``today`` defaults to today in the club's time zone: the
    Chicago evenings are the weeks before it, the rubbers ``RUBBER_DAYS_AGO`` days before it
    (nothing is left unfinished today)."""
    if Club.objects.filter(slug=DEMO_SLUG).exists():
        return None
    rng = random.Random(seed)
    with transaction.atomic(), season_changes_batched():
        club = club_create(
            creator=director,
            name="Partscore Demo Club",
            slug=DEMO_SLUG,
            country="NL",
            language="en",
            timezone="Europe/Amsterdam",
            public=True,
            ladder_min_matches=3,
        )
        if today is None:
            today = club.today()
        first_evening = today - datetime.timedelta(weeks=WEEKS)
        season_create(
            club=club,
            name=f"Demo season {first_evening.year}",
            start_date=first_evening - datetime.timedelta(days=7),
            end_date=today + datetime.timedelta(days=90),
        )
        players = [player_create(club=club, name=name) for name in PLAYER_NAMES]

        for week in range(WEEKS, 0, -1):
            session = session_get_or_create(club=club, date=today - datetime.timedelta(weeks=week))
            session_update(session=session, notes="Chicago evening")
            seated = rng.sample(players, TABLES * 4)
            for number in range(TABLES):
                table = table_create(session=session)
                a, b, c, d = seated[number * 4 : number * 4 + 4]
                for seats in [(a, c, b, d), (a, b, c, d)][:ROUNDS]:  # then partners change
                    match = match_create(
                        club=club,
                        kind="chicago",
                        seats=dict(zip("NESW", seats, strict=True)),
                        first_dealer=rng.choice("NESW"),
                        table=table,
                        actor=director,
                    )
                    play_to_the_end(match, rng, actor=director)

        evening = session_get_or_create(
            club=club, date=today - datetime.timedelta(days=RUBBER_DAYS_AGO)
        )
        session_update(session=evening, notes="Rubber bridge evening")
        seated = rng.sample(players, 14)

        def start(kind: str, chosen: Sequence[Player]) -> Match:
            return match_create(
                club=club,
                kind=kind,
                seats=dict(zip("NESW", chosen, strict=False)),
                first_dealer=rng.choice("NE" if kind == "two_player" else "NESW"),
                session=evening,
                actor=director,
            )

        won = start("rubber", seated[0:4])
        play_to_the_end(won, rng, actor=director)
        finished = start("rubber", seated[4:8])
        _play_without_ending(finished, rng, deals=4, actor=director)
        match_finish(match=finished, actor=director)
        _play_without_ending(start("rubber", seated[8:12]), rng, deals=3, actor=director)
        play_to_the_end(start("two_player", seated[12:14]), rng, actor=director)
    return club
