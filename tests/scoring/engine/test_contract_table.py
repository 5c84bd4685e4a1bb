"""Published scores for one contract (docs/rules.md, "One contract"), worked out by hand from
the table.

Every row of the table is covered in both vulnerabilities and all three doubling states.
Columns: contract, vulnerable, tricks taken, then the expected trick points (below the line),
overtricks, insult, slam bonus (small for level 6, grand for level 7) and undertricks.
"""

import pytest

from scoring.engine import (
    ContractScore,
    InvalidInput,
    ItemKind,
    Party,
    Side,
    parse_contract,
    score_contract,
)

NV, V = False, True

CASES = [
    # made, undoubled: trick points 20 (minors), 30 (majors), 40 + 30 (NT); overtricks at value
    ("1C", NV, 7, 20, 0, 0, 0, 0),
    ("1D", V, 7, 20, 0, 0, 0, 0),
    ("2C", NV, 10, 40, 40, 0, 0, 0),
    ("3D", V, 9, 60, 0, 0, 0, 0),
    ("5D", V, 12, 100, 20, 0, 0, 0),
    ("1H", NV, 7, 30, 0, 0, 0, 0),
    ("2S", V, 9, 60, 30, 0, 0, 0),
    ("4S", NV, 10, 120, 0, 0, 0, 0),  # docs/rules.md check
    ("4H", V, 11, 120, 30, 0, 0, 0),
    ("1NT", NV, 7, 40, 0, 0, 0, 0),
    ("1NT", V, 9, 40, 60, 0, 0, 0),
    ("2NT", NV, 8, 70, 0, 0, 0, 0),
    ("3NT", NV, 9, 100, 0, 0, 0, 0),
    ("3NT", V, 13, 100, 120, 0, 0, 0),
    ("6C", NV, 12, 120, 0, 0, 500, 0),
    ("6S", V, 13, 180, 30, 0, 750, 0),
    ("6NT", NV, 12, 190, 0, 0, 500, 0),
    ("7NT", V, 13, 220, 0, 0, 1500, 0),
    ("7C", NV, 13, 140, 0, 0, 1000, 0),
    ("7H", V, 13, 210, 0, 0, 1500, 0),
    # made, doubled: trick points x2, overtricks 100 / 200, insult 50
    ("1CX", NV, 7, 40, 0, 50, 0, 0),
    ("2DX", V, 9, 80, 200, 50, 0, 0),
    ("1HX", NV, 8, 60, 100, 50, 0, 0),
    ("2SX", V, 8, 120, 0, 50, 0, 0),
    ("1NTX", NV, 7, 80, 0, 50, 0, 0),
    ("1NTX", V, 9, 80, 400, 50, 0, 0),
    ("3NTX", NV, 12, 200, 300, 50, 0, 0),
    ("4SX", V, 10, 240, 0, 50, 0, 0),
    ("6HX", NV, 12, 360, 0, 50, 500, 0),
    ("6DX", V, 13, 240, 200, 50, 750, 0),
    ("7SX", NV, 13, 420, 0, 50, 1000, 0),
    ("7NTX", V, 13, 440, 0, 50, 1500, 0),
    # made, redoubled: trick points x4, overtricks 200 / 400, insult 100
    ("1CXX", NV, 7, 80, 0, 100, 0, 0),
    ("1DXX", V, 8, 80, 400, 100, 0, 0),
    ("2HXX", NV, 10, 240, 400, 100, 0, 0),
    ("1SXX", V, 7, 120, 0, 100, 0, 0),
    ("1NTXX", V, 8, 160, 400, 100, 0, 0),  # docs/rules.md check
    ("1NTXX", NV, 10, 160, 600, 100, 0, 0),
    ("2NTXX", V, 8, 280, 0, 100, 0, 0),
    ("6NTXX", NV, 12, 760, 0, 100, 500, 0),
    ("6CXX", V, 13, 480, 400, 100, 750, 0),
    ("7DXX", NV, 13, 560, 0, 100, 1000, 0),
    ("7HXX", V, 13, 840, 0, 100, 1500, 0),
    # defeated, undoubled: 50 / 100 each
    ("1C", NV, 6, 0, 0, 0, 0, 50),
    ("4S", NV, 7, 0, 0, 0, 0, 150),
    ("3NT", NV, 5, 0, 0, 0, 0, 200),
    ("7NT", NV, 0, 0, 0, 0, 0, 650),
    ("2H", V, 7, 0, 0, 0, 0, 100),
    ("4H", V, 7, 0, 0, 0, 0, 300),
    ("5D", V, 6, 0, 0, 0, 0, 500),
    ("7S", V, 0, 0, 0, 0, 0, 1300),
    # defeated, doubled, not vulnerable: 100, then 200 for the 2nd and 3rd, 300 each after
    ("1NTX", NV, 6, 0, 0, 0, 0, 100),
    ("2SX", NV, 6, 0, 0, 0, 0, 300),
    ("3DX", NV, 6, 0, 0, 0, 0, 500),
    ("3NTX", NV, 5, 0, 0, 0, 0, 800),  # docs/rules.md check
    ("4HX", NV, 5, 0, 0, 0, 0, 1100),
    ("7NTX", NV, 0, 0, 0, 0, 0, 3500),
    # defeated, doubled, vulnerable: 200, then 300 each
    ("2CX", V, 7, 0, 0, 0, 0, 200),
    ("4SX", V, 8, 0, 0, 0, 0, 500),
    ("4HX", V, 7, 0, 0, 0, 0, 800),
    ("5CX", V, 7, 0, 0, 0, 0, 1100),
    ("6SX", V, 7, 0, 0, 0, 0, 1400),
    ("7NTX", V, 0, 0, 0, 0, 0, 3800),
    # defeated, redoubled, not vulnerable: twice the doubled figure (200, 400, 400, 600, ...)
    ("1HXX", NV, 6, 0, 0, 0, 0, 200),
    ("3SXX", NV, 7, 0, 0, 0, 0, 600),
    ("4CXX", NV, 7, 0, 0, 0, 0, 1000),
    ("5NTXX", NV, 7, 0, 0, 0, 0, 1600),
    ("7CXX", NV, 0, 0, 0, 0, 0, 7000),
    # defeated, redoubled, vulnerable: 400, then 600 each
    ("1DXX", V, 6, 0, 0, 0, 0, 400),
    ("2NTXX", V, 6, 0, 0, 0, 0, 1000),
    ("4SXX", V, 7, 0, 0, 0, 0, 1600),
    ("6HXX", V, 8, 0, 0, 0, 0, 2200),
    ("7NTXX", V, 0, 0, 0, 0, 0, 7600),  # docs/rules.md check
]


