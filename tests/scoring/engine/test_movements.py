"""Movements (docs/nights.md): the published round-robin cases, the whist tournaments checked by
their properties, and the properties every plan must have, on random nights with hypothesis."""

from collections import Counter
from collections.abc import Hashable, Sequence
from functools import cache
from itertools import combinations, pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import (
    InvalidInput,
    Round,
    Side,
    Table,
    check_round,
    first_round,
    moving_side,
    round_robin,
    winners_move,
)
from scoring.engine.movements import _BASES, _maximum_matching

Pair = frozenset[Hashable]


def partnerships(round: Round[Hashable]) -> list[Pair]:
    return [
        frozenset(table.side(side))
        for table in round.tables
        if not table.two_player
        for side in Side
    ]


def oppositions(round: Round[Hashable]) -> list[Pair]:
    return [
        frozenset((a, b))
        for table in round.tables
        for a in table.side(Side.NS)
        for b in table.side(Side.EW)
    ]


def tally(plan: Sequence[Round[Hashable]]) -> tuple[Counter[Pair], Counter[Pair]]:
    partners: Counter[Pair] = Counter()
    opponents: Counter[Pair] = Counter()
    for round in plan:
        partners.update(partnerships(round))
        opponents.update(oppositions(round))
    return partners, opponents


def names(round: Round[Hashable]) -> list[str]:
    """Each table as "AB-CD": its N-S players against its E-W ones, each side sorted."""
    return [
        "-".join("".join(sorted(map(str, table.side(side)))) for side in Side)
        for table in round.tables
    ]


# The published cases


def test_four_players_partner_each_other_once_over_three_rounds() -> None:
    plan = round_robin("ABCD", 3)
    assert [names(round) for round in plan] == [["AB-CD"], ["AC-BD"], ["AD-BC"]]
    assert all(round.sitting_out == () for round in plan)


