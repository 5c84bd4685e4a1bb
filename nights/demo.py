"""The demo's club nights, added to the demo club of ``matches.demo``: so that a newcomer sees
the night pages, the director's board, the club screen and the players' pad at once.

- two days ago, a finished round-robin night (eight players, three rounds, closed);
- yesterday, a night still in progress (ten players, a table of two, four rounds): round 1
  played, round 2 being played, one of its tables with deals entered at the table and one
  deal waiting for the opponents, another with a deal recorded by the director.

Neither is on today's date: a night the director starts today is a night of its own, with no
demo match still being played in its session. Everything goes through the services.
"""

import datetime
import random

from django.contrib.auth.models import User
from django.db import transaction

from clubs.models import Club, Player
from clubs.selectors import active_players_of
from clubs.services import Actor
from matches import demo as matches_demo
from matches.demo import DEMO_SEED, play_to_the_end, random_deal
from matches.services import deal_record, season_changes_batched
from nights.models import Night, Remainder, TableCode
from nights.movements.round_robin import RoundRobin
from nights.services import (
    night_close,
    night_round_start,
    night_start,
    night_update,
    table_entry_answer,
    table_entry_submit,
)

FINISHED_DAYS_AGO = 2
LIVE_DAYS_AGO = 1


def _play_round(night: Night, rng: random.Random, *, actor: Actor) -> None:
    for match in night_round_start(night=night, actor=actor).matches.all():
        play_to_the_end(match, rng, actor=actor)


def _finished_night(
    club: Club, players: list[Player], day: datetime.date, rng: random.Random, *, actor: Actor
) -> Night:
    night = night_start(
        club=club, date=day, players=players, movement=RoundRobin.name, rounds=3, prizes=2
    )
    for _round in range(night.rounds):
        _play_round(night, rng, actor=actor)
    return night_close(night=night)


def _live_night(
    club: Club, players: list[Player], day: datetime.date, rng: random.Random, *, actor: Actor
) -> Night:
    night = night_start(
        club=club,
        date=day,
        players=players,
        movement=RoundRobin.name,
        rounds=4,
        remainder=Remainder.TWO_PLAYER,
    )
    night_update(night=night, groups={players[0].pk: "Beginners", players[1].pk: "Beginners"})
    _play_round(night, rng, actor=actor)
    current = night_round_start(night=night, actor=actor)
    at = {match.table.number: match for match in current.matches.select_related("table")}
    # Table 1 enters its deals: two confirmed by the opponents, the third waiting for them.
    first = at[1]
    code = TableCode.objects.get(night=night, table_number=1, revoked_at=None)
    north, east = first.seat_ids["N"], first.seat_ids["E"]
    for sequence in (1, 2, 3):
        entry = table_entry_submit(
            code=code, sequence=sequence, entered_by=north, result=random_deal(rng)
        )
        if sequence < 3:
            table_entry_answer(code=code, entry=entry.pk, player=east, accept=True)
    # Table 2: one deal, recorded by the director.
    deal_record(match=at[2], result=random_deal(rng), actor=actor)
    return night


def demo_load(
    *, director: User, seed: int = DEMO_SEED, today: datetime.date | None = None
) -> Club | None:
    """The demo club (``matches.demo.demo_load``) with its two nights, once: returns the new
    club, or None when it is already there."""
    with transaction.atomic(), season_changes_batched():  # the ladder recalculated once
        club: Club | None = matches_demo.demo_load(director=director, seed=seed, today=today)
        if club is None:
            return None
        if today is None:
            today = club.today()
        rng = random.Random(seed + 1)
        players = list(active_players_of(club).order_by("pk"))
        _finished_night(
            club,
            players[:8],
            today - datetime.timedelta(days=FINISHED_DAYS_AGO),
            rng,
            actor=director,
        )
        _live_night(
            club,
            players[6:16],
            today - datetime.timedelta(days=LIVE_DAYS_AGO),
            rng,
            actor=director,
        )
    return club


def demo_night_in_progress(club: Club) -> Night | None:
    """The demo's night still being played (the latest open night)."""
    return (
        Night.objects.filter(session__club=club, closed_at=None)
        .select_related("session")
        .order_by("-session__date")
        .first()
    )
