"""The night's ranking rules (docs/nights.md, "Players who play different numbers of matches"):
total net, average per complete match (with a minimum of matches to be ranked), and a sit-out
scored as the player's own average; exact values, the unranked after the ranked."""

from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import (
    BY_PAR,
    NIGHT_RANKINGS,
    RANK_AVERAGE,
    RANK_SIT_OUT_AVERAGE,
    RANK_TOTAL,
    InvalidInput,
    NightMatch,
    rank_night,
)
from scoring.engine.ranks import shared_ranks

NAMES = "ABCDEFGH"


def part(pk: int, net: int, complete: bool = True, round: int | None = None) -> NightMatch:
    return NightMatch(pk, NAMES[pk], net, complete, round)


# A: +100 +300 (average 200); B: +250 alone; C: three times +200; D: -100 alone; E: present,
# nothing played.
EVENING = [
    part(0, 100),
    part(0, 300),
    part(1, 250),
    part(2, 200),
    part(2, 200),
    part(2, 200),
    part(3, -100),
]
PRESENT = [(pk, NAMES[pk]) for pk in range(5)]


def table(lines):
    return [(line.rank, line.name, line.matches, line.score) for line in lines]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        (  # today's rule: C's three matches beat B's one
            {},
            [
                (1, "C", 3, 600),
                (2, "A", 2, 400),
                (3, "B", 1, 250),
                (4, "E", 0, 0),
                (5, "D", 1, -100),
            ],
        ),
        (  # average: B's 250 first, A and C share 200, E (no match) unranked
            {"ranking": RANK_AVERAGE},
            [
                (1, "B", 1, 250),
                (2, "A", 2, 200),
                (2, "C", 3, 200),
                (4, "D", 1, -100),
                (None, "E", 0, 0),
            ],
        ),
        (  # at least 2 matches to be ranked: B and D listed after, by matches, net, name
            {"ranking": RANK_AVERAGE, "min_matches": 2},
            [
                (1, "A", 2, 200),
                (1, "C", 3, 200),
                (None, "B", 1, 250),
                (None, "D", 1, -100),
                (None, "E", 0, 0),
            ],
        ),
        (  # at least 3 matches: only C ranked
            {"ranking": RANK_AVERAGE, "min_matches": 3},
            [
                (1, "C", 3, 200),
                (None, "A", 2, 200),
                (None, "B", 1, 250),
                (None, "D", 1, -100),
                (None, "E", 0, 0),
            ],
        ),
        (  # a sit-out scored as the average over 3 rounds: net / played * 3
            {"ranking": RANK_SIT_OUT_AVERAGE, "rounds": 3},
            [
                (1, "B", 1, 750),
                (2, "A", 2, 600),
                (2, "C", 3, 600),
                (4, "D", 1, -300),
                (None, "E", 0, 0),
            ],
        ),
        (
            {"ranking": RANK_SIT_OUT_AVERAGE, "rounds": 4, "min_matches": 2},
            [
                (1, "A", 2, 800),
                (1, "C", 3, 800),
                (None, "B", 1, 1000),
                (None, "D", 1, -400),
                (None, "E", 0, 0),
            ],
        ),
        (  # a minimum is the averages' rule: the total ranks everyone
            {"ranking": RANK_TOTAL, "min_matches": 3},
            [
                (1, "C", 3, 600),
                (2, "A", 2, 400),
                (3, "B", 1, 250),
                (4, "E", 0, 0),
                (5, "D", 1, -100),
            ],
        ),
    ],
)
def test_the_rules_on_one_evening(options, expected):
    assert table(rank_night(EVENING, PRESENT, **options)) == expected


def test_averages_are_exact_fractions():
    # 20/3 is not 6.67 and not 7: three players, three places; 10/1 and 30/3 share one.
    parts = [part(0, 20), part(0, 0), part(0, 0), part(1, 7), part(2, 10), part(3, 10)]
    parts += [part(3, 10), part(3, 10)]
    lines = rank_night(parts, ranking=RANK_AVERAGE)
    assert [(line.rank, line.name, line.score) for line in lines] == [
        (1, "C", Fraction(10)),
        (1, "D", Fraction(10)),
        (3, "B", Fraction(7)),
        (4, "A", Fraction(20, 3)),
    ]
    assert all(isinstance(line.score, Fraction) for line in lines)
    assert [line.ranked for line in lines] == [True] * 4


def test_unfinished_matches_count_for_nothing_in_an_average():
    parts = [part(0, 100), part(0, 900, complete=False), part(1, 50)]
    a, b = rank_night(parts, ranking=RANK_AVERAGE)
    assert (a.name, a.score, a.matches, a.open, a.rank) == ("A", 100, 1, 1, 1)
    assert (b.name, b.rank) == ("B", 2)


