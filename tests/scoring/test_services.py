"""Recalculating a season's standings (scoring.services) against hand-computed seasons."""

from datetime import date

import psycopg.errors
import pytest
from django.db import OperationalError

from clubs import transactions
from clubs.models import Season
from clubs.transactions import ATTEMPTS
from scoring import services
from scoring.ladder import compute_ladder
from scoring.models import RunStatus, Standing, StandingsRun
from scoring.services import RUNS_KEPT, standings_recalculate, standings_recalculate_all
from tests.scoring.factories import make_club, make_players, make_season, stored_match

pytestmark = pytest.mark.django_db

D1, D2, D3 = date(2025, 3, 4), date(2025, 3, 11), date(2025, 3, 18)


def ladder(season):
    return [
        (s.player.name, s.rank, s.qualified, s.matches, s.wins, s.draws, s.losses, s.net_points)
        for s in Standing.objects.filter(season=season).select_related("player")
    ]


@pytest.fixture
def season():
    return make_season(make_club())


@pytest.fixture
def four(season):
    return make_players(season.club, "Ann", "Bob", "Cid", "Dot")


def test_a_season_of_chicagos_rubbers_and_two_player_matches(season, four):
    ann, bob, cid, dot = four
    # Chicago: Ann and Cid beat Bob and Dot 500 to 120.
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    # Rubber won by Bob and Dot (two games) with fewer points than Ann and Cid.
    stored_match(season, D1, (bob, ann, dot, cid), (900, 1100), "NS", kind="rubber")
    # An unfinished rubber finished by the Laws: equal totals, a draw.
    stored_match(
        season, D2, (ann, bob, cid, dot), (300, 300), "tie", kind="rubber", finished_early=True
    )
    # Two-player: Bob alone beats Cid alone by 400.
    stored_match(season, D3, (bob, cid), (700, 300), "NS")
    # Not counted: abandoned and in progress.
    stored_match(season, D3, (ann, bob, cid, dot), (2000, 0), "", status="abandoned")
    stored_match(season, D3, (dot, cid), (0, 1000), "", status="in_progress")

    run = standings_recalculate(season_id=season.id)

    assert (run.status, run.matches_counted, run.players_ranked) == ("done", 4, 4)
    assert run.finished_at >= run.started_at
    # Ann: +380, +200, 0 = 580 in 3 (W1 D1 L1); Cid: +380 +200 0 -400 = 180 in 4 (W1 D1 L2);
    # Bob: -380 -200 0 +400 = -180 in 4 (W2 D1 L1); Dot: -380 -200 0 = -580 in 3 (W1 D1 L1).
    assert ladder(season) == [
        ("Ann", 1, True, 3, 1, 1, 1, 580),
        ("Cid", 2, True, 4, 1, 1, 2, 180),
        ("Bob", 3, True, 4, 2, 1, 1, -180),
        ("Dot", 4, True, 3, 1, 1, 1, -580),
    ]
    bob_row = Standing.objects.get(season=season, player=bob)
    assert (bob_row.best, bob_row.worst, bob_row.average) == (400, -380, -45.0)
    assert bob_row.run_id == run.id


def test_club_options_qualification_and_rounding(four):
    club = make_club(ladder_min_matches=2, ladder_rounding="nearest_100")
    season = make_season(club)
    ann, bob, cid, dot = four
    stored_match(season, D1, (ann, bob), (1050, 0), "NS")  # +1050 -> +1100
    stored_match(season, D1, (cid, dot), (550, 500), "NS")  # +50 -> +100
    stored_match(season, D2, (cid, dot), (500, 549), "EW")  # -49 -> 0
    stored_match(season, D2, (bob, dot), (0, 150), "EW")  # -150 -> -200

    standings_recalculate(season_id=season.id)

    assert ladder(season) == [
        ("Cid", 1, True, 2, 1, 0, 1, 100),  # +100 and 0: average 50
        ("Dot", 2, True, 3, 2, 0, 1, 100),  # -100, 0 and +200: average 33.33
        ("Bob", 3, True, 2, 0, 0, 2, -1300),  # -1100 and -200
        ("Ann", 4, False, 1, 1, 0, 0, 1100),  # the best net, but below the minimum of 2
    ]