@pytest.mark.parametrize("count", sorted(_BASES))
def test_whist_tournament_partners_once_and_opposes_twice(count: int) -> None:
    players = list(range(count))
    full = count - 1 if count % 4 == 0 else count
    plan = round_robin(players, full)
    partners, opponents = tally(plan)
    every_pair = {frozenset(pair) for pair in combinations(players, 2)}
    assert set(partners) == set(opponents) == every_pair
    assert set(partners.values()) == {1}
    assert set(opponents.values()) == {2}
    sat_out = Counter(player for round in plan for player in round.sitting_out)
    if count % 4 == 1:  # one sits out each round, each player once
        assert all(len(round.sitting_out) == 1 for round in plan)
        assert sat_out == Counter(players)
    else:
        assert not sat_out
    assert all(len(round.tables) == count // 4 for round in plan)
    assert all(not table.two_player for round in plan for table in round.tables)


@pytest.mark.parametrize("count", range(5, 58, 4))
def test_with_4k_plus_1_players_each_sits_out_once_over_4k_plus_1_rounds(count: int) -> None:
    plan = round_robin(range(count), count)
    assert all(len(round.sitting_out) == 1 for round in plan)
    assert Counter(p for round in plan for p in round.sitting_out) == Counter(range(count))


@pytest.mark.parametrize("count", [8, 12])
def test_the_classic_tallies_are_whist_tournaments(count: int) -> None:
    assert count in _BASES
    plan = round_robin([f"P{i}" for i in range(count)], count - 1)
    assert len(plan) == count - 1
    partners, opponents = tally(plan)
    assert len(partners) == count * (count - 1) // 2 == len(opponents)
    assert set(partners.values()) == {1} and set(opponents.values()) == {2}


def test_fewer_rounds_are_the_first_rounds_of_the_schedule() -> None:
    players = list(range(12))
    assert round_robin(players, 4) == round_robin(players, 11)[:4]
    assert round_robin(players, 13)[:11] == round_robin(players, 11)


def test_fourteen_players_three_tables_and_a_table_of_two_or_two_sitting_out() -> None:
    players = [f"P{i}" for i in range(14)]
    for round in round_robin(players, 7, remainder="two_player"):
        assert [table.two_player for table in round.tables] == [False, False, False, True]
        assert [table.number for table in round.tables] == [1, 2, 3, 4]
        assert round.sitting_out == ()
    for round in round_robin(players, 7, remainder="sit_out"):
        assert [table.number for table in round.tables] == [1, 2, 3]
        assert len(round.sitting_out) == 2


@pytest.mark.parametrize(
    ("count", "remainder", "tables", "twos", "out"),
    [
        (13, "two_player", 3, 0, 1),
        (15, "sit_out", 3, 0, 3),
        (15, "two_player", 3, 1, 1),
        (18, "two_player", 4, 1, 0),
        (60, "sit_out", 15, 0, 0),
    ],
)
def test_remainders(count: int, remainder: str, tables: int, twos: int, out: int) -> None:
    for round in round_robin(range(count), 3, remainder=remainder):  # type: ignore[arg-type]
        assert sum(not table.two_player for table in round.tables) == tables
        assert sum(table.two_player for table in round.tables) == twos
        assert len(round.sitting_out) == out


def test_round_robin_refuses_bad_input_by_field() -> None:
    cases = [
        (lambda: round_robin("ABC", 3), "players"),
        (lambda: round_robin(range(61), 3), "players"),
        (lambda: round_robin("ABCDA", 3), "players"),
        (lambda: round_robin("ABCD", 0), "rounds"),
        (lambda: round_robin("ABCD", 61), "rounds"),
        (lambda: round_robin("ABCD", "3"), "rounds"),  # type: ignore[arg-type]
        (lambda: round_robin("ABCDEF", 3, remainder="bye"), "remainder"),  # type: ignore[arg-type]
    ]
    for call, field in cases:
        with pytest.raises(InvalidInput) as error:
            call()
        assert error.value.field == field


# The properties of every round-robin plan


@cache
def most_new_partnerships(seated: frozenset[int], played: frozenset[Pair]) -> int:
    """The most partnerships never played before that ``seated`` can form at once."""
    if len(seated) < 2:
        return 0
    first = min(seated)
    rest = seated - {first}
    best = most_new_partnerships(rest, played)
    for other in rest:
        if frozenset((first, other)) not in played:
            best = max(best, 1 + most_new_partnerships(rest - {other}, played))
    return best


def check_plan(players: list[int], plan: Sequence[Round[int]], *, matching: bool) -> None:
    sat_out: Counter[int] = Counter()
    at_two: Counter[int] = Counter()
    played: set[Pair] = set()
    for round in plan:
        check_round(round, players)  # every seat filled, nobody twice, nobody unknown
        assert sorted([*round.players, *round.sitting_out]) == players
        sat_out.update(round.sitting_out)
        at_two.update(p for table in round.tables if table.two_player for p in table.players)
        for counts, most in ((sat_out, 1), (at_two, 2 if round.sitting_out else 1)):
            values = [counts[p] for p in players]
            assert max(values) - min(values) <= most
        pairs = partnerships(round)
        if matching:
            seated = frozenset(
                p for table in round.tables if not table.two_player for p in table.players
            )
            new = sum(pair not in played for pair in pairs)
            assert new == most_new_partnerships(seated, frozenset(played))
        played.update(pairs)


@settings(max_examples=40, deadline=None)
@given(
    count=st.integers(4, 17),
    rounds=st.integers(1, 18),
    remainder=st.sampled_from(["two_player", "sit_out"]),
)
def test_no_partnership_repeats_while_a_new_one_can_be_formed(
    count: int, rounds: int, remainder: str
) -> None:
    players = list(range(count))
    check_plan(players, round_robin(players, rounds, remainder), matching=True)  # type: ignore[arg-type]


@settings(max_examples=15, deadline=None)
@given(
    count=st.integers(18, 60),
    rounds=st.integers(1, 8),
    remainder=st.sampled_from(["two_player", "sit_out"]),
)
def test_big_nights_seat_everyone_once_and_rotate_sit_outs(
    count: int, rounds: int, remainder: str
) -> None:
    players = list(range(count))
    check_plan(players, round_robin(players, rounds, remainder), matching=False)  # type: ignore[arg-type]


@settings(max_examples=20, deadline=None)
@given(
    count=st.integers(4, 40),
    rounds=st.integers(1, 6),
    remainder=st.sampled_from(["two_player", "sit_out"]),
)
def test_a_plan_depends_only_on_the_players_and_the_choices(
    count: int, rounds: int, remainder: str
) -> None:
    players = [f"player {i}" for i in range(count)]
    plan = round_robin(players, rounds, remainder)  # type: ignore[arg-type]
    assert round_robin(tuple(players), rounds, remainder) == plan  # type: ignore[arg-type]
    # The same night for other keys in the same order: the same seating.
    by_index = round_robin(range(count), rounds, remainder)  # type: ignore[arg-type]
    renamed = [
        Round(
            tuple(
                Table(t.number, *(None if p is None else players[p] for p in _seats(t)))
                for t in round.tables
            ),
            tuple(players[p] for p in round.sitting_out),
        )
        for round in by_index
    ]
    assert list(plan) == renamed


def _seats(table: Table[int]) -> tuple[int | None, ...]:
    return (table.north, table.east, table.south, table.west)


@settings(max_examples=200, deadline=None)
@given(
    st.integers(1, 12).flatmap(
        lambda n: st.sets(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1))).map(
            lambda e: (n, e)
        )
    )
)
def test_the_matching_is_maximum(graph: tuple[int, set[tuple[int, int]]]) -> None:
    size, edges = graph
    adjacent = [
        sorted(({b for a, b in edges if a == v} | {a for a, b in edges if b == v}) - {v})
        for v in range(size)
    ]
    match = _maximum_matching(adjacent)
    for v, u in enumerate(match):
        assert u == -1 or (match[u] == v and u in adjacent[v])
    played = frozenset(
        frozenset((a, b)) for a in range(size) for b in range(a + 1, size) if b not in adjacent[a]
    )
    assert sum(u != -1 for u in match) // 2 == most_new_partnerships(frozenset(range(size)), played)


