"""Rubber bridge and the two-player Draw Bridge (docs/rules.md, "Rubber bridge" and "Draw
Bridge: a table of two"), by hand."""

import pytest

from scoring.engine import (
    InvalidInput,
    Kind,
    MatchComplete,
    NextDeal,
    Seat,
    Side,
    Winner,
    check_next,
    score_match,
    score_rubber,
)

from .helpers import PASS, deal, deals, row_items, row_partscores, row_points

NS, EW = Side.NS, Side.EW


def test_rubber_won_two_games_to_none() -> None:
    sheet = score_rubber(deals("4S N 10", "3NT S 9"), first_dealer=Seat.N)
    assert [row.vulnerable for row in sheet.rows] == [(), (NS,)]
    assert [row.dealer for row in sheet.rows] == [Seat.N, Seat.E]
    assert [row.number for row in sheet.rows] == [1, 2]
    assert row_points(sheet) == [(120, 0), (800, 0)]
    assert row_items(sheet, 1) == [("trick_points", "NS", 100), ("rubber_bonus", "NS", 700)]
    assert [row.game_won_by for row in sheet.rows] == [NS, NS]
    assert [(row.games_ns, row.games_ew) for row in sheet.rows] == [(1, 0), (2, 0)]
    assert (sheet.total_ns, sheet.total_ew) == (920, 0)
    assert (sheet.below_ns, sheet.above_ns) == (220, 700)
    assert sheet.complete
    assert sheet.winner is Winner.NS
    assert sheet.next_deal is None
    assert sheet.kind is Kind.RUBBER
    assert not sheet.finished_early


def test_rubber_won_two_games_to_one() -> None:
    sheet = score_rubber(deals("4H S 10", "5D E 11", "3NT N 10"), first_dealer=Seat.N)
    assert [row.vulnerable for row in sheet.rows] == [(), (NS,), (NS, EW)]
    assert row_points(sheet) == [(120, 0), (0, 100), (630, 0)]
    assert row_items(sheet, 2) == [
        ("trick_points", "NS", 100),
        ("overtricks", "NS", 30),
        ("rubber_bonus", "NS", 500),
    ]
    assert (sheet.total_ns, sheet.total_ew) == (750, 100)
    assert (sheet.games_ns, sheet.games_ew, sheet.winner) == (2, 1, Winner.NS)


def test_vulnerability_comes_from_games_won() -> None:
    # NS vulnerable after their game: 4SX three down vulnerable is 800, not 500.
    sheet = score_rubber(deals("3NT N 9", "4SX S 7"), first_dealer=Seat.N)
    assert sheet.rows[1].vulnerable == (NS,)
    assert row_points(sheet)[1] == (0, 800)
    assert sheet.next_deal == NextDeal(3, Seat.S, (NS,))


def test_the_side_with_two_games_wins_even_with_fewer_points() -> None:
    sheet = score_rubber(deals("3NT N 9", "4SX S 6", "3NT N 9"), first_dealer=Seat.W)
    assert row_points(sheet) == [(100, 0), (0, 1100), (800, 0)]
    assert (sheet.total_ns, sheet.total_ew) == (900, 1100)
    assert sheet.winner is Winner.NS
    assert sheet.net(NS) == -200


def test_partscores_build_a_game_and_a_game_cancels_the_other_partscore() -> None:
    sheet = score_rubber(deals("2S N 8", "3C E 9", "2NT W 8", "1NT N 7"), first_dealer=Seat.N)
    assert row_partscores(sheet) == [(60, 0), (60, 60), (0, 0), (40, 0)]
    assert [row.game_won_by for row in sheet.rows] == [None, None, EW, None]
    assert [row.vulnerable for row in sheet.rows] == [(), (), (), (EW,)]
    assert (sheet.total_ns, sheet.total_ew) == (100, 130)
    assert not sheet.complete
    assert sheet.winner is None
    assert sheet.closing_items == ()
    assert sheet.next_deal == NextDeal(5, Seat.N, (EW,))


def test_unfinished_rubber_finished_by_the_laws() -> None:
    results = deals("2S N 8", "3C E 9", "2NT W 8", "1NT N 7")
    sheet = score_rubber(results, first_dealer=Seat.N, finished=True)
    assert [(i.kind.value, i.side, i.points, i.below_line) for i in sheet.closing_items] == [
        ("unfinished_partscore", NS, 100, False),
        ("unfinished_game", EW, 300, False),
    ]
    assert (sheet.total_ns, sheet.total_ew) == (200, 430)
    assert (sheet.above_ns, sheet.above_ew) == (100, 300)
    assert sheet.complete
    assert sheet.finished_early
    assert sheet.winner is Winner.EW
    assert sheet.next_deal is None
    assert sheet.rows == score_rubber(results, first_dealer=Seat.N).rows


def test_unfinished_rubber_bonuses_to_both_sides() -> None:
    results = deals("4S N 10", "4H E 10", "1NT S 7", "1C W 7")
    sheet = score_rubber(results, first_dealer=Seat.N, finished=True)
    assert [(i.kind.value, i.side, i.points) for i in sheet.closing_items] == [
        ("unfinished_game", NS, 300),
        ("unfinished_partscore", NS, 100),
        ("unfinished_game", EW, 300),
        ("unfinished_partscore", EW, 100),
    ]
    assert (sheet.total_ns, sheet.total_ew, sheet.winner) == (560, 540, Winner.NS)