def test_league_points_and_best_matches_are_stored(four):
    club = make_club(ladder_ranking="points", ladder_points_win=2, ladder_best_matches=2)
    season = make_season(club)
    ann, bob, cid, dot = four
    stored_match(season, D1, (ann, bob), (100, 0), "NS")  # Ann +100, a win
    stored_match(season, D2, (ann, bob), (0, 900), "EW")  # Ann -900, a loss: not counted
    stored_match(season, D3, (ann, bob), (300, 300), "tie")  # a draw
    stored_match(season, D3, (cid, dot), (2000, 0), "NS")  # Cid +2000 once

    run = standings_recalculate(season_id=season.id)

    rows = {
        row.player.name: (
            row.rank, row.matches, row.counted, row.wins, row.draws, row.losses, row.points,
            row.net_points, row.best, row.worst, row.net_line(),
        )
        for row in Standing.objects.filter(season=season).select_related("player")
    }  # fmt: skip
    assert rows == {
        # Bob: his win (+900, 2 points) and the draw (1) count, not the loss (-100).
        "Bob": (1, 3, 2, 1, 1, 0, 3, 900, 900, 0, [900, 900]),
        # Ann: as many points; the win (+100) and the draw count, not the loss (-900).
        "Ann": (2, 3, 2, 1, 1, 0, 3, 100, 100, 0, [100, 100]),
        # Cid: the most net points, but fewer league points.
        "Cid": (3, 1, 1, 1, 0, 0, 2, 2000, 2000, 2000, [2000]),
        "Dot": (4, 1, 1, 0, 0, 1, 0, -2000, -2000, -2000, [-2000]),
    }
    assert run.matches_counted == 4


def test_only_the_seasons_complete_matches_count(season, four):
    ann, bob, cid, dot = four
    stored_match(season, D1, (ann, bob), (500, 0), "NS")
    other = make_season(season.club, year=2024)
    stored_match(other, date(2024, 5, 1), (cid, dot), (500, 0), "NS")
    elsewhere = make_season(make_club())
    stored_match(elsewhere, D1, (cid, dot), (500, 0), "NS")

    run = standings_recalculate(season_id=season.id)

    assert run.matches_counted == 1
    assert [row[0] for row in ladder(season)] == ["Ann", "Bob"]
    assert not Standing.objects.filter(season=other).exists()


def test_ratings_replay_in_date_order_not_entry_order(season, four):
    ann, bob, _cid, _dot = four
    stored_match(season, D2, (ann, bob), (500, 0), "NS")  # entered first, played second
    stored_match(season, D1, (ann, bob), (0, 500), "EW")  # Bob wins the earlier match

    standings_recalculate(season_id=season.id)

    # D1: Bob 1510, Ann 1490. D2: Ann (expected 1 / (1 + 10 ** (20 / 400)) = 0.471249) wins,
    # gaining 20 * 0.528751 = 10.575. Entry order would give Ann 1499.4 instead.
    ratings = dict(Standing.objects.filter(season=season).values_list("player__name", "rating"))
    assert ratings == {"Ann": pytest.approx(1500.6), "Bob": pytest.approx(1499.4)}


def test_recalculating_twice_leaves_one_set_and_replaces_the_rows(season, four):
    ann, bob, cid, dot = four
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    first = standings_recalculate(season_id=season.id)
    before = ladder(season)
    second = standings_recalculate(season_id=season.id)

    assert ladder(season) == before
    assert Standing.objects.filter(season=season).count() == 4
    # The second found the ladder as it was: the rows stay the first's (issue 28).
    assert set(Standing.objects.filter(season=season).values_list("run", flat=True)) == {first.id}
    assert StandingsRun.objects.filter(id=first.id, status=RunStatus.DONE).exists()
    assert StandingsRun.objects.filter(id=second.id, status=RunStatus.DONE, changed=False).exists()

    stored_match(season, D2, (ann, bob), (0, 1000), "EW")
    standings_recalculate(season_id=season.id)
    assert ladder(season)[0][:2] == ("Bob", 1)
    assert Standing.objects.filter(season=season).count() == 4


def test_a_season_whose_matches_went_away_gets_an_empty_ladder(season, four):
    ann, bob, _cid, _dot = four
    match = stored_match(season, D1, (ann, bob), (500, 0), "NS")
    standings_recalculate(season_id=season.id)
    match.status, match.winner = "abandoned", ""
    match.save()

    run = standings_recalculate(season_id=season.id)

    assert (run.matches_counted, run.players_ranked) == (0, 0)
    assert ladder(season) == []


def test_old_runs_are_pruned(season, four):
    stored_match(season, D1, tuple(four[:2]), (500, 0), "NS")
    runs = [standings_recalculate(season_id=season.id) for _ in range(RUNS_KEPT + 3)]
    kept = list(StandingsRun.objects.filter(season=season).values_list("id", flat=True))
    # The first wrote the rows (the later ones found the ladder as it was): it stays with them.
    assert sorted(kept) == [runs[0].id] + [run.id for run in runs[-RUNS_KEPT:]]
    assert Standing.objects.filter(season=season, run=runs[0]).count() == 2


