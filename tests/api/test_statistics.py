"""A player's statistics in the API: GET /api/v1/seasons/{id}/players/{id}/statistics/ and
GET /api/v1/clubs/{id}/players/{id}/statistics/ (all seasons). Who may read them is the
season history's rule (test_permission_matrix.py has every role)."""

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from matches import services
from matches.models import Match
from scoring.engine import Played
from tests.scoring.factories import make_club, make_players, make_season

pytestmark = pytest.mark.django_db

D1, D2 = date(2025, 3, 4), date(2026, 3, 4)


def season_url(season_id, player_id):
    return f"/api/v1/seasons/{season_id}/players/{player_id}/statistics/"


def club_url(club_id, player_id):
    return f"/api/v1/clubs/{club_id}/players/{player_id}/statistics/"


def play(club, kind, seats, played_on, deals):
    match = services.match_create(
        club=club, kind=kind, seats=dict(zip("NESW", seats, strict=False)), played_on=played_on
    )
    for contract, declarer, tricks in deals:
        services.deal_record(match=match, result=Played(contract, declarer, tricks))
    return match


@pytest.fixture
def club():
    """Ann (N) and Cid (S) beat Bob and Dot at a Chicago in 2025; Ann (N) beats Bob (E) at a
    table of two in 2026."""
    club = make_club(public=True)
    make_season(club, 2025), make_season(club, 2026)
    ann, bob, cid, dot = make_players(club, "Ann", "Bob", "Cid", "Dot")
    play(
        club,
        "chicago",
        (ann, bob, cid, dot),
        D1,
        # deal 1: +400; deal 2 (E-W vulnerable): 4HX-2 by Bob +500; 6NT= by Cid (N-S
        # vulnerable) 190 + 750 + 500 = +1,440; deal 4: 2C= 40 + 100 = +140.
        [("3NT", "N", 9), ("4HX", "E", 8), ("6NT", "S", 12), ("2C", "N", 8)],
    )
    play(club, "two_player", (ann, bob), D2, [("4S", "N", 10), ("3NT", "N", 9)])
    return club


def players(club):
    return {player.name: player for player in club.players.all()}


def test_a_seasons_statistics(club):
    ann, bob, cid, dot = (players(club)[name] for name in ("Ann", "Bob", "Cid", "Dot"))
    season = club.seasons.get(start_date__year=2025)
    response = APIClient().get(season_url(season.pk, ann.pk))
    assert response.status_code == 200
    body = response.json()
    assert (body["club"], body["season"], body["player"]) == (
        club.pk,
        season.pk,
        {"id": ann.pk, "name": "Ann"},
    )
    assert body["total"] == {"matches": 1, "wins": 1, "draws": 0, "losses": 0, "net_points": 2480}
    assert body["by_kind"] == [
        {"kind": "chicago", "matches": 1, "wins": 1, "draws": 0, "losses": 0, "net_points": 2480},
        {"kind": "rubber", "matches": 0, "wins": 0, "draws": 0, "losses": 0, "net_points": 0},
        {"kind": "two_player", "matches": 0, "wins": 0, "draws": 0, "losses": 0, "net_points": 0},
    ]
    contracts = body["contracts"]
    assert (contracts["declared"], contracts["made"], contracts["down"]) == (2, 2, 0)
    assert contracts["by_level"][2] == {"level": 3, "declared": 1, "made": 1, "down": 0}
    assert [line["level"] for line in contracts["by_level"]] == [1, 2, 3, 4, 5, 6, 7]
    assert [line["strain"] for line in contracts["by_strain"]] == ["C", "D", "H", "S", "NT"]
    assert contracts["by_contract"] == [
        {"level": 2, "strain": "C", "declared": 1, "made": 1, "down": 0},
        {"level": 3, "strain": "NT", "declared": 1, "made": 1, "down": 0},
    ]
    # Cid's slam is his partner's: not Ann's.
    assert contracts["small_slams"] == {"declared": 0, "made": 0, "down": 0}
    assert contracts["doubled"] == {"declared": 0, "made": 0, "down": 0}
    assert body["as_declarer"] == {"deals": 2, "points": 540, "average": 270.0}
    assert body["as_defender"] == {"deals": 1, "points": 500, "average": 500.0}
    assert body["partners"] == [
        {
            "player": {"id": cid.pk, "name": "Cid"},
            "matches": 1,
            "wins": 1,
            "draws": 0,
            "losses": 0,
            "net_points": 2480,
        }
    ]
    assert body["opponents"] == [
        {
            "players": [{"id": bob.pk, "name": "Bob"}, {"id": dot.pk, "name": "Dot"}],
            "matches": 1,
            "wins": 1,
            "draws": 0,
            "losses": 0,
            "net_points": 2480,
        }
    ]
    # Bob's side: the doubled contract he went down in, from the defenders' seat.
    bob_body = APIClient().get(season_url(season.pk, bob.pk)).json()
    assert bob_body["contracts"]["doubled"] == {"declared": 1, "made": 0, "down": 1}
    assert bob_body["as_declarer"] == {"deals": 1, "points": -500, "average": -500.0}


