"""The pure ladder computation (scoring.ladder) against hand-computed seasons."""

from itertools import accumulate, pairwise

import pytest

from scoring.ladder import (
    CHART_POINTS,
    RATING_K,
    RATING_START,
    CountedMatch,
    LadderOptions,
    chart_line,
    compute_ladder,
    net_rounder,
    result_for,
    round_net,
)

NAMES = {1: "Ann", 2: "Bob", 3: "Cid", 4: "Dot", 5: "Eve", 6: "Fay"}


def chicago(n, e, s, w, total_ns, total_ew, winner):
    return CountedMatch(n, e, s, w, total_ns, total_ew, winner)


def two_player(n, e, total_ns, total_ew, winner):
    return CountedMatch(n, e, None, None, total_ns, total_ew, winner)


def by_player(ladder):
    return {row.player_id: row for row in ladder}


def test_the_documented_parameters():
    assert (RATING_START, RATING_K) == (1500.0, 20.0)


def test_net_points_wins_draws_losses_best_worst_and_shared_rank():
    ladder = compute_ladder(
        [
            chicago(1, 2, 3, 4, 500, 120, "NS"),  # Ann and Cid +380
            chicago(1, 3, 2, 4, 300, 300, "tie"),  # a draw for all four
            chicago(2, 1, 4, 3, 0, 620, "EW"),  # Ann and Cid +620
        ],
        names=NAMES,
    )
    rows = by_player(ladder)
    ann, bob = rows[1], rows[2]
    assert (ann.matches, ann.wins, ann.draws, ann.losses) == (3, 2, 1, 0)
    assert (ann.net_points, ann.best, ann.worst) == (1000, 620, 0)
    assert ann.average == 333.33
    assert (bob.matches, bob.wins, bob.draws, bob.losses) == (3, 0, 1, 2)
    assert (bob.net_points, bob.best, bob.worst, bob.average) == (-1000, 0, -620, -333.33)
    # Ann and Cid are equal: one rank, ordered by name; then Bob and Dot.
    assert [(row.position, row.rank, row.name) for row in ladder] == [
        (1, 1, "Ann"),
        (2, 1, "Cid"),
        (3, 3, "Bob"),
        (4, 3, "Dot"),
    ]
    assert all(row.qualified for row in ladder)


def test_elo_rating_of_rotating_partnerships_by_hand():
    ladder = compute_ladder(
        [
            # All at 1500: expected 0.5, NS win: +20 * 0.5 = +10 each.
            chicago(1, 2, 3, 4, 500, 120, "NS"),
            # NS Ann 1510 + Bob 1490 = mean 1500; EW Cid 1510 + Eve 1500 = mean 1505.
            # E_ns = 1 / (1 + 10 ** (5 / 400)) = 0.492801; NS win: change 20 * 0.507199.
            chicago(1, 3, 2, 5, 400, 100, "NS"),
        ],
        names=NAMES,
    )
    rows = by_player(ladder)
    assert rows[1].rating == pytest.approx(1520.1, abs=0.01)  # 1510 + 10.144
    assert rows[2].rating == pytest.approx(1500.1, abs=0.01)  # 1490 + 10.144
    assert rows[3].rating == pytest.approx(1499.9, abs=0.01)  # 1510 - 10.144
    assert rows[4].rating == pytest.approx(1490.0, abs=0.01)  # played once, lost
    assert rows[5].rating == pytest.approx(1489.9, abs=0.01)  # 1500 - 10.144


def test_a_draw_between_equal_sides_moves_no_rating_and_a_draw_against_stronger_gains():
    ladder = compute_ladder(
        [
            chicago(1, 2, 3, 4, 500, 120, "NS"),  # Ann, Cid 1510; Bob, Dot 1490
            chicago(1, 2, 3, 4, 200, 200, "tie"),  # 1510 vs 1490: E_ns = 0.528751
        ],
        names=NAMES,
    )
    rows = by_player(ladder)
    # change = 20 * (0.5 - 0.528751) = -0.575
    assert rows[1].rating == pytest.approx(1509.4, abs=0.01)
    assert rows[2].rating == pytest.approx(1490.6, abs=0.01)
    assert sum(row.rating for row in ladder) == pytest.approx(4 * 1500, abs=0.2)


