"""The ladder API: GET /api/v1/seasons/{id}/ladder/ and a player's season history."""

from datetime import date

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from clubs.models import Membership
from clubs.services import club_update
from scoring.services import standings_recalculate
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db

D1, D2 = date(2025, 3, 4), date(2025, 3, 11)


def ladder_url(season_id):
    return f"/api/v1/seasons/{season_id}/ladder/"


def history_url(season_id, player_id):
    return f"/api/v1/seasons/{season_id}/players/{player_id}/history/"


@pytest.fixture
def public_season():
    season = make_season(make_club(public=True, ladder_min_matches=2))
    ann, bob, cid, dot, eve = make_players(season.club, "Ann", "Bob", "Cid", "Dot", "Eve")
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(season, D2, (ann, cid, bob, eve), (300, 0), "NS")
    return season


@pytest.fixture
def private_season():
    season = make_season(make_club(public=False))
    ann, bob = make_players(season.club, "Pia", "Quin")
    stored_match(season, D1, (ann, bob), (500, 0), "NS")
    standings_recalculate(season_id=season.id)
    return season


def signed_in_member_of(club):
    user = get_user_model().objects.create_user(username=f"member-{club.pk}", password="pw")
    player = make_players(club, "Member")[0]
    player.user = user
    player.save()
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_an_uncomputed_ladder_is_empty_and_says_so(public_season):
    response = APIClient().get(ladder_url(public_season.id))
    assert response.status_code == 200
    body = response.json()
    assert (body["season"], body["computed_at"], body["count"], body["results"]) == (
        public_season.id,
        None,
        0,
        [],
    )


def test_anyone_reads_a_public_clubs_ladder(public_season):
    run = standings_recalculate(season_id=public_season.id)
    response = APIClient().get(ladder_url(public_season.id))

    assert response.status_code == 200
    body = response.json()
    assert body["season"] == public_season.id
    assert body["computed_at"].startswith(run.finished_at.date().isoformat())
    assert body["count"] == 5
    first = body["results"][0]
    ann = public_season.club.players.get(name="Ann")
    assert first == {
        "rank": 1,
        "position": 1,
        "player": {"id": ann.id, "name": "Ann"},
        "matches": 2,
        "counted": 2,
        "wins": 2,
        "draws": 0,
        "losses": 0,
        "points": 6,
        "net_points": 680,
        "imps": None,
        "handicapped": None,
        "average": 340.0,
        "best": 380,
        "worst": 300,
        "rating": pytest.approx(1520.1, abs=0.05),
        "qualified": True,
        "updated_at": first["updated_at"],
    }
    # Written by the run: when it ran.
    assert run.started_at.isoformat() <= first["updated_at"].replace("Z", "+00:00")
    # Ann +380 +300, Cid +380 -300, Bob -380 +300 in 2 matches; Eve -300 and Dot -380 in one,
    # below the minimum of 2.
    assert [
        (row["player"]["name"], row["rank"], row["qualified"], row["net_points"])
        for row in body["results"]
    ] == [
        ("Ann", 1, True, 680),
        ("Cid", 2, True, 80),
        ("Bob", 3, True, -80),
        ("Eve", 4, False, -300),
        ("Dot", 5, False, -380),
    ]


def test_filtered_by_minimum_matches_and_paginated(public_season):
    standings_recalculate(season_id=public_season.id)
    client = APIClient()

    body = client.get(ladder_url(public_season.id), {"min_matches": 2}).json()
    assert [row["player"]["name"] for row in body["results"]] == ["Ann", "Cid", "Bob"]
    assert body["count"] == 3

    page = client.get(ladder_url(public_season.id), {"page_size": 2, "page": 2}).json()
    assert page["count"] == 5
    assert [row["player"]["name"] for row in page["results"]] == ["Bob", "Eve"]
    assert page["next"] and page["previous"]
    assert page["season"] == public_season.id


@pytest.mark.parametrize("value", ["two", "-1", "1.5"])
def test_a_bad_minimum_is_a_400_naming_it(public_season, value):
    response = APIClient().get(ladder_url(public_season.id), {"min_matches": value})
    assert response.status_code == 400
    assert "min_matches" in response.json()["errors"]


def test_an_unknown_parameter_is_a_400(public_season):
    response = APIClient().get(ladder_url(public_season.id), {"minmatches": 2})
    assert response.status_code == 400
    assert "minmatches" in response.json()["errors"]