def test_unfinished_rubber_with_equal_totals_is_a_tie() -> None:
    sheet = score_rubber(deals("1NT N 7", "1NT E 7"), first_dealer=Seat.N, finished=True)
    assert (sheet.total_ns, sheet.total_ew, sheet.winner) == (140, 140, Winner.TIE)
    empty = score_rubber([], first_dealer=Seat.N, finished=True)
    assert (empty.total_ns, empty.total_ew, empty.winner, empty.complete) == (
        0,
        0,
        Winner.TIE,
        True,
    )


def test_finishing_a_rubber_already_won_changes_nothing() -> None:
    results = deals("4S N 10", "3NT S 9")
    assert score_rubber(results, first_dealer=Seat.N, finished=True) == score_rubber(
        results, first_dealer=Seat.N
    )


@pytest.mark.parametrize("extra", [deal("1C N 7"), PASS])
def test_no_deal_after_the_rubber(extra: object) -> None:
    with pytest.raises(MatchComplete) as error:
        score_rubber([*deals("4S N 10", "3NT S 9"), extra], first_dealer=Seat.N)  # type: ignore[list-item]
    assert str(error.value) == (
        "the rubber ended on deal 2 (NS won two games); it accepts no further deal"
    )


def test_no_deal_after_finishing_early() -> None:
    results = deals("1NT N 7")
    with pytest.raises(MatchComplete) as error:
        check_next("rubber", results, deal("1C E 7"), first_dealer="N", finished=True)
    assert str(error.value) == (
        "the rubber was finished early, after deal 1; it accepts no further deal"
    )
    assert error.value.params == {"deal": 1}
    with pytest.raises(MatchComplete) as error:
        check_next("two_player", results, deal("1C E 7"), first_dealer="N", finished=True)
    assert str(error.value) == (
        "the two-player rubber was finished early, after deal 1; it accepts no further deal"
    )
    assert check_next("rubber", results, deal("1C E 7"), first_dealer="N").total_ew == 20
    won = deals("4S N 10", "3NT S 9")
    with pytest.raises(MatchComplete, match="the rubber ended on deal 2"):
        check_next("rubber", won, deal("1C E 7"), first_dealer="N", finished=True)


def test_a_passed_out_rubber_deal_passes_to_the_next_dealer() -> None:
    sheet = score_rubber(deals("pass", "1C N 7", "pass"), first_dealer=Seat.W)
    assert [row.dealer for row in sheet.rows] == [Seat.W, Seat.N, Seat.E]
    assert [row.number for row in sheet.rows] == [1, 2, 3]
    assert row_points(sheet) == [(0, 0), (20, 0), (0, 0)]
    assert row_partscores(sheet) == [(0, 0), (20, 0), (20, 0)]
    assert sheet.next_deal == NextDeal(4, Seat.S, ())


def test_two_player_rubber() -> None:
    sheet = score_rubber(deals("1C N 7", "pass", "4H E 10", "4H E 10"), first_dealer="E", players=2)
    assert sheet.kind is Kind.TWO_PLAYER
    assert [row.dealer for row in sheet.rows] == [Seat.E, Seat.N, Seat.E, Seat.N]
    assert row_points(sheet) == [(20, 0), (0, 0), (0, 120), (0, 820)]
    assert [row.vulnerable for row in sheet.rows] == [(), (), (), (EW,)]
    assert (sheet.total_ns, sheet.total_ew, sheet.winner) == (20, 940, Winner.EW)
    results = [row.result for row in sheet.rows]
    assert score_match("two_player", results, first_dealer="E") == sheet


def test_two_player_dealer_alternates() -> None:
    sheet = score_rubber(deals("pass", "pass", "pass"), first_dealer=Seat.N, players=2)
    assert [row.dealer for row in sheet.rows] == [Seat.N, Seat.E, Seat.N]
    assert sheet.next_deal == NextDeal(4, Seat.E, ())


def test_two_player_seats() -> None:
    with pytest.raises(InvalidInput) as error:
        score_rubber(deals("1C N 7", "2S S 8"), first_dealer=Seat.N, players=2)
    assert (error.value.field, str(error.value)) == (
        "declarer",
        "a table of two has only seats N and E; declarer must be N or E, got S (deal 2)",
    )
    with pytest.raises(InvalidInput) as error:
        score_rubber([], first_dealer=Seat.W, players=2)
    assert (error.value.field, str(error.value)) == (
        "first_dealer",
        "At a table of two, North or East deals first.",
    )
    with pytest.raises(InvalidInput, match="a rubber is played by 4 players or 2, got 3"):
        score_rubber([], first_dealer=Seat.N, players=3)


def test_two_player_chicago_is_refused() -> None:
    with pytest.raises(InvalidInput) as error:
        score_match("chicago", [], first_dealer="N", players=2)
    assert error.value.field == "kind"
    assert str(error.value).startswith("Chicago is played by exactly four players, got 2")