def test_a_rubber_won_with_fewer_points_is_a_win_with_a_negative_net():
    # NS won two games but EW scored more (heavy penalties): NS win the rubber, EW the points.
    ladder = compute_ladder([chicago(1, 2, 3, 4, 1000, 1200, "NS")], names=NAMES)
    rows = by_player(ladder)
    assert (rows[1].wins, rows[1].losses, rows[1].net_points) == (1, 0, -200)
    assert (rows[2].wins, rows[2].losses, rows[2].net_points) == (0, 1, 200)
    # The ladder orders by points: the losers of the rubber come first...
    assert [row.name for row in ladder] == ["Bob", "Dot", "Ann", "Cid"]
    # ... and the rating follows the result: the rubber's winners gain.
    assert rows[1].rating == pytest.approx(1510.0)
    assert rows[2].rating == pytest.approx(1490.0)


def test_a_finished_unfinished_rubber_goes_to_more_points_or_is_a_draw():
    ladder = compute_ladder(
        [
            chicago(1, 2, 3, 4, 400, 100, "NS"),  # finished early: 300 for a game + 100
            chicago(1, 2, 3, 4, 100, 100, "tie"),  # finished early, equal totals
        ],
        names=NAMES,
    )
    rows = by_player(ladder)
    assert (rows[1].wins, rows[1].draws, rows[1].net_points) == (1, 1, 300)
    assert (rows[2].losses, rows[2].draws, rows[2].net_points) == (1, 1, -300)


def test_two_player_matches_are_one_player_a_side():
    ladder = compute_ladder(
        [
            two_player(1, 2, 800, 300, "NS"),
            two_player(2, 1, 700, 0, "NS"),  # Bob sits North this time
        ],
        names=NAMES,
    )
    rows = by_player(ladder)
    assert (rows[1].matches, rows[1].wins, rows[1].losses, rows[1].net_points) == (2, 1, 1, -200)
    assert (rows[2].matches, rows[2].wins, rows[2].losses, rows[2].net_points) == (2, 1, 1, 200)
    assert (rows[2].best, rows[2].worst) == (700, -500)
    # 1500 vs 1500: Ann +10. Then Bob 1490 beats Ann 1510: E = 1 / (1 + 10 ** (20 / 400))
    # = 0.471249, Bob + 20 * 0.528751 = +10.575.
    assert rows[1].rating == pytest.approx(1499.4, abs=0.01)
    assert rows[2].rating == pytest.approx(1500.6, abs=0.01)
    assert set(rows) == {1, 2}


def test_order_net_then_average_then_fewer_matches_then_name():
    ladder = compute_ladder(
        [
            two_player(1, 5, 600, 0, "NS"),  # Ann +600 in 1 match
            two_player(2, 6, 300, 0, "NS"),  # Bob +600 in 2 matches: lower average
            two_player(2, 6, 300, 0, "NS"),
            two_player(3, 4, 100, 100, "tie"),  # Cid and Dot 0 in 2
            two_player(3, 4, 100, 100, "tie"),
        ],
        names=NAMES,
    )
    assert [(row.name, row.net_points, row.matches, row.rank) for row in ladder] == [
        ("Ann", 600, 1, 1),
        ("Bob", 600, 2, 2),  # equal net, lower average
        ("Cid", 0, 2, 3),
        ("Dot", 0, 2, 3),  # equal to Cid: same rank, after by name
        ("Fay", -600, 2, 5),  # equal net, average -300 beats -600
        ("Eve", -600, 1, 6),
    ]