# Winners move


def test_first_round_seats_the_players_in_order() -> None:
    assert first_round(range(14), remainder="two_player") == Round(
        (Table(1, 0, 1, 2, 3), Table(2, 4, 5, 6, 7), Table(3, 8, 9, 10, 11), Table(4, 12, 13))
    )
    assert first_round(range(7)) == Round((Table(1, 0, 1, 2, 3),), (4, 5, 6))


def test_winners_move_up_and_the_top_losers_go_to_the_last_table() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH"), Table(3, *"IJKL")))
    after = winners_move(round, {1: Side.NS, 2: "EW", 3: "NS"})
    # Table 1: the winners A, C stay and split up with table 2's winners F, H.
    # Table 2: the losers E, G stay with table 3's winners I, K.
    # Table 3: the losers J, L stay with table 1's losers B, D.
    assert after == Round(
        (Table(1, "A", "C", "F", "H"), Table(2, "E", "G", "I", "K"), Table(3, "J", "L", "B", "D"))
    )


def test_one_table_changes_partners() -> None:
    # The winners B and D stay, the losers A and C "go to the last table": the same one.
    after = winners_move(Round((Table(1, *"ABCD"),)), {1: "EW"})
    assert after == Round((Table(1, *"BDAC"),))
    assert names(after) == ["AB-CD"]


def test_the_table_of_two_and_the_sit_outs_queue_below_the_last_table() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH"), Table(3, "I", "J")), ("K",))
    after = winners_move(round, {1: "NS", 2: "NS"})
    # I and J come in to table 2 in place of its losers F and H, who join the queue after K.
    assert after == Round(
        (Table(1, "A", "C", "E", "G"), Table(2, "I", "J", "B", "D"), Table(3, "K", "F")), ("H",)
    )


def test_with_one_table_of_four_the_losers_make_way_for_those_sitting_out() -> None:
    after = winners_move(Round((Table(1, *"ABCD"),), ("E", "F", "G")), {1: "NS"})
    assert after == Round((Table(1, *"ACEF"),), ("G", "B", "D"))


@st.composite
def progressive_nights(draw: st.DrawFn) -> tuple[Round[int], list[dict[int, str]]]:
    count = draw(st.integers(4, 30))
    start = first_round(range(count), draw(st.sampled_from(["two_player", "sit_out"])))
    fours = [t.number for t in start.tables if not t.two_player]
    results = st.fixed_dictionaries({n: st.sampled_from(["NS", "EW"]) for n in fours})
    return start, draw(st.lists(results, min_size=1, max_size=6))


@settings(max_examples=60, deadline=None)
@given(progressive_nights())
def test_winners_move_seats_everyone_and_gives_each_stayer_a_new_partner(
    night: tuple[Round[int], list[dict[int, str]]],
) -> None:
    round, results = night
    players = sorted([*round.players, *round.sitting_out])
    for winners in results:
        after = winners_move(round, winners)
        check_round(after, players)
        assert sorted([*after.players, *after.sitting_out]) == players
        assert [(t.number, t.two_player) for t in after.tables] == [
            (t.number, t.two_player) for t in round.tables
        ]
        assert len(after.sitting_out) == len(round.sitting_out)
        before = {p: pair for pair in partnerships(round) for p in pair}
        for pair in partnerships(after):
            for p in pair:
                assert before.get(p) != pair  # nobody keeps a partner
        fours = [t for t in round.tables if not t.two_player]
        if len(fours) > 1:  # the winners moved up one table
            for above, below in pairwise(fours):
                movers = below.side(Side(winners[below.number]))
                target = next(t for t in after.tables if t.number == above.number)
                assert set(movers) <= set(target.players)
        assert winners_move(round, winners) == after
        round = after


