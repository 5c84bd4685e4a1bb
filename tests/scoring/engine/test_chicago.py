"""Chicago, four-deal bridge (docs/rules.md, "Chicago" and "Worked examples"). Expected figures
worked out by hand."""

import pytest

from scoring.engine import (
    ChicagoVulnerability,
    InvalidInput,
    ItemKind,
    Kind,
    MatchComplete,
    NextDeal,
    Rules,
    Seat,
    Side,
    Winner,
    chicago_schedule,
    score_chicago,
)

from .helpers import PASS, deal, deals, row_items, row_partscores, row_points

NS, EW = Side.NS, Side.EW
NON_DEALER = ChicagoVulnerability.NON_DEALER


def test_worked_example_of_rules_section_5() -> None:
    results = deals("2S N 8", "pass", "2H S 9", "3NT E 8", "1C W 7")
    sheet = score_chicago(results, first_dealer=Seat.N)

    assert [row.sequence for row in sheet.rows] == [1, 2, 3, 4, 5]
    assert [row.number for row in sheet.rows] == [1, None, 2, 3, 4]
    assert [row.dealer for row in sheet.rows] == [Seat.N, Seat.E, Seat.E, Seat.S, Seat.W]
    assert [row.vulnerable for row in sheet.rows] == [(), (EW,), (EW,), (NS,), (NS, EW)]
    assert [row.result for row in sheet.rows] == results
    assert row_points(sheet) == [(60, 0), (0, 0), (390, 0), (50, 0), (0, 120)]
    assert row_partscores(sheet) == [(60, 0), (60, 0), (0, 0), (0, 0), (0, 20)]
    assert [row.game_won_by for row in sheet.rows] == [None, None, NS, None, None]
    assert [(row.games_ns, row.games_ew) for row in sheet.rows] == [(0, 0)] * 2 + [(1, 0)] * 3

    assert row_items(sheet, 0) == [("trick_points", "NS", 60)]
    assert row_items(sheet, 1) == []
    assert row_items(sheet, 2) == [
        ("trick_points", "NS", 60),
        ("overtricks", "NS", 30),
        ("game_bonus", "NS", 300),
    ]
    assert row_items(sheet, 3) == [("undertricks", "NS", 50)]
    assert row_items(sheet, 4) == [("trick_points", "EW", 20), ("partscore_bonus", "EW", 100)]

    assert (sheet.total_ns, sheet.total_ew) == (500, 120)
    assert (sheet.below_ns, sheet.above_ns, sheet.below_ew, sheet.above_ew) == (120, 380, 20, 100)
    assert sheet.net(NS) == 380
    assert sheet.net(EW) == -380
    assert sheet.winner is Winner.NS
    assert sheet.complete
    assert not sheet.finished_early
    assert sheet.next_deal is None
    assert sheet.closing_items == ()
    assert (sheet.kind, sheet.first_dealer) == (Kind.CHICAGO, Seat.N)
    assert (sheet.games_ns, sheet.games_ew) == (1, 0)


def test_schedule_dealer_vulnerable_by_default() -> None:
    assert chicago_schedule(Seat.N) == (
        NextDeal(1, Seat.N, ()),
        NextDeal(2, Seat.E, (EW,)),
        NextDeal(3, Seat.S, (NS,)),
        NextDeal(4, Seat.W, (NS, EW)),
    )
    assert chicago_schedule(Seat.W) == (
        NextDeal(1, Seat.W, ()),
        NextDeal(2, Seat.N, (NS,)),
        NextDeal(3, Seat.E, (EW,)),
        NextDeal(4, Seat.S, (NS, EW)),
    )


def test_schedule_non_dealer_option() -> None:
    assert chicago_schedule(Seat.N, NON_DEALER) == (
        NextDeal(1, Seat.N, ()),
        NextDeal(2, Seat.E, (NS,)),
        NextDeal(3, Seat.S, (EW,)),
        NextDeal(4, Seat.W, (NS, EW)),
    )


def test_next_deal_follows_the_schedule() -> None:
    sheets = [score_chicago(deals(*["1C N 7"] * n), first_dealer=Seat.S) for n in range(4)]
    assert [sheet.next_deal for sheet in sheets] == list(chicago_schedule(Seat.S))
    for sheet in sheets:
        assert not sheet.complete
        assert sheet.winner is None


def test_deal_4_partscore_bonus_without_carried_partscore() -> None:
    sheet = score_chicago(deals("4S N 9", "3NT E 8", "2H S 7", "1S N 7"), first_dealer=Seat.N)
    assert row_points(sheet) == [(0, 50), (100, 0), (0, 100), (130, 0)]
    assert row_items(sheet, 3) == [("trick_points", "NS", 30), ("partscore_bonus", "NS", 100)]
    assert row_partscores(sheet)[-1] == (30, 0)
    assert (sheet.total_ns, sheet.total_ew, sheet.winner) == (230, 150, Winner.NS)