def test_with_equal_net_fewer_matches_come_first():
    ladder = compute_ladder(
        [
            two_player(1, 2, 100, 100, "tie"),
            two_player(1, 3, 100, 100, "tie"),
            two_player(4, 5, 100, 100, "tie"),
        ],
        names=NAMES,
    )
    assert [(row.name, row.matches, row.rank) for row in ladder] == [
        ("Bob", 1, 1),
        ("Cid", 1, 1),
        ("Dot", 1, 1),
        ("Eve", 1, 1),
        ("Ann", 2, 5),
    ]


def test_players_below_the_minimum_come_after_the_qualified_and_are_marked():
    ladder = compute_ladder(
        [
            two_player(1, 2, 2000, 0, "NS"),  # Ann: one huge match only
            two_player(3, 4, 200, 0, "NS"),
            two_player(3, 4, 200, 0, "NS"),
            two_player(2, 4, 100, 0, "NS"),
        ],
        names=NAMES,
        options=LadderOptions(min_matches=2),
    )
    assert [(row.name, row.qualified, row.matches, row.net_points, row.rank) for row in ladder] == [
        ("Cid", True, 2, 400, 1),
        ("Dot", True, 3, -500, 2),
        ("Bob", True, 2, -1900, 3),
        ("Ann", False, 1, 2000, 4),  # the best net, but one match: after the qualified
    ]


@pytest.mark.parametrize(
    ("net", "rounded"),
    [
        (0, 0),
        (49, 0),
        (50, 100),
        (149, 100),
        (150, 200),
        (1234, 1200),
        (-49, 0),
        (-50, -100),
        (-150, -200),
        (-1250, -1300),
        (-1249, -1200),
    ],
)
def test_rounding_to_the_nearest_hundred_50_away_from_zero(net, rounded):
    assert round_net(net) == rounded


def test_rounding_applies_to_each_match_before_summing():
    matches = [
        two_player(1, 2, 550, 500, "NS"),  # +50 -> +100
        two_player(1, 2, 550, 500, "NS"),  # +50 -> +100
        two_player(1, 2, 500, 640, "EW"),  # -140 -> -100
    ]
    plain = by_player(compute_ladder(matches, names=NAMES))
    rounded = by_player(
        compute_ladder(matches, names=NAMES, options=LadderOptions(rounding="nearest_100"))
    )
    assert plain[1].net_points == -40
    assert (rounded[1].net_points, rounded[1].best, rounded[1].worst) == (100, 100, -100)
    assert rounded[2].net_points == -100
    assert rounded[1].average == 33.33
    # The chart's line: the net after each match, cumulative, rounded as the ladder counts.
    assert (plain[1].nets, rounded[1].nets, rounded[2].nets) == (
        (50, 100, -40),
        (100, 200, 100),
        (-100, -200, -100),
    )


def test_unknown_rounding_and_negative_minimum_are_refused():
    with pytest.raises(ValueError, match="rounding"):
        net_rounder("nearest_10")
    with pytest.raises(ValueError, match="rounding"):
        LadderOptions(rounding="nearest_10")
    with pytest.raises(ValueError, match="min_matches"):
        LadderOptions(min_matches=-1)


def test_no_match_no_ladder_and_plain_tuples_are_accepted():
    assert compute_ladder([], names=NAMES) == []
    ladder = compute_ladder([(1, 2, 3, 4, 10, 0, "NS", None, 7)], names=NAMES)
    assert [row.net_points for row in ladder] == [10, 10, -10, -10]


def test_result_for_each_side():
    assert result_for("NS", north_south=True) == "win"
    assert result_for("NS", north_south=False) == "loss"
    assert result_for("EW", north_south=False) == "win"
    assert result_for("tie", north_south=True) == "draw"


def test_a_long_seasons_chart_line_keeps_at_most_chart_points_ending_with_the_total():
    assert chart_line([380, -590, 100]) == (380, -210, -110)
    nets = [10 * (-1) ** i * i for i in range(1, 101)]  # 100 matches
    running = list(accumulate(nets))
    line = chart_line(nets)
    assert len(line) <= CHART_POINTS and line[-1] == sum(nets)
    taken = [running.index(value) for value in line]  # the running sums are all different
    assert taken[-1] == 99 and len({b - a for a, b in pairwise(taken)}) == 1  # even
    assert len(chart_line([1] * CHART_POINTS)) == CHART_POINTS  # all kept up to the limit