def test_all_seasons_of_the_club(club):
    ann, bob = players(club)["Ann"], players(club)["Bob"]
    body = APIClient().get(club_url(club.pk, ann.pk)).json()
    assert body["season"] is None and body["club"] == club.pk
    # +2,480 and the Draw Bridge rubber: 4S= 120, 3NT= 100 and 700 = +920.
    assert body["total"] == {"matches": 2, "wins": 2, "draws": 0, "losses": 0, "net_points": 3400}
    assert body["opponents"][-1]["players"] == [{"id": bob.pk, "name": "Bob"}]
    assert body["as_declarer"]["deals"] == 4


def test_a_player_with_no_counted_match_has_zeros(club):
    (eve,) = make_players(club, "Eve")
    body = APIClient().get(club_url(club.pk, eve.pk)).json()
    assert body["total"]["matches"] == 0
    assert body["as_declarer"] == {"deals": 0, "points": 0, "average": None}
    assert (body["partners"], body["opponents"]) == ([], [])


def test_unknown_or_foreign_ids_are_404s(club):
    ann = players(club)["Ann"]
    season = club.seasons.first()
    other = make_club(public=True)
    other_season = make_season(other)
    (stranger,) = make_players(other, "Stranger")
    client = APIClient()
    for url in (
        season_url(season.pk, stranger.pk),
        club_url(club.pk, stranger.pk),
        season_url(other_season.pk, ann.pk),
        club_url(other.pk, ann.pk),
        season_url(99999999, ann.pk),
        club_url(99999999, ann.pk),
        season_url(season.pk, 99999999),
        club_url(club.pk, 2**70),
    ):
        response = client.get(url)
        assert response.status_code == 404, url
        assert response["Content-Type"].startswith("application/json")


def test_a_private_clubs_statistics_are_for_its_members(club):
    club.public = False
    club.save()
    ann = players(club)["Ann"]
    season = club.seasons.first()
    assert APIClient().get(club_url(club.pk, ann.pk)).status_code == 404
    assert APIClient().get(season_url(season.pk, ann.pk)).status_code == 404
    user = get_user_model().objects.create_user(username="ann", password="pw")
    ann.user = user
    ann.save()
    member = APIClient()
    member.force_authenticate(user)
    assert member.get(club_url(club.pk, ann.pk)).status_code == 200
    assert member.get(season_url(season.pk, ann.pk)).status_code == 200


def test_read_only(club):
    ann = players(club)["Ann"]
    root = APIClient()
    root.force_authenticate(get_user_model().objects.create_superuser("root", "", "pw"))
    assert root.post(club_url(club.pk, ann.pk), {}).status_code == 405
    assert root.delete(season_url(club.seasons.first().pk, ann.pk)).status_code == 405


def test_a_new_deal_refreshes_the_cached_answer(club, settings, django_assert_num_queries):
    settings.API_READ_CACHE = True
    ann = players(club)["Ann"]
    season = club.seasons.get(start_date__year=2026)
    client = APIClient()
    url, all_url = season_url(season.pk, ann.pk), club_url(club.pk, ann.pk)
    before, all_before = client.get(url).json(), client.get(all_url).json()
    with django_assert_num_queries(0):  # both from the read cache
        assert client.get(url).json() == before
        assert client.get(all_url).json() == all_before
    match = Match.objects.get(season=season)
    services.deal_correct(match=match, sequence=2, result=Played("3NT", "N", 10))
    after = client.get(url).json()
    assert after["as_declarer"]["points"] == before["as_declarer"]["points"] + 30
    assert client.get(all_url).json()["as_declarer"]["points"] == (
        all_before["as_declarer"]["points"] + 30
    )


def test_the_queries_do_not_grow_with_the_matches(club, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    settings.API_READ_CACHE = False
    ann, bob, cid, dot = (players(club)[name] for name in ("Ann", "Bob", "Cid", "Dot"))
    client = APIClient()

    def count() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(club_url(club.pk, ann.pk)).status_code == 200
        return len(captured)

    few = count()
    for _ in range(3):
        play(
            club,
            "chicago",
            (bob, ann, dot, cid),
            D1,
            [("1NT", "N", 7), ("2S", "E", 8), ("3D", "S", 9), ("4H", "W", 10)],
        )
    assert count() == few <= 8


def test_the_endpoints_are_in_the_schema():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/v1/seasons/{season_id}/players/{player_id}/statistics/",
        "/api/v1/clubs/{club_id}/players/{player_id}/statistics/",
    ):
        operation = schema["paths"][path]["get"]
        assert operation["responses"]["200"]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/PlayerStatistics"
        }
    stats = schema["components"]["schemas"]["PlayerStatistics"]
    assert set(stats["required"]) >= {"total", "by_kind", "contracts", "partners", "opponents"}
