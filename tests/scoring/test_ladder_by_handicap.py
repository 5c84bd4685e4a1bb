"""A season's ladder ranked by handicap (docs/players/ladders.md, "Handicapped net"): two club
nights of eight players at a club that gives handicaps. On the second night each player's
handicap on the ladder is the one the night fixed when it began (both from the ratings of the
first); each player's handicapped net is recomputed here from the matches and those handicaps,
and the ladder's order from it. The page, the API and the download carry it."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Match
from nights.models import NightPlayer
from nights.services import night_start
from scoring.models import Standing
from scoring.selectors import ladder_export
from tests.clubs.factories import PLAY_DATE, make_club, make_players
from tests.nights.test_rank_by_par import play_rounds
from tests.scoring.conftest import recalculated
from tests.scoring.test_ladder_by_par import places

pytestmark = pytest.mark.django_db


@pytest.fixture
def season():
    """The first night rates the players (every handicap 0: all start at 1500); the second
    is played with the handicaps of those ratings."""
    club = make_club(handicap_strength=100, handicap_cap=300, public=True)
    players = make_players(club, 8)
    first = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=3
    )
    play_rounds(first, 3)
    recalculated(club)
    second = night_start(
        club=club,
        date=PLAY_DATE + datetime.timedelta(days=7),
        players=players,
        movement="round_robin",
        rounds=2,
    )
    play_rounds(second, 2)
    recalculated(club)
    return second


def by_hand(night) -> dict[int, tuple[int, int]]:
    """Each player's (net, handicapped net) over the season: the second night's matches less
    the handicaps it fixed; the first night's at handicap 0 (everyone rated 1500 then)."""
    given = dict(NightPlayer.objects.filter(night=night).values_list("player_id", "handicap"))
    assert len(set(given.values())) > 1
    tally: dict[int, list[int]] = {}
    for match in Match.objects.filter(season=night.session.season):
        net = match.total_ns - match.total_ew
        later = match.table.session_id == night.session_id
        for pk, sign in (
            (match.north_id, 1),
            (match.south_id, 1),
            (match.east_id, -1),
            (match.west_id, -1),
        ):
            line = tally.setdefault(pk, [0, 0])
            line[0] += sign * net
            line[1] += sign * net - (given[pk] if later else 0)
    return {pk: (net, handicapped) for pk, (net, handicapped) in tally.items()}


def ladder(season_id) -> dict[int, tuple[int, int, int | None]]:
    return {
        pk: (rank, net, handicapped)
        for rank, pk, net, handicapped in Standing.objects.filter(season_id=season_id).values_list(
            "rank", "player_id", "net_points", "handicapped"
        )
    }


def test_the_ladder_ranks_by_the_net_less_the_nights_handicaps(season, update):
    club, season_id = season.session.club, season.session.season_id
    assert {line[2] for line in ladder(season_id).values()} == {None}  # scratch by default
    update(club, ladder_ranking="handicap")
    tally = by_hand(season)
    stored = ladder(season_id)
    assert {pk: (net, handicapped) for pk, (_rank, net, handicapped) in stored.items()} == tally
    assert {pk: rank for pk, (rank, _n, _h) in stored.items()} == places(
        {pk: (handicapped, net) for pk, (net, handicapped) in tally.items()}
    )

    page = Client().get(reverse("scoring:ladder", args=[club.slug, season_id]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Handicapped net" in html and reverse("nights:handicap_guide") in html
    top = min(stored, key=lambda pk: stored[pk][0])
    player = Client().get(reverse("scoring:player", args=[club.slug, top])).content.decode()
    assert "Handicapped net" in player
    assert f"{stored[top][2]:+d}".replace("-", "\u2212") in player
    api = APIClient().get(f"/api/v1/seasons/{season_id}/ladder/").json()["results"]
    assert {line["player"]["id"]: line["handicapped"] for line in api} == {
        pk: handicapped for pk, (_net, handicapped) in tally.items()
    }
    export = ladder_export(season=season.session.season)
    assert str(export.headers[-1]) == "Handicapped net"
    player = [str(header) for header in export.headers].index("Player")
    names = dict(
        Standing.objects.filter(season_id=season_id).values_list("player__name", "player_id")
    )
    assert {names[row[player]]: row[-1] for row in export.rows} == {
        pk: handicapped for pk, (_net, handicapped) in tally.items()
    }


def test_ranking_by_handicap_needs_handicaps(season, update):
    club = make_club()
    with pytest.raises(ValidationError) as refused:
        update(club, ladder_ranking="handicap")
    assert list(refused.value.error_dict) == ["ladder_ranking"]
    giving = season.session.club
    update(giving, ladder_ranking="handicap")
    with pytest.raises(ValidationError) as refused:
        update(giving, handicap_strength=0)
    assert list(refused.value.error_dict) == ["ladder_ranking"]
    update(giving, handicap_strength=0, ladder_ranking="net")  # both at once
    assert {line[2] for line in ladder(season.session.season_id).values()} == {None}
