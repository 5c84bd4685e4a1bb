"""The permission matrix: every endpoint, for each of the six roles, against club A's data
(club A is private). Each row gives the expected status per role, in ``ROLES`` order:
anonymous, player of A, director of A, director of B, read-only key of A, read-write key of A.
"""

from dataclasses import dataclass
from typing import Any

import pytest

from clubs.models import Club, Player, Season, Session, Table
from matches.models import Deal, Match
from matches.services import match_create
from tests.api.conftest import PLAYED_ON, ROLES


@dataclass
class Case:
    name: str
    method: str
    url: Any  # world -> url
    statuses: tuple[int, ...]
    body: Any = None  # world -> body
    setup: Any = None  # world -> None, before the request


def rubber(world):
    match = match_create(
        club=world.a.club,
        kind="rubber",
        seats=dict(zip("NESW", world.a.players, strict=True)),
        played_on=PLAYED_ON,
    )
    world.rubber = match


def a_session(world):
    return Session.objects.get(club=world.a.club)


R = 200
CASES = [
    # clubs
    Case("clubs list", "get", lambda w: "/api/v1/clubs/", (R, R, R, R, R, R)),
    Case("club detail", "get", lambda w: f"/api/v1/clubs/{w.a.club.pk}/", (404, R, R, 404, R, R)),
    Case(
        "club create",
        "post",
        lambda w: "/api/v1/clubs/",
        (401, 201, 201, 201, 403, 403),
        body=lambda w: {"name": "New", "slug": "new", "country": "GR"},
    ),
    Case(
        "club update",
        "patch",
        lambda w: f"/api/v1/clubs/{w.a.club.pk}/",
        (401, 403, R, 404, 403, R),
        body=lambda w: {"name": "Alpha renamed"},
    ),
    # players
    Case("players list", "get", lambda w: "/api/v1/players/", (401, R, R, R, R, R)),
    Case(
        "player detail",
        "get",
        lambda w: f"/api/v1/players/{w.a.players[1].pk}/",
        (401, R, R, 404, R, R),
    ),
    Case(
        "player create",
        "post",
        lambda w: "/api/v1/players/",
        (401, 403, 201, 400, 403, 201),
        body=lambda w: {"club": w.a.club.pk, "name": "Newcomer"},
    ),
    Case(
        "player update",
        "patch",
        lambda w: f"/api/v1/players/{w.a.players[1].pk}/",
        (401, 403, R, 404, 403, R),
        body=lambda w: {"name": "Renamed"},
    ),
    # seasons
    Case("seasons list", "get", lambda w: "/api/v1/seasons/", (R, R, R, R, R, R)),
    Case(
        "season detail",
        "get",
        lambda w: f"/api/v1/seasons/{w.a.season.pk}/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "season create",
        "post",
        lambda w: "/api/v1/seasons/",
        (401, 403, 201, 400, 403, 201),
        body=lambda w: {
            "club": w.a.club.pk,
            "name": "2026",
            "start_date": "2026-01-01",
            "end_date": "2026-12-31",
        },
    ),
    Case(
        "season update",
        "patch",
        lambda w: f"/api/v1/seasons/{w.a.season.pk}/",
        (401, 403, R, 404, 403, R),
        body=lambda w: {"name": "Year 2025"},
    ),
    Case(
        "season ladder",
        "get",
        lambda w: f"/api/v1/seasons/{w.a.season.pk}/ladder/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "player season history",
        "get",
        lambda w: f"/api/v1/seasons/{w.a.season.pk}/players/{w.a.players[0].pk}/history/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "player season statistics",
        "get",
        lambda w: f"/api/v1/seasons/{w.a.season.pk}/players/{w.a.players[0].pk}/statistics/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "player statistics in all seasons",
        "get",
        lambda w: f"/api/v1/clubs/{w.a.club.pk}/players/{w.a.players[0].pk}/statistics/",
        (404, R, R, 404, R, R),
    ),
    # sessions
    Case("sessions list", "get", lambda w: "/api/v1/sessions/", (401, R, R, R, R, R)),
    Case(
        "session detail",
        "get",
        lambda w: f"/api/v1/sessions/{a_session(w).pk}/",
        (401, R, R, 404, R, R),
    ),
    Case(
        "session results",
        "get",
        lambda w: f"/api/v1/sessions/{a_session(w).pk}/results/",
        (401, R, R, 404, R, R),
    ),
    Case(
        "session create",
        "post",
        lambda w: "/api/v1/sessions/",
        (401, 403, 201, 400, 403, 201),
        body=lambda w: {"club": w.a.club.pk, "date": "2025-04-01"},
    ),
    Case(
        "session update",
        "patch",
        lambda w: f"/api/v1/sessions/{a_session(w).pk}/",
        (401, 403, R, 404, 403, R),
        body=lambda w: {"notes": "Bring biscuits."},
    ),
    # tables
    Case("tables list", "get", lambda w: "/api/v1/tables/", (401, R, R, R, R, R)),
    Case(
        "table detail",
        "get",
        lambda w: f"/api/v1/tables/{w.a.match.table_id}/",
        (401, R, R, 404, R, R),
    ),
    Case(
        "table create",
        "post",
        lambda w: "/api/v1/tables/",
        (401, 403, 201, 400, 403, 201),
        body=lambda w: {"session": a_session(w).pk},
    ),
    # matches
    Case("matches list", "get", lambda w: "/api/v1/matches/", (R, R, R, R, R, R)),
    Case(
        "match detail", "get", lambda w: f"/api/v1/matches/{w.a.match.pk}/", (404, R, R, 404, R, R)
    ),
    Case(
        "match create",
        "post",
        lambda w: "/api/v1/matches/",
        (401, 403, 201, 400, 403, 201),
        body=lambda w: {
            "club": w.a.club.pk,
            "kind": "chicago",
            "played_on": "2025-03-14",
            "seats": dict(zip("NESW", (p.pk for p in w.a.players), strict=True)),
        },
    ),
    Case(
        "score sheet",
        "get",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/score-sheet/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "match finish",
        "post",
        lambda w: f"/api/v1/matches/{w.rubber.pk}/finish/",
        (401, 403, R, 404, 403, R),
        setup=rubber,
    ),
    Case(
        "match abandon",
        "post",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/abandon/",
        (401, 403, R, 404, 403, R),
    ),
    # deals
    Case(
        "deals list",
        "get",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "deal record",
        "post",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/",
        (401, 403, 201, 404, 403, 201),
        body=lambda w: {"contract": "3NT", "declarer": "E", "tricks": 9},
    ),
    Case(
        "deal detail",
        "get",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/",
        (404, R, R, 404, R, R),
    ),
    Case(
        "deal correct (PUT)",
        "put",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/",
        (401, 403, R, 404, 403, R),
        body=lambda w: {"contract": "4S", "declarer": "N", "tricks": 11},
    ),
    Case(
        "deal correct (PATCH)",
        "patch",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/",
        (401, 403, R, 404, 403, R),
        body=lambda w: {"tricks": 9},
    ),
    Case(
        "deal delete",
        "delete",
        lambda w: f"/api/v1/matches/{w.a.match.pk}/deals/1/",
        (401, 403, 204, 404, 403, 204),
    ),
]

MATRIX = [
    pytest.param(case, role, status, id=f"{case.name}-{role}")
    for case in CASES
    for role, status in zip(ROLES, case.statuses, strict=True)
]


def snapshot():
    """Everything a request could write."""
    return [
        list(model.objects.order_by("pk").values())
        for model in (Club, Player, Season, Session, Table, Match, Deal)
    ]


@pytest.mark.parametrize(("case", "role", "status"), MATRIX)
def test_permission_matrix(world_once, case, role, status):
    world = world_once
    if case.setup:
        case.setup(world)
    client = world.client(role)
    body = case.body(world) if case.body else None
    before = snapshot()
    response = getattr(client, case.method)(case.url(world), body, format="json")
    assert response.status_code == status, response.content
    if status >= 400:
        error = response.json()
        assert set(error) == {"code", "detail", "errors", "codes"}
        assert error["detail"]
        assert snapshot() == before  # a refused request writes nothing