def test_deal_4_partscore_bonus_with_own_carried_partscore() -> None:
    sheet = score_chicago(deals("2C N 8", "1H E 6", "1NT W 6", "1D S 7"), first_dealer=Seat.N)
    assert row_points(sheet) == [(40, 0), (100, 0), (50, 0), (120, 0)]
    assert row_partscores(sheet) == [(40, 0), (40, 0), (40, 0), (60, 0)]
    assert row_items(sheet, 3) == [("trick_points", "NS", 20), ("partscore_bonus", "NS", 100)]
    assert (sheet.total_ns, sheet.total_ew) == (310, 0)


def test_deal_4_carried_partscore_completing_a_game_earns_the_game_bonus_only() -> None:
    sheet = score_chicago(deals("2S S 8", "1C E 6", "1C W 6", "2H N 8"), first_dealer=Seat.N)
    assert row_points(sheet) == [(60, 0), (100, 0), (50, 0), (560, 0)]
    assert row_items(sheet, 3) == [("trick_points", "NS", 60), ("game_bonus", "NS", 500)]
    assert sheet.rows[3].game_won_by is NS
    assert row_partscores(sheet)[-1] == (0, 0)
    assert (sheet.total_ns, sheet.games_ns) == (770, 1)


def test_deal_4_bonus_goes_to_that_contract_not_to_the_other_sides_carried_partscore() -> None:
    sheet = score_chicago(deals("2S E 8", "2H W 7", "2H E 7", "1NT S 7"), first_dealer=Seat.N)
    assert row_points(sheet) == [(0, 60), (100, 0), (50, 0), (140, 0)]
    assert row_items(sheet, 3) == [("trick_points", "NS", 40), ("partscore_bonus", "NS", 100)]
    assert row_partscores(sheet)[-1] == (40, 60)
    assert (sheet.total_ns, sheet.total_ew) == (290, 60)


def test_a_carried_partscore_alone_earns_nothing() -> None:
    sheet = score_chicago(deals("3D W 9", "3D N 8", "3D S 8", "3D N 7"), first_dealer=Seat.N)
    assert row_points(sheet) == [(0, 60), (0, 50), (0, 100), (0, 200)]
    assert all(
        item.kind is not ItemKind.PARTSCORE_BONUS for row in sheet.rows for item in row.items
    )
    assert row_partscores(sheet)[-1] == (0, 60)
    assert (sheet.total_ns, sheet.total_ew, sheet.winner) == (0, 410, Winner.EW)


def test_deal_4_defeated_partscore_contract_earns_no_bonus() -> None:
    sheet = score_chicago(deals("1C N 7", "1C N 7", "1C N 7", "2S E 7"), first_dealer=Seat.N)
    assert row_points(sheet)[-1] == (100, 0)
    assert row_items(sheet, 3) == [("undertricks", "NS", 100)]
    assert row_partscores(sheet)[-1] == (60, 0)


def test_game_from_two_partscores_when_the_dealers_side_is_vulnerable() -> None:
    results = deals("2H N 8", "1S W 6", "2D S 8", "1NT E 7")
    sheet = score_chicago(results, first_dealer=Seat.N)
    assert sheet.rows[2].vulnerable == (NS,)
    assert row_points(sheet) == [(60, 0), (100, 0), (540, 0), (0, 140)]
    assert row_items(sheet, 2) == [("trick_points", "NS", 40), ("game_bonus", "NS", 500)]
    assert row_partscores(sheet) == [(60, 0), (60, 0), (0, 0), (0, 40)]
    assert (sheet.total_ns, sheet.total_ew) == (700, 140)


def test_non_dealer_option_on_the_same_deals() -> None:
    results = deals("2H N 8", "1S W 6", "2D S 8", "1NT E 7")
    sheet = score_chicago(results, first_dealer=Seat.N, rules=Rules(vulnerability=NON_DEALER))
    assert [row.vulnerable for row in sheet.rows] == [(), (NS,), (EW,), (NS, EW)]
    assert row_points(sheet) == [(60, 0), (50, 0), (340, 0), (0, 140)]
    assert row_items(sheet, 2) == [("trick_points", "NS", 40), ("game_bonus", "NS", 300)]
    assert (sheet.total_ns, sheet.total_ew) == (450, 140)
    assert (
        score_chicago(results, first_dealer="n", rules=Rules(vulnerability="non_dealer")) == sheet
    )


def test_a_game_cancels_both_partscores() -> None:
    sheet = score_chicago(deals("2C N 8", "1NT E 7", "4H W 10", "1C S 7"), first_dealer=Seat.N)
    assert row_partscores(sheet) == [(40, 0), (40, 40), (0, 0), (20, 0)]
    assert row_points(sheet) == [(40, 0), (0, 40), (0, 420), (120, 0)]
    assert [row.game_won_by for row in sheet.rows] == [None, None, EW, None]
    assert (sheet.total_ns, sheet.total_ew, sheet.games_ew) == (160, 460, 1)