# --- league options ---------------------------------------------------------------------------

POINTS = LadderOptions(ranking="points")


def test_league_points_3_1_0_order_the_ladder_before_net_points():
    ladder = compute_ladder(
        [
            two_player(1, 2, 100, 0, "NS"),  # Ann wins by 100
            two_player(1, 3, 100, 0, "NS"),  # Ann wins by 100
            two_player(4, 5, 2000, 0, "NS"),  # Dot wins once by 2000
            two_player(4, 6, 0, 100, "EW"),  # and loses once
        ],
        names=NAMES,
        options=POINTS,
    )
    assert [(row.name, row.points, row.net_points, row.rank) for row in ladder] == [
        ("Ann", 6, 200, 1),  # two wins: 6 points, fewer net than Dot
        ("Dot", 3, 1900, 2),
        ("Fay", 3, 100, 3),
        ("Bob", 0, -100, 4),
        ("Cid", 0, -100, 4),  # equal on points, net and matches: a shared rank
        ("Eve", 0, -2000, 6),
    ]
    # The same season by net points: Dot first; points are stored either way.
    by_net = compute_ladder(
        [
            two_player(1, 2, 100, 0, "NS"),
            two_player(1, 3, 100, 0, "NS"),
            two_player(4, 5, 2000, 0, "NS"),
            two_player(4, 6, 0, 100, "EW"),
        ],
        names=NAMES,
    )
    assert [(row.name, row.points) for row in by_net][:2] == [("Dot", 3), ("Ann", 6)]


def test_league_points_2_1_0_count_a_draw_as_half_a_win():
    options = LadderOptions(ranking="points", points_win=2, points_draw=1, points_loss=0)
    ladder = compute_ladder(
        [
            two_player(1, 2, 100, 100, "tie"),
            two_player(1, 2, 100, 100, "tie"),  # Ann and Bob: two draws, 2 points each
            two_player(3, 4, 500, 0, "NS"),  # Cid one win: 2 points, net +500
        ],
        names=NAMES,
        options=options,
    )
    assert [(row.name, row.points, row.draws, row.net_points, row.rank) for row in ladder] == [
        ("Cid", 2, 0, 500, 1),  # equal points, more net
        ("Ann", 2, 2, 0, 2),
        ("Bob", 2, 2, 0, 2),
        ("Dot", 0, 0, -500, 4),
    ]


def test_best_3_of_5_by_net_count_the_three_best_nets():
    nets = [300, -500, 100, 700, -100]  # Ann's, in playing order: the best 3 are 700, 300, 100
    ladder = compute_ladder(
        [two_player(1, 2, max(net, 0), max(-net, 0), "NS" if net > 0 else "EW") for net in nets],
        names=NAMES,
        options=LadderOptions(best_matches=3),
    )
    ann, bob = by_player(ladder)[1], by_player(ladder)[2]
    assert (ann.matches, ann.counted, ann.net_points, ann.best, ann.worst) == (5, 3, 1100, 700, 100)
    assert (ann.wins, ann.draws, ann.losses, ann.average) == (3, 0, 0, 366.67)
    assert ann.nets == (300, 400, 1100)  # the counted matches, in playing order
    # Bob's best three: +500, +100, -100.
    assert (bob.matches, bob.counted, bob.net_points, bob.wins, bob.losses) == (5, 3, 500, 2, 1)
    # The rating replays all five matches: the same as with every match counting.
    every = by_player(compute_ladder(
        [two_player(1, 2, max(net, 0), max(-net, 0), "NS" if net > 0 else "EW") for net in nets],
        names=NAMES,
    ))  # fmt: skip
    assert (ann.rating, bob.rating) == (every[1].rating, every[2].rating)
    assert every[1].counted == every[1].matches == 5


