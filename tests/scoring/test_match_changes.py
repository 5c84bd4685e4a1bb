"""Every change made through the match services brings the season's ladder up to date once
it commits (tasks in-process, as on the embedded default)."""

import datetime

import pytest

from clubs.services import club_create, club_update, player_create, season_create
from matches.services import (
    deal_correct,
    deal_delete_last,
    deal_record,
    match_abandon,
    match_create,
    match_finish,
)
from scoring.engine import PassedOut, Played
from scoring.models import Standing, StandingsRun

pytestmark = pytest.mark.django_db

PLAYED_ON = datetime.date(2025, 3, 14)

# docs/rules.md, "Worked examples", first dealer North: NS 500, EW 120.
WORKED_EXAMPLE = [
    Played("2S", "N", 8),
    PassedOut(),
    Played("2H", "S", 9),
    Played("3NT", "E", 8),
    Played("1C", "W", 7),
]


@pytest.fixture
def club(django_user_model):
    director = django_user_model.objects.create_user(username="boss", password="pw")
    club = club_create(creator=director, name="Ladder Club", slug="ladder-club", country="NL")
    season_create(
        club=club,
        name="2025",
        start_date=datetime.date(2025, 1, 1),
        end_date=datetime.date(2025, 12, 31),
    )
    return club


@pytest.fixture
def seats(club):
    names = {"N": "Ann", "E": "Bob", "S": "Cid", "W": "Dot"}
    return {seat: player_create(club=club, name=name) for seat, name in names.items()}


def ladder(club):
    return [
        (row.player.name, row.matches, row.wins, row.losses, row.net_points)
        for row in Standing.objects.filter(season__club=club).select_related("player")
    ]


def test_recording_correcting_and_deleting_deals_keeps_the_ladder_current(
    club, seats, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(club=club, kind="chicago", seats=seats, played_on=PLAYED_ON)
        for deal in WORKED_EXAMPLE[:-1]:
            deal_record(match=match, result=deal)
    assert ladder(club) == []  # three counted deals: the match does not count yet

    with django_capture_on_commit_callbacks(execute=True):
        deal_record(match=match, result=WORKED_EXAMPLE[-1])
    assert ladder(club) == [
        ("Ann", 1, 1, 0, 380),
        ("Cid", 1, 1, 0, 380),
        ("Bob", 1, 0, 1, -380),
        ("Dot", 1, 0, 1, -380),
    ]

    # Deal 3 was 3NT by East making 9: 400 to EW instead of 50 to NS -> NS 450, EW 520.
    with django_capture_on_commit_callbacks(execute=True):
        deal_correct(match=match, sequence=4, result=Played("3NT", "E", 9))
    assert ladder(club) == [
        ("Bob", 1, 1, 0, 70),
        ("Dot", 1, 1, 0, 70),
        ("Ann", 1, 0, 1, -70),
        ("Cid", 1, 0, 1, -70),
    ]

    with django_capture_on_commit_callbacks(execute=True):
        deal_delete_last(match=match)
    assert ladder(club) == []  # incomplete again
    assert StandingsRun.objects.filter(season__club=club).latest().trigger == "change"


def test_an_abandoned_match_leaves_the_ladder(
    club, seats, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(club=club, kind="chicago", seats=seats, played_on=PLAYED_ON)
        for deal in WORKED_EXAMPLE:
            deal_record(match=match, result=deal)
        other = match_create(club=club, kind="rubber", seats=seats, played_on=PLAYED_ON)
        deal_record(match=other, result=Played("4S", "N", 10))
    assert len(ladder(club)) == 4

    with django_capture_on_commit_callbacks(execute=True):
        match_abandon(match=other)  # in progress -> abandoned: still nothing from it
    assert [row[1] for row in ladder(club)] == [1, 1, 1, 1]


def test_a_rubber_finished_early_counts_by_the_laws(
    club, seats, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(club=club, kind="rubber", seats=seats, played_on=PLAYED_ON)
        # NS game (4S making: 120 below), then EW partscore 2C (40 below).
        deal_record(match=match, result=Played("4S", "N", 10))
        deal_record(match=match, result=Played("2C", "E", 8))
    assert ladder(club) == []

    with django_capture_on_commit_callbacks(execute=True):
        match_finish(match=match)
    # NS 120 + 300 for the game; EW 40 + 100 for the partscore: NS win by 280.
    assert ladder(club) == [
        ("Ann", 1, 1, 0, 280),
        ("Cid", 1, 1, 0, 280),
        ("Bob", 1, 0, 1, -280),
        ("Dot", 1, 0, 1, -280),
    ]


def test_a_two_player_rubber(club, seats, eager_tasks, django_capture_on_commit_callbacks):
    two = {"N": seats["N"], "E": seats["E"]}
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(club=club, kind="two_player", seats=two, played_on=PLAYED_ON)
        # N wins two games, not vulnerable then vulnerable: 120 + 120 + 700 bonus.
        deal_record(match=match, result=Played("4S", "N", 10))
        deal_record(match=match, result=Played("4H", "N", 10))
    assert ladder(club) == [("Ann", 1, 1, 0, 940), ("Bob", 1, 0, 1, -940)]


def test_changing_a_ladder_option_recalculates_the_clubs_ladders(
    club, seats, eager_tasks, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        match = match_create(club=club, kind="chicago", seats=seats, played_on=PLAYED_ON)
        for deal in WORKED_EXAMPLE:
            deal_record(match=match, result=deal)
    assert set(Standing.objects.filter(season__club=club).values_list("qualified", flat=True)) == {
        True
    }

    runs = StandingsRun.objects.filter(season__club=club)
    runs_before = runs.count()

    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, ladder_min_matches=2, ladder_rounding="nearest_100")
    rows = Standing.objects.filter(season__club=club)
    # NS won by 380: rounded to 400; one match is below the new minimum of two.
    assert {(row.qualified, row.net_points) for row in rows} == {(False, 400), (False, -400)}
    assert runs.count() == runs_before + 1

    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, name="Ladder Club of Leiden")
    assert runs.count() == runs_before + 1  # nothing a ladder depends on changed

    # Each league option is a ladder option: league points of a win, then best N.
    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, ladder_ranking="points", ladder_points_win=2)
    assert runs.count() == runs_before + 2
    assert set(rows.values_list("points", "net_points")) == {(2, 400), (0, -400)}
    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=club, ladder_best_matches=1)
    assert runs.count() == runs_before + 3