def test_a_doubled_partscore_contract_can_make_game_and_overtricks_never_count() -> None:
    doubled = score_chicago(deals("2SX N 8"), first_dealer=Seat.N)
    assert row_items(doubled, 0) == [
        ("trick_points", "NS", 120),
        ("insult", "NS", 50),
        ("game_bonus", "NS", 300),
    ]
    assert row_partscores(doubled) == [(0, 0)]
    overtricks = score_chicago(deals("2S N 11"), first_dealer=Seat.N)
    assert row_items(overtricks, 0) == [("trick_points", "NS", 60), ("overtricks", "NS", 90)]
    assert row_partscores(overtricks) == [(60, 0)]
    assert overtricks.rows[0].game_won_by is None


def test_every_game_is_paid_and_there_is_no_rubber_bonus() -> None:
    sheet = score_chicago(deals("4S N 10", "4S S 10", "4S N 10", "4S S 10"), first_dealer=Seat.N)
    assert row_points(sheet) == [(420, 0), (420, 0), (620, 0), (620, 0)]
    assert (sheet.games_ns, sheet.total_ns) == (4, 2080)
    kinds = {item.kind for row in sheet.rows for item in row.items}
    assert kinds == {ItemKind.TRICK_POINTS, ItemKind.GAME_BONUS}


def test_passed_out_deals_are_dealt_again_by_the_same_dealer_and_not_counted() -> None:
    sheet = score_chicago(deals("pass", "pass", "1C N 7", "pass"), first_dealer=Seat.S)
    assert [row.sequence for row in sheet.rows] == [1, 2, 3, 4]
    assert [row.number for row in sheet.rows] == [None, None, 1, None]
    assert [row.dealer for row in sheet.rows] == [Seat.S, Seat.S, Seat.S, Seat.W]
    assert [row.vulnerable for row in sheet.rows] == [(), (), (), (EW,)]
    assert row_points(sheet) == [(0, 0), (0, 0), (20, 0), (0, 0)]
    assert row_partscores(sheet) == [(0, 0), (0, 0), (20, 0), (20, 0)]
    assert sheet.next_deal == NextDeal(2, Seat.W, (EW,))
    assert not sheet.complete


def test_a_tie() -> None:
    sheet = score_chicago(deals("1C N 7", "1C E 7", "1S S 6", "1S W 6"), first_dealer=Seat.N)
    assert (sheet.total_ns, sheet.total_ew) == (120, 120)
    assert sheet.winner is Winner.TIE
    assert sheet.net(NS) == 0


@pytest.mark.parametrize("extra", [deal("1C N 7"), PASS])
def test_no_fifth_deal(extra: object) -> None:
    results = [*deals("1C N 7", "pass", "1C E 7", "1C S 7", "1C W 7"), extra]
    with pytest.raises(MatchComplete) as error:
        score_chicago(results, first_dealer=Seat.N)  # type: ignore[arg-type]
    assert str(error.value) == (
        "a Chicago match is exactly 4 deals and all 4 have been played; it accepts no further deal"
    )
    assert error.value.params == {}


def test_bad_input() -> None:
    with pytest.raises(InvalidInput) as error:
        score_chicago([], first_dealer="X")
    assert (error.value.field, str(error.value)) == (
        "first_dealer",
        "first_dealer must be one of N, E, S, W, got 'X'",
    )
    with pytest.raises(InvalidInput) as error:
        score_chicago([deal("1C N 7"), "4S N 10"], first_dealer=Seat.N)  # type: ignore[list-item]
    assert (error.value.field, str(error.value)) == (
        "contract",
        "deal 2 must be a played or passed-out result (see make_result), got str",
    )
    with pytest.raises(InvalidInput) as error:
        score_chicago([], first_dealer=Seat.N, rules=Rules(vulnerability="sometimes"))
    assert (error.value.field, str(error.value)) == (
        "vulnerability",
        "vulnerability must be 'dealer' or 'non_dealer', got 'sometimes'",
    )


def test_chicago_for_two_players_is_refused() -> None:
    with pytest.raises(InvalidInput) as error:
        score_chicago([], first_dealer=Seat.N, players=2)
    assert error.value.field == "kind"
    assert str(error.value) == (
        "Chicago is played by exactly four players, got 2; a table of two plays the two-player "
        "game (Draw Bridge), scored as a rubber"
    )


def test_sheet_is_immutable() -> None:
    sheet = score_chicago(deals("1C N 7"), first_dealer=Seat.N)
    with pytest.raises(AttributeError):
        sheet.total_ns = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        sheet.rows[0].ns = 5  # type: ignore[misc]
    assert isinstance(sheet.rows, tuple)
