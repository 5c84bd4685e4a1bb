"""A season's ladder ranked by par IMPs (docs/players/ladders.md, "Par IMPs"): a club night of
eight players, two rounds, at a club that scores against par. The table that holds the cards
wins the net points and loses against par; each player's net and IMPs are recomputed here by
hand from the matches' totals and par readings, and the ladder's order from them."""

import csv
import io

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Match
from nights.services import night_start
from scoring.models import Standing
from scoring.selectors import ladder_export, player_season_history
from tests.clubs.factories import PLAY_DATE, make_club, make_players
from tests.nights.test_rank_by_par import play_rounds, tally_of
from tests.scoring.conftest import recalculated

pytestmark = pytest.mark.django_db

STEEP = {"not_vulnerable": list(range(0, 2100, 100)), "vulnerable": list(range(0, 4200, 200))}


@pytest.fixture
def season():
    club = make_club(par_scoring=True, public=True)
    players = make_players(club, 8)
    night = night_start(
        club=club, date=PLAY_DATE, players=players, movement="round_robin", rounds=2
    )
    play_rounds(night, 2)
    recalculated(club)
    return night.session.season


def by_hand(season) -> dict[int, tuple[int, int]]:
    """Each player's (net, par IMPs) over the season's matches, read match by match."""
    return tally_of(Match.objects.filter(season=season))


def ladder(season) -> list[tuple[int, int, int, int]]:
    """The stored ladder as (rank, player, net, IMPs), in order."""
    return list(
        Standing.objects.filter(season=season)
        .order_by("position")
        .values_list("rank", "player_id", "net_points", "imps")
    )


def places(scores: dict[int, tuple[int, ...]]) -> dict[int, int]:
    return {pk: 1 + sum(other > score for other in scores.values()) for pk, score in scores.items()}


def test_the_ladder_carries_the_imps_and_ranks_by_them_when_the_club_says(season, update):
    tally = by_hand(season)
    by_net = ladder(season)  # the club ranks by net points: the ladder recalculated itself
    assert {pk: (net, imps) for _rank, pk, net, imps in by_net} == tally
    assert {pk: rank for rank, pk, _n, _i in by_net} == places(
        {pk: (net,) for pk, (net, _imps) in tally.items()}
    )
    assert sum(imps for _net, imps in tally.values()) == 0

    update(season.club, ladder_ranking="par")
    by_par = ladder(season)
    assert {pk: rank for rank, pk, _n, _i in by_par} == places(
        {pk: (imps, net) for pk, (net, imps) in tally.items()}
    )
    assert [imps for *_rest, imps in by_par] == sorted(
        (imps for _net, imps in tally.values()), reverse=True
    )
    assert by_par != by_net  # the cards won the net points, not the IMPs


def test_a_changed_par_table_reads_the_ladder_again(season, update):
    before = {pk: imps for _rank, pk, _net, imps in ladder(season)}
    update(season.club, par_table=STEEP)
    after = {pk: imps for _rank, pk, _net, imps in ladder(season)}
    assert after == {pk: imps for pk, (_net, imps) in by_hand(season).items()}
    assert after != before


def test_ranking_by_par_needs_par_scoring(update):
    club = make_club()
    with pytest.raises(ValidationError) as refused:
        update(club, ladder_ranking="par")
    assert list(refused.value.error_dict) == ["ladder_ranking"]
    club.refresh_from_db()
    assert club.ladder_ranking == "net"


def test_par_scoring_stays_on_while_the_ladder_ranks_by_it(season, update):
    club = season.club
    update(club, ladder_ranking="par")
    with pytest.raises(ValidationError) as refused:
        update(club, par_scoring=False)
    assert list(refused.value.error_dict) == ["ladder_ranking"]
    update(club, par_scoring=False, ladder_ranking="net")  # both at once
    assert {imps for *_rest, imps in ladder(season)} == {None}  # re-read without par


def test_the_best_n_by_par_are_the_best_imps(season, update):
    update(season.club, ladder_ranking="par", ladder_best_matches=1)
    player = Standing.objects.filter(season=season).order_by("position").first()
    history = player_season_history(season_id=season.pk, player_id=player.player_id)
    counted = [entry for entry in history if entry.counted]
    assert len(history) == 2 and len(counted) == 1
    assert counted[0].imps == max(entry.imps for entry in history) == player.imps


def test_the_page_the_player_page_and_the_export_show_the_imps(season, update):
    club = season.club
    update(club, ladder_ranking="par")
    client = Client()
    page = client.get(reverse("scoring:ladder", args=[club.slug, season.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Par IMPs" in html and "The ladder is ordered by par IMPs, then net points." in html
    assert reverse("matches:par_guide") in html
    top = Standing.objects.filter(season=season).order_by("position").first()
    sorted_page = client.get(
        reverse("scoring:ladder", args=[club.slug, season.pk]), {"sort": "imps"}
    )
    assert sorted_page.status_code == 200

    player = client.get(reverse("scoring:player", args=[club.slug, top.player_id]))
    assert f'data-label="Par IMPs">+{top.imps}<' in player.content.decode()

    export = ladder_export(season=season)
    headers = [str(header) for header in export.headers]
    rows = {row[headers.index("Player")]: row for row in export.rows}
    assert rows[top.player.name][headers.index("Par IMPs")] == top.imps
    download = client.get(reverse("scoring:ladder_export", args=[club.slug, season.pk, "csv"]))
    text = b"".join(download.streaming_content).decode("utf-8-sig")
    lines = list(csv.DictReader(io.StringIO(text)))
    assert lines[0]["Par IMPs"] == str(top.imps)


def test_a_club_without_par_shows_no_imps_column():
    club = make_club(public=True)
    page = Client().get(reverse("scoring:ladder", args=[club.slug, club.seasons.get().pk]))
    assert page.status_code == 200 and "Par IMPs" not in page.content.decode()


def test_the_api_answers_the_imps(season):
    body = APIClient().get(f"/api/v1/seasons/{season.pk}/ladder/").json()
    tally = by_hand(season)
    assert {line["player"]["id"]: line["imps"] for line in body["results"]} == {
        pk: imps for pk, (_net, imps) in tally.items()
    }
    player = body["results"][0]["player"]["id"]
    history = APIClient().get(f"/api/v1/seasons/{season.pk}/players/{player}/history/").json()
    assert sum(entry["imps"] for entry in history["results"]) == tally[player][1]