def test_only_unfinished_matches_leave_a_player_unranked_by_average():
    lines = rank_night([part(0, 300, complete=False), part(1, -10)], ranking=RANK_AVERAGE)
    assert [(line.name, line.rank, line.ranked) for line in lines] == [
        ("B", 1, True),
        ("A", None, False),
    ]


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"ranking": "median"}, "ranking"),
        ({"ranking": ""}, "ranking"),
        ({"ranking": RANK_AVERAGE, "min_matches": -1}, "min_matches"),
        ({"min_matches": True}, "min_matches"),
        ({"ranking": RANK_SIT_OUT_AVERAGE}, "rounds"),  # rounds needed
        ({"ranking": RANK_SIT_OUT_AVERAGE, "rounds": 2}, "rounds"),  # C played 3
        ({"ranking": RANK_SIT_OUT_AVERAGE, "rounds": -1}, "rounds"),
        ({"ranking": RANK_SIT_OUT_AVERAGE, "rounds": True}, "rounds"),
    ],
)
def test_bad_options_name_their_field(options, field):
    with pytest.raises(InvalidInput) as error:
        rank_night(EVENING, **options)
    assert error.value.field == field


def test_a_sit_out_average_before_any_round_lists_everyone_unranked():
    lines = rank_night([], PRESENT, ranking=RANK_SIT_OUT_AVERAGE, rounds=0)
    assert [(line.name, line.rank) for line in lines] == [(n, None) for n in "ABCDE"]


# --- properties ----------------------------------------------------------------------------

nets = st.integers(min_value=-300, max_value=300).map(lambda n: n * 10)
parts_strategy = st.lists(
    st.builds(part, st.integers(min_value=0, max_value=7), nets, st.booleans()), max_size=40
)
present_strategy = st.lists(st.integers(min_value=0, max_value=7), unique=True).map(
    lambda pks: [(pk, NAMES[pk]) for pk in pks]
)
averages = st.sampled_from([RANK_AVERAGE, RANK_SIT_OUT_AVERAGE])


def most_matches(parts) -> int:
    played: dict[int, int] = {}
    for p in parts:
        played[p.player_id] = played.get(p.player_id, 0) + p.complete
    return max(played.values(), default=0)


def old_rank_night(parts, present=()):
    """The night's ranking before the rules (issue 29): net total, ties share a place."""
    totals: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    bests: dict[int, int | None] = {}
    for pk, name in present:
        names[pk], totals[pk], bests[pk] = name, [0, 0, 0], None
    for p in parts:
        names.setdefault(p.player_id, p.name)
        line = totals.setdefault(p.player_id, [0, 0, 0])
        bests.setdefault(p.player_id, None)
        if not p.complete:
            line[2] += 1
            continue
        line[0] += p.net
        line[1] += 1
        best = bests[p.player_id]
        bests[p.player_id] = p.net if best is None else max(best, p.net)
    order = sorted(totals, key=lambda pk: (-totals[pk][0], names[pk], pk))
    ranks = shared_ranks([totals[pk][0] for pk in order])
    return [
        (rank, pk, names[pk], *totals[pk][:2], bests[pk], totals[pk][2])
        for rank, pk in zip(ranks, order, strict=True)
    ]


@given(parts_strategy, present_strategy, st.integers(min_value=0, max_value=5))
def test_the_total_is_the_ranking_of_before(parts, present, min_matches):
    lines = rank_night(parts, present, ranking=RANK_TOTAL, min_matches=min_matches)
    assert [
        (line.rank, line.player_id, line.name, line.net, line.matches, line.best, line.open)
        for line in lines
    ] == old_rank_night(parts, present)
    assert all(line.score == line.net and line.ranked for line in lines)
    assert lines == rank_night(parts, present)  # the total is the default


@given(parts_strategy, present_strategy, averages, st.integers(min_value=0, max_value=5))
def test_the_ranked_come_first_and_the_minimum_is_kept(parts, present, ranking, min_matches):
    rounds = most_matches(parts)
    lines = rank_night(parts, present, ranking=ranking, min_matches=min_matches, rounds=rounds)
    flags = [line.ranked for line in lines]
    assert flags == sorted(flags, reverse=True)  # every ranked line before every unranked
    for line in lines:
        assert line.ranked == (line.matches >= max(min_matches, 1))
        if line.matches:
            scale = rounds if ranking == RANK_SIT_OUT_AVERAGE else 1
            assert line.score == Fraction(line.net * scale, line.matches)
    unranked = [(-line.matches, -line.net, line.name) for line in lines if not line.ranked]
    assert unranked == sorted(unranked)
    assert {line.player_id for line in lines} == {p.player_id for p in parts} | {
        pk for pk, _name in present
    }


