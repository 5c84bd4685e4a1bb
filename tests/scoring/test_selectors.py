"""Reading stored ladders and a player's season history (scoring.selectors)."""

from datetime import date

import pytest

from scoring.selectors import (
    ladder_rows,
    latest_run,
    player_season_history,
    seasons_with_activity,
)
from scoring.services import standings_recalculate
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db

D1, D2, D3 = date(2025, 3, 4), date(2025, 3, 11), date(2025, 3, 18)


@pytest.fixture
def season():
    return make_season(make_club(ladder_rounding="nearest_100"))


@pytest.fixture
def players(season):
    return make_players(season.club, "Ann", "Bob", "Cid", "Dot", "Eve")


def test_reading_a_ladder_never_computes_it(season, players):
    ann, bob, *_ = players
    stored_match(season, D1, (ann, bob), (500, 0), "NS")
    assert latest_run(season_id=season.id) is None
    assert list(ladder_rows(season_id=season.id)) == []

    run = standings_recalculate(season_id=season.id)
    stored_match(season, D2, (ann, bob), (0, 900), "EW")  # not recalculated yet

    assert latest_run(season_id=season.id) == run
    assert [(row.player.name, row.net_points) for row in ladder_rows(season_id=season.id)] == [
        ("Ann", 500),
        ("Bob", -500),
    ]


def test_the_ladder_filtered_by_minimum_matches(season, players):
    ann, bob, cid, dot, eve = players
    stored_match(season, D1, (ann, bob, cid, dot), (500, 0), "NS")
    stored_match(season, D2, (ann, eve), (500, 0), "NS")
    standings_recalculate(season_id=season.id)

    assert [row.player.name for row in ladder_rows(season_id=season.id)] == [
        "Ann",  # +1000 in 2
        "Cid",  # +500
        "Bob",  # -500 in 1 each, by name
        "Dot",
        "Eve",
    ]
    assert [row.player.name for row in ladder_rows(season_id=season.id, min_matches=2)] == ["Ann"]


def test_a_players_season_history(season, players):
    ann, bob, cid, dot, eve = players
    stored_match(season, D2, (bob, ann, dot, cid), (1000, 1240), "NS", kind="rubber")
    stored_match(season, D1, (ann, bob, cid, dot), (570, 120), "NS")
    stored_match(season, D3, (eve, ann), (300, 300), "tie", kind="two_player")
    stored_match(season, D3, (ann, bob, cid, dot), (900, 0), "", status="abandoned")
    stored_match(season, D3, (bob, cid, dot, eve), (900, 0), "NS")  # without Ann
    other = make_season(season.club, year=2024)
    stored_match(other, date(2024, 5, 5), (ann, bob), (900, 0), "NS")

    history = player_season_history(season_id=season.id, player_id=ann.id)

    assert [
        (
            entry.played_on,
            entry.kind,
            entry.side,
            entry.partner and entry.partner.name,
            [player.name for player in entry.opponents],
            entry.total_for,
            entry.total_against,
            entry.net_points,
            entry.result,
        )
        for entry in history
    ] == [
        (D1, "chicago", "NS", "Cid", ["Bob", "Dot"], 570, 120, 500, "win"),  # 450 rounds up
        (D2, "rubber", "EW", "Cid", ["Bob", "Dot"], 1240, 1000, 200, "loss"),  # fewer points won
        (D3, "two_player", "EW", None, ["Eve"], 300, 300, 0, "draw"),
    ]


def test_seasons_with_activity(season, players):
    ann, bob, *_ = players
    assert seasons_with_activity() == []
    stored_match(season, D1, (ann, bob), (0, 0), "", status="in_progress")
    quiet = make_season(season.club, year=2024)
    assert seasons_with_activity() == [season.id]
    assert quiet.id not in seasons_with_activity()


def test_a_history_says_which_matches_the_best_n_count(season, players):
    ann, bob, *_ = players
    season.club.ladder_best_matches = 2
    season.club.save()
    stored_match(season, D1, (ann, bob), (100, 0), "NS")  # +100
    stored_match(season, D2, (ann, bob), (0, 900), "EW")  # -900: not among the best two
    stored_match(season, D3, (ann, bob), (300, 0), "NS")  # +300

    history = player_season_history(season_id=season.id, player_id=ann.id)
    assert [(entry.net_points, entry.counted) for entry in history] == [
        (100, True),  # rounded to the nearest 100 (the club's option)
        (-900, False),
        (300, True),
    ]
    # Bob's two best are the +900 and the -100.
    bob_history = player_season_history(season_id=season.id, player_id=bob.id)
    assert [entry.counted for entry in bob_history] == [True, True, False]
    # With every match counting, all count.
    season.club.ladder_best_matches = 0
    season.club.save()
    assert all(e.counted for e in player_season_history(season_id=season.id, player_id=ann.id))


def test_every_ladder_option_of_a_club_is_an_option_of_the_ladder_and_back():
    from dataclasses import fields

    from clubs.models import LADDER_OPTIONS
    from scoring.ladder import LadderOptions
    from scoring.selectors import club_ladder_options

    assert {name.removeprefix("ladder_") for name in LADDER_OPTIONS} == {
        field.name for field in fields(LadderOptions)
    }
    club = make_club(ladder_ranking="points", ladder_points_win=2, ladder_best_matches=7)
    assert club_ladder_options(club) == LadderOptions(
        ranking="points", points_win=2, best_matches=7, handicap_cap=300
    )
