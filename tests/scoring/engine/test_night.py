"""The night's results: nets over complete matches, ranks with ties (1, 2, 2, 4), best match,
unfinished matches noted; by rank then name."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import NightLine, NightMatch, rank_night


def part(pk: int, net: int, complete: bool = True) -> NightMatch:
    return NightMatch(player_id=pk, name="ABCDEFGH"[pk], net=net, complete=complete)


def line(rank, pk, name, net, matches, best, unfinished) -> NightLine:
    """A line ranked by total: its score is its net."""
    return NightLine(rank, pk, name, net, matches, best, unfinished, score=Fraction(net))


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ([], []),
        (
            [part(0, 100), part(1, -100)],
            [line(1, 0, "A", 100, 1, 100, 0), line(2, 1, "B", -100, 1, -100, 0)],
        ),
        (  # equal nets share a place and the next place is skipped: 1, 2, 2, 4
            [part(3, 50), part(2, 200), part(1, 200), part(0, 500)],
            [
                line(1, 0, "A", 500, 1, 500, 0),
                line(2, 1, "B", 200, 1, 200, 0),
                line(2, 2, "C", 200, 1, 200, 0),
                line(4, 3, "D", 50, 1, 50, 0),
            ],
        ),
        (  # the best single match, the sum over complete ones, unfinished ones only counted
            [part(0, 300), part(0, -500), part(0, 900, complete=False), part(1, 0)],
            [line(1, 1, "B", 0, 1, 0, 0), line(2, 0, "A", -200, 2, 300, 1)],
        ),
        (  # only unfinished matches: no net, no best, ranked with the zeros
            [part(0, 700, complete=False), part(1, 0)],
            [line(1, 0, "A", 0, 0, None, 1), line(1, 1, "B", 0, 1, 0, 0)],
        ),
    ],
)
def test_rank_night(parts, expected):
    assert rank_night(parts) == expected


parts_strategy = st.lists(
    st.builds(
        part,
        st.integers(min_value=0, max_value=7),
        st.integers(min_value=-3000, max_value=3000).map(lambda n: n * 10),
        st.booleans(),
    ),
    max_size=40,
)


@given(parts_strategy)
def test_ranks_never_fall_ties_share_and_places_count(parts):
    lines = rank_night(parts)
    assert len(lines) == len({p.player_id for p in parts})
    for position, (before, after) in enumerate(pairwise(lines), start=2):
        assert before.net >= after.net
        assert before.rank <= after.rank
        if before.net == after.net:
            assert after.rank == before.rank and before.name <= after.name
        else:
            assert after.rank == position
    if lines:
        assert lines[0].rank == 1
    for line in lines:
        mine = [p for p in parts if p.player_id == line.player_id]
        done = [p.net for p in mine if p.complete]
        assert line.net == sum(done) and line.matches == len(done)
        assert line.best == (max(done) if done else None)
        assert line.open == len(mine) - len(done)


def test_the_best_round_is_the_first_round_of_the_best_complete_net():
    parts = [
        NightMatch(1, "A", 300, True, round=1),
        NightMatch(1, "A", 500, True, round=2),
        NightMatch(1, "A", 500, True, round=3),
        NightMatch(1, "A", 900, False, round=4),
        NightMatch(2, "B", -100, False, round=1),
    ]
    a, b = rank_night(parts)
    assert (a.best, a.best_round) == (500, 2)
    assert (b.best, b.best_round, b.matches, b.open) == (None, None, 0, 1)


def test_a_player_present_has_a_line_before_any_match():
    lines = rank_night([NightMatch(1, "A", -50, True, round=1)], [(1, "A"), (2, "B")])
    assert [(line.player_id, line.rank, line.net, line.matches, line.open) for line in lines] == [
        (2, 1, 0, 0, 0),
        (1, 2, -50, 1, 0),
    ]