@given(parts_strategy, averages, st.integers(min_value=0, max_value=5))
def test_ties_share_a_place_and_the_places_count(parts, ranking, min_matches):
    lines = rank_night(parts, ranking=ranking, min_matches=min_matches, rounds=most_matches(parts))
    ranked = [line for line in lines if line.ranked]
    if ranked:
        assert ranked[0].rank == 1
    for position, (before, after) in enumerate(pairwise(ranked), start=2):
        assert before.score >= after.score
        if before.score == after.score:
            assert after.rank == before.rank and before.name <= after.name
        else:
            assert after.rank == position


@given(parts_strategy, present_strategy, st.integers(min_value=0, max_value=5), st.data())
def test_a_sit_out_average_orders_exactly_as_the_average(parts, present, min_matches, data):
    rounds = data.draw(st.integers(min_value=max(most_matches(parts), 1), max_value=12))
    average = rank_night(parts, present, ranking=RANK_AVERAGE, min_matches=min_matches)
    sit_out = rank_night(
        parts, present, ranking=RANK_SIT_OUT_AVERAGE, min_matches=min_matches, rounds=rounds
    )
    assert [(line.player_id, line.rank) for line in sit_out] == [
        (line.player_id, line.rank) for line in average
    ]
    assert [line.score for line in sit_out] == [line.score * rounds for line in average]


@given(
    parts_strategy,
    st.integers(min_value=0, max_value=7),
    st.integers(min_value=2, max_value=4),
    st.integers(min_value=0, max_value=1),
)
def test_an_average_does_not_change_when_a_player_plays_each_match_again(
    parts, player, times, min_matches
):
    """The same matches played ``times`` times over: the same average, the same places."""
    mine = [p for p in parts if p.player_id == player]
    scaled = [p for p in parts if p.player_id != player] + mine * times
    before = rank_night(parts, ranking=RANK_AVERAGE, min_matches=min_matches)
    after = rank_night(scaled, ranking=RANK_AVERAGE, min_matches=min_matches)
    assert [(line.player_id, line.rank, line.score) for line in after] == [
        (line.player_id, line.rank, line.score) for line in before
    ]


# --- ranked by par IMPs --------------------------------------------------------------------


def par_part(pk: int, net: int, imps: int | None, complete: bool = True) -> NightMatch:
    return NightMatch(pk, NAMES[pk], net, complete, imps=imps)


# A wins on points with good cards (+900, -4 IMPs); B loses on points but played them better
# (-300, +10 IMPs over two matches); C's one match had no par reading (0 IMPs); D's unfinished
# match counts for nothing, its IMPs included.
PAR_EVENING = [
    par_part(0, 900, -4),
    par_part(1, -100, 6),
    par_part(1, -200, 4),
    par_part(2, 50, None),
    par_part(3, 500, 20, complete=False),
]


@pytest.mark.parametrize(
    ("options", "expected"),
    [
        ({}, [(1, "A", 900, -4), (2, "C", 50, 0), (3, "D", 0, 0), (4, "B", -300, 10)]),
        ({"by": BY_PAR}, [(1, "B", -300, 10), (2, "C", 50, 0), (2, "D", 0, 0), (4, "A", 900, -4)]),
        (  # B's average 5 IMPs a match; D has no complete match: unranked
            {"by": BY_PAR, "ranking": RANK_AVERAGE},
            [(1, "B", -300, 10), (2, "C", 50, 0), (3, "A", 900, -4), (None, "D", 0, 0)],
        ),
    ],
)
def test_a_night_ranks_by_the_measure_it_is_given(options, expected):
    lines = rank_night(PAR_EVENING, **options)
    assert [(line.rank, line.name, line.net, line.imps) for line in lines] == expected
    by_par = options.get("by") == BY_PAR
    for line in lines:
        if line.ranked and options.get("ranking", RANK_TOTAL) == RANK_TOTAL:
            assert line.score == (line.imps if by_par else line.net)


def test_an_unknown_measure_is_refused_by_name():
    with pytest.raises(InvalidInput) as error:
        rank_night(PAR_EVENING, by="imps")
    assert error.value.field == "by"


imps_parts = st.lists(
    st.builds(
        par_part,
        st.integers(min_value=0, max_value=7),
        nets,
        st.integers(min_value=-24, max_value=24),
        st.booleans(),
    ),
    max_size=40,
)


@given(imps_parts, present_strategy, st.sampled_from(NIGHT_RANKINGS))
def test_ranking_by_par_is_ranking_by_net_with_the_imps_in_its_place(parts, present, ranking):
    """By par, a night ranks as it would by net if each match's net were its IMPs."""
    rounds = most_matches(parts)
    by_par = rank_night(parts, present, ranking=ranking, by=BY_PAR, rounds=rounds)
    swapped = [par_part(p.player_id, p.imps, p.net, p.complete) for p in parts]
    by_net = rank_night(swapped, present, ranking=ranking, rounds=rounds)
    assert [(line.rank, line.player_id, line.score, line.imps) for line in by_par] == [
        (line.rank, line.player_id, line.score, line.net) for line in by_net
    ]
