"""Movements when the players change during the night (docs/nights.md, "When the evening does not go
to plan"): the round-robin's rounds to come planned again after the rounds played, and the
progressive movement's next round for the players present, by tables and hypothesis properties.
"""

from collections import Counter
from collections.abc import Hashable, Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.engine import InvalidInput, Round, Table, check_round, round_robin, winners_move
from scoring.engine.movements import _BASES, _layout, first_round

from .test_movements import Pair, most_new_partnerships, partnerships

REMAINDERS = st.sampled_from(["two_player", "sit_out"])

# Round-robin: the rounds to come


@pytest.mark.parametrize("count", [8, 9, 10, 13, 14, 15, 22])
@pytest.mark.parametrize("remainder", ["two_player", "sit_out"])
def test_the_rounds_to_come_after_the_plan_played_are_the_rest_of_the_plan(
    count: int, remainder: str
) -> None:
    # Whist tournaments (8, 9, 13) go on as the tournament; the other counts are planned round
    # by round from what was played, so the plan does not change as it is played.
    plan = round_robin(range(count), 16, remainder)  # type: ignore[arg-type]
    for played in range(17):
        rest = round_robin(range(count), 16, remainder, played=plan[:played])  # type: ignore[arg-type]
        assert rest == plan[played:]


def test_no_round_is_left_after_the_last() -> None:
    plan = round_robin(range(10), 5)
    assert round_robin(range(10), 5, played=plan) == ()


def test_a_late_arrival_plays_every_round_until_the_others_have_sat_out_as_often() -> None:
    # Ten players, two sit out each round. P10 arrives after round 3: three rounds absent,
    # three sit-outs. The others have sat out 0 or 1 times (six sit-outs among ten players).
    played = round_robin(range(10), 3)
    rest = round_robin([*range(10), "P10"], 10, played=played)
    assert len(rest) == 7
    absent = Counter({p: 1 for p in range(10) for r in played if p in r.sitting_out})
    counts = Counter({"P10": 3, **absent})
    for round in rest:
        assert len(round.sitting_out) == 3  # eleven players: two tables, three sit out
        if "P10" in round.sitting_out:
            assert all(counts[p] >= 3 for p in range(10))
        counts.update(round.sitting_out)
    assert "P10" in {p for round in rest for p in round.players}


def test_a_leaver_is_seated_no_more_and_the_rest_keep_new_partners() -> None:
    players = [f"P{i}" for i in range(12)]
    played = round_robin(players, 2)
    staying = players[:5] + players[6:]  # P5 leaves after round 2
    rest = round_robin(staying, 6, played=played)
    assert len(rest) == 4
    partners: Counter[Pair] = Counter(
        pair for round in (*played, *rest) for pair in partnerships(round)
    )
    assert all("P5" not in {*round.players, *round.sitting_out} for round in rest)
    assert max(partners.values()) == 1
    assert all(len(round.sitting_out) == 3 for round in rest)


def test_played_is_checked_by_field() -> None:
    plan = round_robin("ABCDEFGH", 4)
    cases: list[tuple[object, str]] = [
        ([plan[0], "round 2"], "round 2 played is not a round of a movement"),
        (plan[0], "played must be a list of rounds, got Round"),
        ("ABCD", "played must be a list of rounds, got str"),
        (plan * 2, "more rounds played (8) than the night has (4)"),
        ([Round((Table(1, *"ABCA"),))], "A is listed twice"),
        ([Round((Table(1, "A", "B", "C"),))], "table 1 has no player in seat W"),
    ]
    for played, message in cases:
        with pytest.raises(InvalidInput) as error:
            round_robin("ABCDEFGH", 4, played=played)  # type: ignore[arg-type]
        assert (error.value.field, error.value.message) == ("played", message)


