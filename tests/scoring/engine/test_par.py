"""Par scoring by high-card points: the IMP scale, the default table, the duplicate score of
one deal, and each deal's reading; the worked examples of docs/rules.md as a table."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.engine import (
    InvalidInput,
    PassedOut,
    Played,
    Rules,
    Seat,
    Side,
    check_next,
    make_result,
    read_par,
    score_match,
)
from scoring.engine.contract import ALL_CONTRACTS
from scoring.engine.par import (
    DEFAULT_PAR_TABLE,
    ParTable,
    duplicate_score,
    imps,
    par_deal,
)

NS, EW = Side.NS, Side.EW


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (0, 0), (10, 0), (15, 1), (20, 1), (40, 1), (50, 2), (80, 2), (90, 3), (370, 9),
        (420, 9), (430, 10), (590, 11), (600, 12), (740, 12), (750, 13), (1990, 18),
        (2000, 19), (3490, 22), (3500, 23), (3990, 23), (4000, 24), (7600, 24),
        (-10, 0), (-20, -1), (-790, -13), (-4000, -24),
    ],
)  # fmt: skip
def test_the_international_imp_scale_with_the_sign_of_the_difference(difference, expected):
    assert imps(difference) == expected


@given(st.integers(-8000, 8000), st.integers(0, 8000))
def test_imps_never_decrease_as_the_difference_grows_and_mirror_at_zero(difference, more):
    assert imps(difference + more) >= imps(difference)
    assert imps(-difference) == -imps(difference)
    assert abs(imps(difference)) <= 24


@pytest.mark.parametrize(
    ("result", "vulnerable", "score"),
    [
        (Played("4S", "N", 10), False, 420),  # 120 + a game, 300
        (Played("4S", "N", 10), True, 620),
        (Played("2H", "E", 9), True, 140),  # 60 + 30 + a partscore, 50
        (Played("2D", "E", 8), False, 90),
        (Played("1NT", "W", 7), False, 90),
        (Played("3NT", "S", 8), True, -100),
        (Played("2SX", "N", 8), False, 470),  # 120 doubled makes a game: + 50 insult + 300
        (Played("6NT", "S", 12), True, 1440),  # 190 + 750 slam + 500 game
        (Played("7CXX", "E", 6), False, -3400),  # seven down redoubled: 1,700 doubled, twice
    ],
)
def test_a_deal_alone_is_scored_as_at_duplicate(result, vulnerable, score):
    assert duplicate_score(result, vulnerable=vulnerable) == score


# docs/rules.md, "Par scoring": (deal, HCP of the declaring side, vulnerable sides, the
# stronger side, E, A, its IMPs).
WORKED = [
    (Played("4S", "N", 10), 26, (EW,), NS, 350, 420, 2),
    (Played("2H", "E", 9), 23, (NS, EW), EW, 110, 140, 1),
    (Played("3NT", "S", 8), 30, (NS,), NS, 690, -100, -13),
    (Played("2D", "E", 8), 15, (), NS, 300, -90, -9),
    (Played("1NT", "W", 7), 20, (), EW, 0, 90, 3),
]


@pytest.mark.parametrize(("result", "hcp", "vulnerable", "side", "e", "a", "won"), WORKED)
def test_the_worked_examples(result, hcp, vulnerable, side, e, a, won):
    reading = par_deal(result, hcp=hcp, vulnerable=vulnerable)
    assert (reading.side, reading.expected, reading.actual, reading.imps) == (side, e, a, won)
    assert reading.difference == a - e
    assert reading.imps_of(side.other) == -won


played = st.builds(
    Played,
    st.sampled_from(ALL_CONTRACTS),
    st.sampled_from(Seat),
    st.integers(0, 13),
)
sides = st.sets(st.sampled_from(Side)).map(tuple)


@given(played, st.integers(0, 40), sides)
def test_the_two_sides_imps_sum_to_zero(result, hcp, vulnerable):
    reading = par_deal(result, hcp=hcp, vulnerable=vulnerable)
    assert reading.imps_of(NS) + reading.imps_of(EW) == 0
    assert reading.hcp >= 20 and reading.hcp == max(hcp, 40 - hcp)


@given(played, st.integers(0, 40), sides)
def test_more_tricks_never_win_the_declaring_side_fewer_imps(result, hcp, vulnerable):
    if result.tricks == 13:
        return
    better = Played(result.contract, result.declarer, result.tricks + 1)
    side = result.declarer.side
    worse_imps = par_deal(result, hcp=hcp, vulnerable=vulnerable).imps_of(side)
    assert par_deal(better, hcp=hcp, vulnerable=vulnerable).imps_of(side) >= worse_imps


@given(played, st.integers(0, 39), sides)
def test_more_cards_never_win_the_declaring_side_more_imps(result, hcp, vulnerable):
    side = result.declarer.side
    fewer = par_deal(result, hcp=hcp, vulnerable=vulnerable).imps_of(side)
    assert par_deal(result, hcp=hcp + 1, vulnerable=vulnerable).imps_of(side) <= fewer


def test_the_default_table():
    assert DEFAULT_PAR_TABLE.expected(20, vulnerable=False) == 0
    assert DEFAULT_PAR_TABLE.expected(26, vulnerable=False) == 350
    assert DEFAULT_PAR_TABLE.expected(30, vulnerable=True) == 690
    assert DEFAULT_PAR_TABLE.expected(37, vulnerable=True) == 1950
    assert DEFAULT_PAR_TABLE.expected(40, vulnerable=False) == 1300


def test_a_club_table_is_checked_and_used():
    flat = [0] * 21
    table = ParTable(not_vulnerable=flat, vulnerable=range(0, 2100, 100))
    assert table.expected(25, vulnerable=True) == 500
    reading = par_deal(Played("4S", "N", 10), hcp=25, vulnerable=(NS,), table=table)
    assert (reading.expected, reading.actual, reading.imps) == (500, 620, 3)
    with pytest.raises(InvalidInput) as short:
        ParTable(not_vulnerable=flat[:20], vulnerable=flat)
    assert short.value.field == "not_vulnerable"
    falling = [*flat[:5], 300, 200, *flat[7:]]
    with pytest.raises(InvalidInput) as down:
        ParTable(not_vulnerable=flat, vulnerable=falling)
    assert down.value.field == "vulnerable"
    with pytest.raises(InvalidInput):
        ParTable(not_vulnerable=[-1, *flat[1:]], vulnerable=flat)


@pytest.mark.parametrize("hcp", [-1, 41, 20.5, "25", None, True])
def test_high_card_points_are_a_whole_number_0_to_40(hcp):
    with pytest.raises(InvalidInput) as error:
        par_deal(Played("1NT", "N", 7), hcp=hcp, vulnerable=())
    assert error.value.field == "hcp"


def test_a_played_deal_may_carry_the_declaring_sides_points_a_passed_out_one_none():
    assert make_result(contract="4S", declarer="N", tricks=10, hcp=26).hcp == 26
    assert make_result(contract="4S", declarer="N", tricks=10).hcp is None
    with pytest.raises(InvalidInput) as passed:
        make_result(passed_out=True, hcp=20)
    assert passed.value.field == "passed_out"
    with pytest.raises(InvalidInput) as wrong:
        Played("4S", "N", 10, hcp=41)
    assert wrong.value.field == "hcp"


PAR = Rules(par=DEFAULT_PAR_TABLE)


def test_a_chicago_read_against_par_beside_its_sheet():
    # North deals: deal 2 (East deals) has East-West vulnerable, deal 3 North-South.
    results = [
        Played("2D", "E", 8, hcp=15),  # deal 1, nobody: NS 25 expected 300, -90: NS -9
        PassedOut(),
        Played("4S", "N", 10, hcp=26),  # deal 2, EW vulnerable: +70, NS +2
        Played("3NT", "S", 8),  # deal 3 without its points: not read
        Played("2H", "E", 9, hcp=23),  # deal 4, both: +30, EW +1
    ]
    sheet = score_match("chicago", results, first_dealer="N", rules=PAR)
    par = read_par(sheet, PAR.par)
    assert par is not None and par.table is DEFAULT_PAR_TABLE
    assert [deal and deal.imps_of(NS) for deal in par.deals] == [-9, None, 2, None, -1]
    assert (par.imps(NS), par.imps(EW), par.missing) == (-8, 8, 1)
    # The sheet itself is the same as without par scoring.
    assert sheet == score_match("chicago", results, first_dealer="N")
    assert read_par(sheet, None) is None
    rubber = score_match("rubber", [Played("4S", "N", 10, hcp=26)], first_dealer="N", rules=PAR)
    assert read_par(rubber, PAR.par) is None


def test_with_par_scoring_a_new_chicago_deal_needs_its_points():
    with pytest.raises(InvalidInput) as error:
        check_next("chicago", [], Played("4S", "N", 10), first_dealer="N", rules=PAR)
    assert error.value.field == "hcp"
    sheet = check_next("chicago", [], Played("4S", "N", 10, hcp=22), first_dealer="N", rules=PAR)
    assert len(sheet.rows) == 1
    check_next("chicago", [], PassedOut(), first_dealer="N", rules=PAR)
    check_next("rubber", [], Played("4S", "N", 10), first_dealer="N", rules=PAR)