def test_a_private_clubs_ladder_is_for_its_members(private_season):
    assert APIClient().get(ladder_url(private_season.id)).status_code == 404

    outsider = APIClient()
    outsider.force_authenticate(get_user_model().objects.create_user(username="x", password="p"))
    assert outsider.get(ladder_url(private_season.id)).status_code == 404

    member = signed_in_member_of(private_season.club)
    body = member.get(ladder_url(private_season.id)).json()
    assert [row["player"]["name"] for row in body["results"]] == ["Pia", "Quin"]


def test_an_unknown_season_is_a_404():
    assert APIClient().get(ladder_url(99999999)).status_code == 404
    assert APIClient().get(ladder_url(2**70)).status_code == 404


def test_the_ladder_is_read_only(public_season):
    director = APIClient()
    director.force_authenticate(get_user_model().objects.create_superuser("root", "", "pw"))
    assert director.post(ladder_url(public_season.id), {}).status_code == 405


def test_a_players_season_history(public_season):
    club = public_season.club
    ann, cid, eve = (club.players.get(name=name) for name in ("Ann", "Cid", "Eve"))
    stored_match(public_season, D2, (eve, ann), (0, 50), "EW", kind="two_player")

    response = APIClient().get(history_url(public_season.id, ann.id))

    assert response.status_code == 200
    body = response.json()
    assert body["season"] == public_season.id
    assert body["player"] == {"id": ann.id, "name": "Ann"}
    assert body["count"] == 3
    first, second, third = body["results"]
    assert first["date"] == "2025-03-04"
    assert (first["kind"], first["side"], first["result"]) == ("chicago", "NS", "win")
    assert first["partner"] == {"id": cid.id, "name": "Cid"}
    assert [p["name"] for p in first["opponents"]] == ["Bob", "Dot"]
    assert (first["points_for"], first["points_against"], first["net_points"]) == (500, 120, 380)
    assert (second["partner"]["name"], second["net_points"]) == ("Bob", 300)
    assert [p["name"] for p in second["opponents"]] == ["Cid", "Eve"]
    assert third["partner"] is None
    assert [p["name"] for p in third["opponents"]] == ["Eve"]
    assert (third["side"], third["net_points"], third["result"]) == ("EW", 50, "win")
    assert third["finished_early"] is False
    assert {entry["counted"] for entry in body["results"]} == {True}


def test_a_league_ladder_shows_points_and_matches_counted(public_season):
    club = public_season.club
    club_update(club=club, ladder_ranking="points", ladder_best_matches=1, ladder_min_matches=0)
    standings_recalculate(season_id=public_season.id)

    body = APIClient().get(ladder_url(public_season.id)).json()
    # Best 1: Ann's +380 win; Cid's and Bob's win (one each); Eve's and Dot's one loss.
    assert [
        (row["player"]["name"], row["rank"], row["matches"], row["counted"], row["points"],
         row["wins"], row["net_points"])
        for row in body["results"]
    ] == [
        ("Ann", 1, 2, 1, 3, 1, 380),
        ("Cid", 1, 2, 1, 3, 1, 380),
        ("Bob", 3, 2, 1, 3, 1, 300),
        ("Eve", 4, 1, 1, 0, 0, -300),
        ("Dot", 5, 1, 1, 0, 0, -380),
    ]  # fmt: skip
    history = APIClient().get(history_url(public_season.id, club.players.get(name="Cid").id))
    assert [entry["counted"] for entry in history.json()["results"]] == [True, False]


def test_history_of_someone_outside_the_club_is_a_404(public_season, private_season):
    stranger = private_season.club.players.first()
    assert not Membership.objects.filter(club=public_season.club, player=stranger).exists()
    assert APIClient().get(history_url(public_season.id, stranger.id)).status_code == 404
    assert APIClient().get(history_url(public_season.id, 99999999)).status_code == 404
    member = public_season.club.players.get(name="Ann")
    assert APIClient().get(history_url(private_season.id, member.id)).status_code == 404


def test_the_endpoints_are_in_the_schema():
    schema = APIClient().get("/api/v1/schema/", HTTP_ACCEPT="application/json").json()
    ladder = schema["paths"]["/api/v1/seasons/{season_id}/ladder/"]["get"]
    assert {p["name"] for p in ladder["parameters"]} >= {"season_id", "min_matches", "page"}
    history = schema["paths"]["/api/v1/seasons/{season_id}/players/{player_id}/history/"]
    assert "get" in history