@st.composite
def changed_nights(draw: st.DrawFn, most: int = 17) -> tuple[list[int], int, str, list[Round[int]]]:
    """(players present, rounds, remainder, rounds played): one to three spells of rounds, the
    players changing between them (some leave, newcomers arrive)."""
    remainder = draw(REMAINDERS)
    players = list(range(draw(st.integers(4, most))))
    played: list[Round[int]] = []
    newcomer = 100
    for _ in range(draw(st.integers(1, 3))):
        rounds = len(played) + draw(st.integers(0, 4))
        if rounds > len(played):
            played += round_robin(players, rounds, remainder, played=played)  # type: ignore[arg-type]
        leaving = draw(st.sets(st.sampled_from(players), max_size=max(0, len(players) - 4)))
        players = [p for p in players if p not in leaving]
        arriving = draw(st.integers(0, most - len(players)))
        players += range(newcomer, newcomer + arriving)
        newcomer += arriving
    rounds = len(played) + draw(st.integers(0, 8))
    return players, max(rounds, 1), remainder, played


def absences(players: Sequence[Hashable], played: Sequence[Round[int]]) -> Counter[Hashable]:
    """The rounds each present player did not play: sat out or not there yet."""
    seated = [set(round.players) for round in played]
    return Counter({p: sum(p not in there for there in seated) for p in players})


@settings(max_examples=80, deadline=None)
@given(changed_nights())
def test_the_plan_does_not_change_when_the_next_round_is_started_as_planned(
    night: tuple[list[int], int, str, list[Round[int]]],
) -> None:
    players, rounds, remainder, played = night
    rest = round_robin(players, rounds, remainder, played=played)  # type: ignore[arg-type]
    assert len(rest) == rounds - len(played)
    assert round_robin(players, rounds, remainder, played=tuple(played)) == rest  # type: ignore[arg-type]
    if rest:
        after = round_robin(players, rounds, remainder, played=[*played, rest[0]])  # type: ignore[arg-type]
        assert after == rest[1:]


@settings(max_examples=60, deadline=None)
@given(changed_nights(), st.integers(0, 8), st.sampled_from([(), 1, 2]))
def test_a_shorter_plan_is_the_first_rounds_of_the_longer(
    night: tuple[list[int], int, str, list[Round[int]]], more: int, whole: object
) -> None:
    """The movement plans round by round: the plan up to round r is the first rounds of the
    plan up to a later round, so a page plans only the rounds it shows (nights.selectors)."""
    players, rounds, remainder, played = night
    if whole == ():  # a night whose players never changed: no rounds played are given
        played = []
    longer = round_robin(players, rounds + more, remainder, played=played)  # type: ignore[arg-type]
    shorter = round_robin(players, rounds, remainder, played=played)  # type: ignore[arg-type]
    assert shorter == longer[: len(shorter)]


@settings(max_examples=80, deadline=None)
@given(changed_nights())
def test_the_rounds_to_come_seat_the_players_present_with_new_partners_first(
    night: tuple[list[int], int, str, list[Round[int]]],
) -> None:
    players, rounds, remainder, played = night
    rest = round_robin(players, rounds, remainder, played=played)  # type: ignore[arg-type]
    fours, two, out = _layout(len(players), remainder)  # type: ignore[arg-type]
    present = set(players)
    counts = absences(players, played)
    paired = {pair for round in played for pair in partnerships(round) if pair <= present}
    for round in rest:
        check_round(round, players)  # nobody who left, nobody twice, every seat filled
        assert sorted([*round.players, *round.sitting_out]) == sorted(players)
        assert sum(not table.two_player for table in round.tables) == fours
        assert sum(table.two_player for table in round.tables) == (1 if two else 0)
        assert len(round.sitting_out) == out
        # Those who sit out have not played more rounds than anyone seated (a round not there
        # counts as sat out), so the spread never grows and, once at most one, stays so.
        seated = set(round.players)
        assert all(counts[s] <= counts[p] for s in round.sitting_out for p in seated)
        spread = max(counts.values()) - min(counts.values())
        counts.update(round.sitting_out)
        after = max(counts.values()) - min(counts.values())
        assert after <= max(spread, 1)
        # As many new partnerships as the round's tables of four can form.
        at_fours = frozenset(p for t in round.tables if not t.two_player for p in t.players)
        pairs = partnerships(round)
        new = sum(pair not in paired for pair in pairs)
        assert new == most_new_partnerships(at_fours, frozenset(paired))
        paired.update(pairs)