def test_a_failed_recalculation_keeps_the_old_rows_and_records_the_error(season, four, monkeypatch):
    ann, bob, cid, dot = four
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    good = standings_recalculate(season_id=season.id)
    before = ladder(season)
    stored_match(season, D2, (ann, bob), (0, 900), "EW")

    def broken(*args, **kwargs):
        raise RuntimeError("ladder exploded")

    monkeypatch.setattr(services, "compute_ladder", broken)
    with pytest.raises(RuntimeError, match="exploded"):
        standings_recalculate(season_id=season.id)

    assert ladder(season) == before
    assert set(Standing.objects.filter(season=season).values_list("run", flat=True)) == {good.id}
    failed = StandingsRun.objects.filter(season=season, status=RunStatus.FAILED).get()
    assert failed.error == "RuntimeError: ladder exploded"
    assert failed.finished_at is not None


def ended_as_deadlock_victim(times: int):
    """The first ``times`` calls of ``compute_ladder`` fail as PostgreSQL ends a deadlock's
    victim (Django's OperationalError from psycopg's DeadlockDetected)."""
    calls = []

    def compute(*args, **kwargs):
        calls.append(1)
        if len(calls) <= times:
            error = OperationalError("deadlock detected")
            error.__cause__ = psycopg.errors.DeadlockDetected("deadlock detected")
            raise error
        return compute_ladder(*args, **kwargs)

    return compute, calls


@pytest.mark.django_db(transaction=True)
def test_a_recalculation_ended_by_a_deadlock_runs_again(season, four, monkeypatch):
    ann, bob, cid, dot = four
    stored_match(season, D1, (ann, bob, cid, dot), (500, 120), "NS")
    monkeypatch.setattr(transactions, "_pause", lambda attempt: None)
    compute, calls = ended_as_deadlock_victim(ATTEMPTS - 1)
    monkeypatch.setattr(services, "compute_ladder", compute)
    run = standings_recalculate(season_id=season.id)
    assert len(calls) == ATTEMPTS and run.status == RunStatus.DONE
    assert sorted(row[0] for row in ladder(season)) == ["Ann", "Bob", "Cid", "Dot"]
    # The attempts that failed left nothing behind, not even a failed run.
    assert list(StandingsRun.objects.values_list("status", flat=True)) == [RunStatus.DONE]

    compute, calls = ended_as_deadlock_victim(ATTEMPTS)
    monkeypatch.setattr(services, "compute_ladder", compute)
    with pytest.raises(OperationalError):
        standings_recalculate(season_id=season.id)
    assert len(calls) == ATTEMPTS
    assert StandingsRun.objects.filter(status=RunStatus.FAILED).count() == 1  # once, at last


def test_an_unknown_season_is_an_error():
    with pytest.raises(Season.DoesNotExist):
        standings_recalculate(season_id=987654)
    assert not StandingsRun.objects.exists()


def test_recalculate_all_covers_every_season_with_activity(season, four):
    stored_match(season, D1, tuple(four[:2]), (500, 0), "NS")
    make_season(season.club, year=2024)  # no match: no activity
    other = make_season(make_club())
    stored_match(
        other, D1, tuple(make_players(other.club, "Eve", "Fay")), (0, 0), "", status="in_progress"
    )

    runs = standings_recalculate_all()

    assert sorted(run.season_id for run in runs) == sorted([season.id, other.id])
    assert {run.trigger for run in runs} == {"command"}


def test_several_seasons_in_one_pass_equal_one_at_a_time(four):
    club = make_club(ladder_min_matches=2)
    first, second = make_season(club, 2024), make_season(club, 2025)
    ann, bob, cid, dot = four
    stored_match(first, date(2024, 3, 1), (ann, bob, cid, dot), (500, 120), "NS")
    stored_match(first, date(2024, 3, 8), (ann, cid, bob, dot), (0, 300), "EW")
    stored_match(second, D1, (ann, bob), (0, 300), "EW")
    empty = make_season(club, 2023)

    runs = services.standings_recalculate_seasons(
        season_ids=[second.id, first.id, empty.id, 987654], trigger="nightly"
    )

    assert [run.season_id for run in runs] == sorted([first.id, second.id, empty.id])
    assert [run.matches_counted for run in runs] == [2, 1, 0]  # 2024, 2025, 2023 (by id)
    together = {season.id: ladder(season) for season in (first, second)}
    for season in (first, second):
        standings_recalculate(season_id=season.id)
        assert ladder(season) == together[season.id]
    assert together[first.id] == [
        ("Cid", 1, True, 2, 2, 0, 0, 680),
        ("Ann", 2, True, 2, 1, 0, 1, 80),
        ("Dot", 3, True, 2, 1, 0, 1, -80),
        ("Bob", 4, True, 2, 0, 0, 2, -680),
    ]
    assert ladder(empty) == []