def test_best_n_by_points_prefers_wins_then_net_then_the_earlier_match():
    options = LadderOptions(ranking="points", best_matches=2)
    ladder = compute_ladder(
        [
            two_player(1, 2, 2000, 0, "EW"),  # Ann: a rubber lost with +2000: a loss
            two_player(1, 3, 100, 0, "NS"),  # a win +100
            two_player(1, 4, 600, 0, "NS"),  # a win +600
            two_player(1, 5, 600, 0, "NS"),  # a win +600, later: not counted
        ],
        names=NAMES,
        options=options,
    )
    ann = by_player(ladder)[1]
    assert (ann.counted, ann.points, ann.net_points, ann.wins, ann.losses) == (2, 6, 1200, 2, 0)
    # By net, the best two are +2000 (a loss) and the first +600.
    by_net = by_player(
        compute_ladder(
            [
                two_player(1, 2, 2000, 0, "EW"),
                two_player(1, 3, 100, 0, "NS"),
                two_player(1, 4, 600, 0, "NS"),
                two_player(1, 5, 600, 0, "NS"),
            ],
            names=NAMES,
            options=LadderOptions(best_matches=2),
        )
    )[1]
    assert (by_net.net_points, by_net.wins, by_net.losses, by_net.points) == (2600, 1, 1, 3)
    assert by_net.nets == (2000, 2600)


def test_qualification_counts_matches_played_and_ties_fall_to_fewer_matches():
    ladder = compute_ladder(
        [
            two_player(1, 2, 100, 0, "NS"),
            two_player(1, 2, 100, 0, "NS"),
            two_player(1, 2, 0, 100, "EW"),  # Ann: played 3, best 2 count: +200, 2 wins
            two_player(3, 4, 100, 0, "NS"),
            two_player(3, 4, 100, 0, "NS"),  # Cid: played 2, both count: +200, 2 wins
        ],
        names=NAMES,
        options=LadderOptions(ranking="points", best_matches=2, min_matches=3),
    )
    assert [(row.name, row.qualified, row.matches, row.counted, row.rank) for row in ladder] == [
        ("Ann", True, 3, 2, 1),
        ("Bob", True, 3, 2, 2),  # best two of three: a win and a loss
        ("Cid", False, 2, 2, 3),  # as many points as Ann, but below the minimum of 3 played
        ("Dot", False, 2, 2, 4),
    ]
    # Without the minimum, Ann and Cid are equal on points, net and counted: fewer played first.
    ladder = compute_ladder(
        [
            two_player(1, 2, 100, 0, "NS"),
            two_player(1, 2, 100, 0, "NS"),
            two_player(1, 2, 0, 100, "EW"),
            two_player(3, 4, 100, 0, "NS"),
            two_player(3, 4, 100, 0, "NS"),
        ],
        names=NAMES,
        options=LadderOptions(ranking="points", best_matches=2),
    )
    assert [(row.name, row.rank) for row in ladder][:2] == [("Cid", 1), ("Ann", 2)]


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"ranking": "goals"}, "ranking"),
        ({"best_matches": -1}, "best_matches"),
        ({"points_win": 100}, "points"),
        ({"points_loss": -1}, "points"),
        ({"points_win": 1, "points_draw": 2}, "win >= draw >= loss"),
        ({"points_draw": 0, "points_loss": 1}, "win >= draw >= loss"),
    ],
)
def test_options_that_make_no_ladder_are_refused(options, message):
    with pytest.raises(ValueError, match=message):
        LadderOptions(**options)


def test_equal_points_for_every_result_leave_the_order_to_net():
    flat = LadderOptions(ranking="points", points_win=1, points_draw=1, points_loss=1)
    matches = [chicago(1, 2, 3, 4, 500, 120, "NS"), chicago(1, 3, 2, 4, 0, 620, "EW")]
    by_points = compute_ladder(matches, names=NAMES, options=flat)
    by_net = compute_ladder(matches, names=NAMES)
    assert [row.player_id for row in by_points] == [row.player_id for row in by_net]
    assert {row.points for row in by_points} == {2}