def _ids(case: tuple[object, ...]) -> str:
    text, vul, tricks = case[:3]
    return f"{text}-{'vul' if vul else 'nv'}-{tricks}"


def test_enough_published_cases() -> None:
    assert len(CASES) >= 60
    assert len({case[:3] for case in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_published_score(case: tuple[str, bool, int, int, int, int, int, int]) -> None:
    text, vulnerable, tricks, below, over, insult, slam, under = case
    contract = parse_contract(text)
    score = score_contract(contract, vulnerable=vulnerable, tricks=tricks)

    assert score.below == below
    by_kind = {item.kind: item for item in score.items}
    slam_kind = ItemKind.GRAND_SLAM if contract.level == 7 else ItemKind.SMALL_SLAM
    expected = {
        ItemKind.TRICK_POINTS: below,
        ItemKind.OVERTRICKS: over,
        ItemKind.INSULT: insult,
        slam_kind: slam,
        ItemKind.UNDERTRICKS: under,
    }
    assert {kind: item.points for kind, item in by_kind.items()} == {
        kind: points for kind, points in expected.items() if points
    }
    assert len(by_kind) == len(score.items)  # each kind at most once
    assert score.declarer_points == below + over + insult + slam
    assert score.defender_points == under
    for item in score.items:
        assert item.below_line == (item.kind is ItemKind.TRICK_POINTS)
        defenders = item.kind is ItemKind.UNDERTRICKS
        assert item.party is (Party.DEFENDERS if defenders else Party.DECLARER)


def test_items_in_sheet_order() -> None:
    score = score_contract(parse_contract("6CXX"), vulnerable=True, tricks=13)
    assert [item.kind for item in score.items] == [
        ItemKind.TRICK_POINTS,
        ItemKind.OVERTRICKS,
        ItemKind.INSULT,
        ItemKind.SMALL_SLAM,
    ]
    assert score.above == score.items[1:]


def test_items_become_sheet_lines_for_a_side() -> None:
    made = score_contract(parse_contract("4S"), vulnerable=False, tricks=11)
    assert [(i.kind, i.side, i.points, i.below_line) for i in made.for_side(Side.EW)] == [
        (ItemKind.TRICK_POINTS, Side.EW, 120, True),
        (ItemKind.OVERTRICKS, Side.EW, 30, False),
    ]
    down = score_contract(parse_contract("4S"), vulnerable=False, tricks=9)
    assert [(i.kind, i.side, i.points) for i in down.for_side(Side.EW)] == [
        (ItemKind.UNDERTRICKS, Side.NS, 50),
    ]


def test_contract_score_is_built_from_below_and_above() -> None:
    score = ContractScore(60, ())
    assert score.declarer_points == 60
    assert score.defender_points == 0
    assert score.made


def test_score_contract_accepts_text_and_checks_inputs() -> None:
    assert score_contract("3NT", vulnerable=False, tricks=9).below == 100
    with pytest.raises(InvalidInput) as error:
        score_contract("3NT", vulnerable=False, tricks=14)
    assert (error.value.field, str(error.value)) == ("tricks", "tricks must be 0 to 13, got 14")
    with pytest.raises(InvalidInput) as error:
        score_contract("3NT", vulnerable=False, tricks=-1)
    assert error.value.field == "tricks"
    with pytest.raises(InvalidInput) as error:
        score_contract("3NT", vulnerable="yes", tricks=9)  # type: ignore[arg-type]
    assert error.value.field == "vulnerable"