@settings(max_examples=15, deadline=None)
@given(changed_nights(most=60))
def test_big_nights_replanned_seat_everyone_once(
    night: tuple[list[int], int, str, list[Round[int]]],
) -> None:
    players, rounds, remainder, played = night
    for round in round_robin(players, rounds, remainder, played=played):  # type: ignore[arg-type]
        check_round(round, players)
        assert sorted([*round.players, *round.sitting_out]) == sorted(players)


@pytest.mark.parametrize("count", [c for c in sorted(_BASES) if c <= 25])
def test_a_whist_tournament_changed_is_planned_from_what_was_played(count: int) -> None:
    players = list(range(count))
    played = round_robin(players, 2)
    changed = [*players[1:], "new"]
    rest = round_robin(changed, 6, played=played)
    assert rest != round_robin(changed, 6)[2:] or count == 4  # not the new count's tournament
    partners: Counter[Pair] = Counter(
        pair for round in (*played, *rest) for pair in partnerships(round)
    )
    assert max(partners.values()) == 1 or count <= 5


# Winners move: the players present for the next round


def test_a_leavers_seat_is_taken_by_the_first_of_the_queue() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH")), ("K", "L", "M"))
    # Without change: K and L come in to table 2 for its losers F and H; M, F, H sit out.
    assert winners_move(round, {1: "NS", 2: "NS"}) == Round(
        (Table(1, *"ACEG"), Table(2, *"KLBD")), ("M", "F", "H")
    )
    # A leaves: the winner who would have stayed at table 1 is replaced by M.
    after = winners_move(round, {1: "NS", 2: "NS"}, players="BCDEFGHKLM")
    assert after == Round((Table(1, *"MCEG"), Table(2, *"KLBD")), ("F", "H"))


def test_newcomers_join_the_end_of_the_queue_and_a_new_table_is_added_at_the_bottom() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH")), ("K",))
    won = {1: "EW", 2: "NS"}
    # K comes in to table 2 for F, a loser there, who sits out.
    assert winners_move(round, won) == Round((Table(1, *"BDEG"), Table(2, *"KHAC")), ("F",))
    # Eleven players: two tables, three sit out (the queue: F, then the newcomers X and Y).
    after = winners_move(round, won, players="ABCDEFGHKXY")
    assert after == Round((Table(1, *"BDEG"), Table(2, *"KHAC")), ("F", "X", "Y"))
    # Twelve: a third table, the queue seated N, E, S, W.
    after = winners_move(round, won, players="ABCDEFGHKXYZ")
    assert after == Round((Table(1, *"BDEG"), Table(2, *"KHAC"), Table(3, *"FXYZ")))
    # Fourteen with tables of two: three tables of four and a table of two.
    after = winners_move(round, won, players="ABCDEFGHKVWXYZ", remainder="two_player")
    assert after == Round(
        (Table(1, *"BDEG"), Table(2, *"KHAC"), Table(3, *"FVWX"), Table(4, "Y", "Z"))
    )


def test_a_table_is_removed_from_the_bottom_when_players_leave() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH"), Table(3, *"IJKL")))
    won = {1: "NS", 2: "NS", 3: "NS"}
    assert winners_move(round, won) == Round(
        (Table(1, *"ACEG"), Table(2, *"FHIK"), Table(3, *"JLBD"))
    )
    # A and E leave: ten players, two tables of four. Table 3's players J, L, B and D join
    # the queue; J takes A's seat, and E's goes to B, not to L, J's partner in round 1.
    after = winners_move(round, won, players="BCDFGHIJKL")
    assert after == Round((Table(1, *"JCBG"), Table(2, *"FHIK")), ("L", "D"))
    # With tables of two, L and D play at table 3, a table of two.
    after = winners_move(round, won, players="BCDFGHIJKL", remainder="two_player")
    assert after == Round((Table(1, *"JCBG"), Table(2, *"FHIK"), Table(3, "L", "D")))