def test_winners_move_refuses_a_missing_or_unknown_result() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH")))
    for winners in ({1: "NS"}, {1: "NS", 2: "draw"}):
        with pytest.raises(InvalidInput) as error:
            winners_move(round, winners)
        assert error.value.field == "winners"
    with pytest.raises(InvalidInput) as error:
        winners_move(Round((Table(1, "A", "B"),), ("C",)), {})
    assert error.value.field == "players"


# A round seated by hand


def test_check_round_accepts_a_full_round() -> None:
    check_round(Round((Table(1, *"ABCD"), Table(2, "E", "F")), ("G",)), "ABCDEFG")


@pytest.mark.parametrize(
    ("round", "field", "message"),
    [
        (Round((Table(1, *"ABCA"),)), "seats", "A is listed twice"),
        (Round((Table(1, *"ABCD"),), ("D",)), "sitting_out", "D is listed twice"),
        (Round((Table(1, "A", "B", "C"),)), "seats", "table 1 has no player in seat W"),
        (Round((Table(2, "A", None, "C", "D"),)), "seats", "table 2 has no player in seat E"),  # type: ignore[arg-type]
        (Round((Table(1, *"ABCZ"),)), "seats", "Z is not one of the players present"),
        (Round((Table(1, *"ABCD"),), ("Y",)), "sitting_out", "Y is not one of the players present"),
    ],
)
def test_check_round_refuses_by_field(round: Round[str], field: str, message: str) -> None:
    with pytest.raises(InvalidInput) as error:
        check_round(round, "ABCDEFG")
    assert (error.value.field, error.value.message) == (field, message)


@pytest.mark.parametrize("count", [10, 11, 14, 15, 18, 22, 30, 42])
@pytest.mark.parametrize("remainder", ["two_player", "sit_out"])
def test_a_six_round_night_spreads_partners_and_opponents(count: int, remainder: str) -> None:
    partners, opponents = tally(round_robin(range(count), 6, remainder))  # type: ignore[arg-type]
    assert max(partners.values()) == 1
    assert max(opponents.values()) <= 2


@pytest.mark.parametrize(
    ("winner", "below_ns", "below_ew", "rule", "side"),
    [
        ("NS", 0, 500, "below", Side.NS),
        ("EW", 500, 0, "ns", Side.EW),
        ("TIE", 100, 220, "below", Side.EW),
        ("TIE", 220, 100, "below", Side.NS),
        ("TIE", 100, 100, "below", Side.NS),
        ("TIE", 100, 220, "ns", Side.NS),
        ("", 0, 60, "below", Side.EW),  # abandoned: no winner
    ],
)
def test_the_moving_side_is_the_winner_or_the_tie_rule(winner, below_ns, below_ew, rule, side):
    assert moving_side(winner, below_ns=below_ns, below_ew=below_ew, tie_rule=rule) is side


@settings(max_examples=60, deadline=None)
@given(progressive_nights())
def test_winners_move_rotates_sit_outs_given_the_counts(
    night: tuple[Round[int], list[dict[int, str]]],
) -> None:
    round, results = night
    players = sorted([*round.players, *round.sitting_out])
    sat_out = Counter(round.sitting_out)
    for winners in results:
        after = winners_move(round, winners, sat_out)
        check_round(after, players)
        assert len(after.sitting_out) == len(round.sitting_out)
        assert [(t.number, t.two_player) for t in after.tables] == [
            (t.number, t.two_player) for t in round.tables
        ]
        sat_out.update(after.sitting_out)
        counts = [sat_out[p] for p in players]
        assert max(counts) - min(counts) <= 1
        assert winners_move(round, winners, sat_out - Counter(after.sitting_out)) == after
        round = after


def test_a_loser_who_sat_out_before_changes_places_with_one_who_has_not() -> None:
    # K and L come in and F and H, the losers at table 2, sit out. When F and H lose at the
    # last table again, those who sit out next are two who never have.
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH")), ("K", "L"))
    plain = winners_move(round, {1: "NS", 2: "NS"})
    assert plain.sitting_out == ("F", "H")
    again = winners_move(plain, {1: "NS", 2: "EW"}, Counter({"K": 1, "L": 1, "F": 1, "H": 1}))
    assert not {"F", "H", "K", "L"} & set(again.sitting_out)
