"""Fixed pairs' plan (``nights.movements.fixed_pairs.circle``): published cases by table, and
the properties of the circle method on every number of pairs with hypothesis. Pure: no
database."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nights.movements.fixed_pairs import MAX_PAIRS, circle, full_schedule, in_pairs
from scoring.engine import Round, Seat, Side, check_round


def names(count: int) -> list[tuple[str, str]]:
    """``count`` pairs: "1a" and "1b" are pair 1, and so on."""
    return [(f"{n}a", f"{n}b") for n in range(1, count + 1)]


def meetings(round: Round[str]) -> list[frozenset[str]]:
    """The pairs meeting at each table of ``round``, each by its first player."""
    return [
        frozenset(player.rstrip("ab") for player in (table.north, table.east))
        for table in round.tables
    ]


def shown(round: Round[str]) -> list[str]:
    """A round as "N S - E W" a table, then who sits out."""
    tables = [f"{table.north} {table.south} - {table.east} {table.west}" for table in round.tables]
    return [*tables, *(f"out {p}" for p in round.sitting_out[::2])]


# Worked by hand from the circle method: pair 1 (or the bye) stays, the others turn round it;
# at pair 1's table the directions change every round, at the others every other table.
PUBLISHED = {
    2: [["1a 1b - 2a 2b"]],
    3: [  # the bye stays; the pair meeting it sits out
        ["2a 2b - 1a 1b", "out 3a"],
        ["3a 3b - 2a 2b", "out 1a"],
        ["1a 1b - 3a 3b", "out 2a"],
    ],
    4: [
        ["1a 1b - 4a 4b", "3a 3b - 2a 2b"],
        ["2a 2b - 1a 1b", "4a 4b - 3a 3b"],
        ["1a 1b - 3a 3b", "2a 2b - 4a 4b"],
    ],
}


@pytest.mark.parametrize(("count", "expected"), sorted(PUBLISHED.items()))
def test_small_nights_are_seated_as_worked_by_hand(count, expected):
    plan = circle(names(count), full_schedule(count))
    assert [shown(round) for round in plan] == expected


@pytest.mark.parametrize(
    ("pairs", "rounds"), [(2, 1), (3, 3), (4, 3), (5, 5), (6, 5), (7, 7), (30, 29)]
)
def test_a_full_schedule_is_one_fewer_than_the_pairs_or_the_pairs_when_odd(pairs, rounds):
    assert full_schedule(pairs) == rounds


def test_the_director_s_order_is_the_pairs():
    assert in_pairs([1, 2, 3, 4, 5, 6]) == [(1, 2), (3, 4), (5, 6)]


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, MAX_PAIRS))
def test_over_a_full_schedule_every_two_pairs_meet_exactly_once(count):
    plan = circle(names(count), full_schedule(count))
    met = Counter(pair for round in plan for pair in meetings(round))
    everyone = {str(n) for n in range(1, count + 1)}
    assert met == Counter(frozenset(two) for two in combinations(everyone, 2))


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, MAX_PAIRS), rounds=st.integers(1, 60))
def test_a_pair_never_splits_and_every_seat_is_filled_once(count, rounds):
    pairs = names(count)
    plan = circle(pairs, rounds)
    assert len(plan) == rounds
    partner = {a: b for pair in pairs for a, b in (pair, pair[::-1])}
    players = [p for pair in pairs for p in pair]
    for round in plan:
        check_round(round, players)  # every seat filled, nobody twice
        assert sorted([*round.players, *round.sitting_out]) == sorted(players)
        assert [table.number for table in round.tables] == list(range(1, count // 2 + 1))
        for table in round.tables:
            assert not table.two_player
            for side in Side:
                first, second = table.side(side)
                assert partner[first] == second
        out = round.sitting_out
        assert len(out) == 2 * (count % 2)
        assert all(partner[out[i]] == out[i + 1] for i in range(0, len(out), 2))


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, MAX_PAIRS))
def test_with_an_odd_number_each_pair_sits_out_once(count):
    plan = circle(names(count), full_schedule(count))
    out = Counter(player for round in plan for player in round.sitting_out)
    if count % 2:
        assert out == Counter(p for pair in names(count) for p in pair)
        assert all(len(round.sitting_out) == 2 for round in plan)
    else:
        assert not out


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, MAX_PAIRS))
def test_directions_alternate_after_every_round(count):
    """Each pair's N-S and E-W rounds differ by at most one after every round."""
    balance: Counter[str] = Counter()
    for round in circle(names(count), full_schedule(count)):
        for table in round.tables:
            balance[table.north.rstrip("ab")] += 1
            balance[table.east.rstrip("ab")] -= 1
        assert all(abs(value) <= 1 for value in balance.values())


@settings(max_examples=40, deadline=None)
@given(count=st.integers(2, MAX_PAIRS), rounds=st.integers(1, 60))
def test_a_shorter_night_is_the_first_rounds_and_a_longer_one_plays_it_again_reversed(
    count, rounds
):
    full = full_schedule(count)
    plan = circle(names(count), rounds)
    assert plan[: min(rounds, full)] == circle(names(count), min(rounds, full))
    for number in range(full, rounds):
        first, again = plan[number - full], plan[number]
        assert again.sitting_out == first.sitting_out
        assert [(t.number, t.east, t.west, t.north, t.south) for t in again.tables] == [
            (t.number, t.north, t.south, t.east, t.west) for t in first.tables
        ]


def test_the_first_player_of_a_pair_sits_north_or_east():
    (round,) = circle([(10, 11), (20, 21)], 1)
    (table,) = round.tables
    assert dict(table.seats) == {Seat.N: 10, Seat.S: 11, Seat.E: 20, Seat.W: 21}
    assert circle([(10, 11), (20, 21)], 2)[1].tables[0].north == 20