def test_the_same_players_given_change_nothing() -> None:
    round = Round((Table(1, *"ABCD"), Table(2, *"EFGH"), Table(3, "I", "J")), ("K",))
    plain = winners_move(round, {1: "NS", 2: "EW"})
    assert winners_move(round, {1: "NS", 2: "EW"}, players="KJIHGFEDCBA") == plain


def test_winners_move_refuses_too_few_or_listed_twice_players() -> None:
    round = Round((Table(1, *"ABCD"),), ("E",))
    for players in ("ABC", "ABCDD"):
        with pytest.raises(InvalidInput) as error:
            winners_move(round, {1: "NS"}, players=players)
        assert error.value.field == "players"
    with pytest.raises(InvalidInput) as error:
        winners_move(round, {1: "NS"}, players="ABCDEF", remainder="bye")  # type: ignore[arg-type]
    assert error.value.field == "remainder"


@st.composite
def progressive_changes(
    draw: st.DrawFn,
) -> tuple[Round[int], dict[int, str], list[int], str, Counter[int]]:
    """(a previous round, its results, the players present next, the remainder, sit-outs)."""
    remainder = draw(REMAINDERS)
    count = draw(st.integers(4, 40))
    round = first_round(range(count), remainder)  # type: ignore[arg-type]
    sat_out: Counter[int] = Counter(round.sitting_out)
    moves = draw(st.integers(0, 3))
    for _ in range(moves):
        fours = [t.number for t in round.tables if not t.two_player]
        won = {n: draw(st.sampled_from(["NS", "EW"])) for n in fours}
        round = winners_move(round, won, sat_out)
        sat_out.update(round.sitting_out)
    everyone = sorted([*round.players, *round.sitting_out])
    leaving = draw(st.sets(st.sampled_from(everyone), max_size=len(everyone) - 4))
    staying = [p for p in everyone if p not in leaving]
    arriving = list(range(100, 100 + draw(st.integers(0, 60 - len(staying)))))
    sat_out.update(dict.fromkeys(arriving, 1 + moves))  # absent rounds count as sit-outs
    players = draw(st.permutations([*staying, *arriving]))
    fours = [t.number for t in round.tables if not t.two_player]
    won = {n: draw(st.sampled_from(["NS", "EW"])) for n in fours}
    return round, won, players, remainder, sat_out


@settings(max_examples=150, deadline=None)
@given(progressive_changes(), st.booleans())
def test_winners_move_seats_the_players_present_once(
    change: tuple[Round[int], dict[int, str], list[int], str, Counter[int]], rotate: bool
) -> None:
    previous, won, players, remainder, sat_out = change
    after = winners_move(previous, won, sat_out if rotate else None, players, remainder)  # type: ignore[arg-type]
    check_round(after, players)  # seats filled, N E S W distinct, nobody absent, nobody twice
    assert sorted([*after.players, *after.sitting_out]) == sorted(players)
    fours, two, out = _layout(len(players), remainder)  # type: ignore[arg-type]
    tables = [t for t in after.tables if not t.two_player]
    assert [t.number for t in tables] == list(range(1, fours + 1))  # the numbers stay
    assert [t.number for t in after.tables if t.two_player] == ([fours + 1] if two else [])
    assert len(after.sitting_out) == out
    if rotate:  # those who sit out have sat out no more than anyone at a table of four
        seated = {p for t in tables for p in t.players}
        assert all(sat_out[s] <= sat_out[p] for s in after.sitting_out for p in seated)
    assert winners_move(previous, won, sat_out if rotate else None, players, remainder) == after  # type: ignore[arg-type]
    plain = winners_move(previous, won)
    if set(players) == {*previous.players, *previous.sitting_out}:
        assert after == winners_move(previous, won, sat_out if rotate else None)
    elif not rotate:  # the tables kept change only where a player left
        kept = {t.number: t for t in after.tables if not t.two_player}
        for table in plain.tables:
            if not table.two_player and table.number in kept:
                seats = zip(table.seats, kept[table.number].seats, strict=True)
                for (seat, was), (_, now) in seats:
                    assert now == was or was not in players, (seat, was, now)
