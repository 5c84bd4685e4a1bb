"""Writes at once on PostgreSQL (real row locks, each thread on its own connection): matches
created by several clients and rounds started while the season's ladder is recalculated never
deadlock (issue 28): every request is a 201 and every recalculation succeeds."""

import threading
from collections.abc import Callable

import pytest
from django.db import connection

from clubs import services as club_services
from matches.models import Match
from scoring.models import StandingsRun
from scoring.services import standings_recalculate
from tests.api.conftest import build_world

pytestmark = pytest.mark.django_db(transaction=True)


def at_once(jobs: list[Callable[[], list[int]]], season_id: int) -> tuple[list[int], list]:
    """Run the jobs (each returns its responses' statuses) in threads released together,
    while another thread recalculates the season's ladder over and over, as a worker does
    when the changes keep coming; returns the statuses and what the recalculations raised."""
    barrier = threading.Barrier(len(jobs) + 1)
    done = threading.Event()
    statuses: list[int] = []
    raised: list[BaseException] = []

    def job(work):
        try:
            barrier.wait(timeout=30)
            statuses.extend(work())
        except BaseException as error:  # asserted below
            raised.append(error)
        finally:
            connection.close()

    def recalculate():
        try:
            barrier.wait(timeout=30)
            while not done.is_set():
                standings_recalculate(season_id=season_id)
        except BaseException as error:  # asserted below
            raised.append(error)
        finally:
            connection.close()

    worker = threading.Thread(target=recalculate)
    threads = [threading.Thread(target=job, args=(work,)) for work in jobs]
    worker.start()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    done.set()
    worker.join(timeout=120)
    return statuses, [f"{type(error).__name__}: {error}" for error in raised]


def creating(world, count: int, played_on: str = "2025-03-14"):
    body = {
        "club": world.a.club.pk,
        "kind": "chicago",
        "played_on": played_on,
        "seats": dict(zip("NESW", (p.pk for p in world.a.players), strict=True)),
    }

    def work() -> list[int]:
        client = world.client("director_a")
        return [
            client.post("/api/v1/matches/", body, format="json").status_code for _ in range(count)
        ]

    return work


def test_matches_created_at_once_while_the_ladder_is_recalculated(on_postgres):
    world = build_world()
    world.client("director_a")  # its token, made once
    before = Match.objects.count()
    statuses, raised = at_once([creating(world, 8) for _ in range(3)], world.a.season.pk)
    assert statuses == [201] * 24 and not raised, (statuses, raised)
    assert Match.objects.count() == before + 24
    assert not StandingsRun.objects.filter(status="failed").exists()


def test_rounds_started_at_once_while_the_ladder_is_recalculated(on_postgres):
    world = build_world()
    director = world.client("director_a")
    more = [club_services.player_create(club=world.a.club, name=f"Extra {n}") for n in range(4)]
    players = [player.pk for player in [*world.a.players, *more]]
    nights = []
    for day in range(10, 14):
        body = {
            "club": world.a.club.pk,
            "date": f"2025-05-{day}",
            "players": players,
            "movement": "round_robin",
            "rounds": 7,
        }
        response = director.post("/api/v1/nights/", body, format="json")
        assert response.status_code == 201, response.json()
        nights.append(response.json()["id"])

    def starting(night_id):
        def work() -> list[int]:
            client = world.client("director_a")
            return [client.post(f"/api/v1/nights/{night_id}/rounds/").status_code]

        return work

    jobs = [starting(night) for night in nights]
    jobs += [creating(world, 4) for _ in range(2)]
    before = Match.objects.count()
    statuses, raised = at_once(jobs, world.a.season.pk)
    assert statuses == [201] * 12 and not raised, (statuses, raised)
    assert Match.objects.filter(table__session__night__id__in=nights).count() == 4 * 2
    assert Match.objects.count() == before + 4 * 2 + 8
    assert not StandingsRun.objects.filter(status="failed").exists()
