"""Par scoring: a deal read against what its cards were worth (docs/rules.md, "Par scoring").

A second reading of a Chicago's deals, beside the score sheet, never instead of it. The
declaring side's high-card points (HCP, 0 to 40) give the stronger side (over 20) an expected
score ``E`` from a ``ParTable``, by its HCP and its vulnerability on the deal; the deal scored
alone at duplicate gives that side's actual score ``A``; the difference ``A - E`` becomes IMPs
on the international scale, won by the stronger side and lost by the other. At 20 HCP each,
the declaring side's score is compared with the table's 20 (0 by default). A passed-out deal
has no par reading.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from .contract import score_contract
from .errors import InvalidInput, gettext_noop
from .notation import HCP_TOTAL, Played, Side, check_hcp
from .sheet import Kind, Sheet

LOWEST = 20
"""The table's rows: the stronger side's HCP from 20 (the even split) to 40."""
ROWS = HCP_TOTAL - LOWEST + 1
PAR_HCP = range(LOWEST, HCP_TOTAL + 1)
"""The HCP a table gives a figure for, in its order."""

# The international IMP scale: the highest difference of each step (0-10 is 0 IMPs, 20-40 is
# 1, ..., 3500-3990 is 23, 4000 and more 24). A difference between two steps (15, of a table
# with figures not in tens) counts as the higher step, so every difference finds one.
IMP_STEPS = (
    10, 40, 80, 120, 160, 210, 260, 310, 360, 420, 490, 590,
    740, 890, 1090, 1290, 1490, 1740, 1990, 2240, 2490, 2990, 3490, 3990,
)  # fmt: skip


def imps(difference: int) -> int:
    """The IMPs for a score ``difference``, with its sign: ``imps(70) == 2``, ``imps(-790) ==
    -13``."""
    size = abs(difference)
    won = sum(1 for step in IMP_STEPS if size > step)
    return won if difference >= 0 else -won


def _column(values: Sequence[object], field: str) -> tuple[int, ...]:
    column = tuple(value for value in values if type(value) is int and value >= 0)
    if len(column) != ROWS or len(values) != ROWS:
        raise InvalidInput(
            field,
            gettext_noop(
                "the par table gives a whole number of points, 0 or more, for each of the "
                "21 HCP from 20 to 40"
            ),
        )
    for hcp, (lower, higher) in enumerate(pairwise(column), start=LOWEST + 1):
        if higher < lower:
            raise InvalidInput(
                field,
                gettext_noop(
                    "the par table may not expect less with more cards: %(hcp)s HCP expects "
                    "less than %(fewer)s"
                ),
                hcp=hcp,
                fewer=hcp - 1,
            )
    return column


@dataclass(frozen=True, slots=True, init=False)
class ParTable:
    """The score a side is expected to make with 20 to 40 HCP, not vulnerable and vulnerable
    (one figure per HCP, never decreasing with HCP). A bad table raises ``InvalidInput`` on
    ``not_vulnerable`` or ``vulnerable``."""

    not_vulnerable: tuple[int, ...]
    vulnerable: tuple[int, ...]

    def __init__(self, *, not_vulnerable: Sequence[int], vulnerable: Sequence[int]) -> None:
        object.__setattr__(self, "not_vulnerable", _column(not_vulnerable, "not_vulnerable"))
        object.__setattr__(self, "vulnerable", _column(vulnerable, "vulnerable"))

    def expected(self, hcp: int, *, vulnerable: bool) -> int:
        """``E`` for a side of ``hcp`` (20 to 40)."""
        column = self.vulnerable if vulnerable else self.not_vulnerable
        return column[hcp - LOWEST]


DEFAULT_PAR_TABLE = ParTable(
    # As Polish clubs score Chicago (docs/rules.md cites its source); HCP 20 to 40.
    not_vulnerable=(
        0, 50, 70, 110, 200, 300, 350, 400, 430, 460, 490,
        600, 700, 900, 1000, 1100, 1200, 1300, 1300, 1300, 1300,
    ),
    vulnerable=(
        0, 50, 70, 110, 290, 440, 520, 600, 630, 660, 690,
        900, 1050, 1350, 1500, 1650, 1800, 1950, 1950, 1950, 1950,
    ),
)  # fmt: skip


def duplicate_score(result: Played, *, vulnerable: bool) -> int:
    """The declaring side's score of the deal alone, as at duplicate: a made contract's
    trick points, overtricks, insult and slam bonus plus 300 (500 vulnerable) for a game or 50
    for a partscore; a defeated one the undertricks, negative."""
    score = score_contract(result.contract, vulnerable=vulnerable, tricks=result.tricks)
    if not score.made:
        return -score.defender_points
    bonus = (500 if vulnerable else 300) if score.below >= 100 else 50
    return score.declarer_points + bonus


@dataclass(frozen=True, slots=True)
class ParDeal:
    """One deal's par reading, from the view of ``side``: the stronger side (the declaring
    side at 20 HCP each), which holds ``hcp``. ``expected`` is ``E``, ``actual`` is ``A``,
    ``imps`` the IMPs of ``side`` (the other side has as many, negative)."""

    side: Side
    hcp: int
    vulnerable: bool
    expected: int
    actual: int
    imps: int

    @property
    def difference(self) -> int:
        return self.actual - self.expected

    def imps_of(self, side: Side) -> int:
        return self.imps if side is self.side else -self.imps


def par_deal(
    result: Played,
    *,
    hcp: int,
    vulnerable: Sequence[Side],
    table: ParTable = DEFAULT_PAR_TABLE,
) -> ParDeal:
    """The par reading of a played deal whose declaring side held ``hcp`` high-card points,
    with ``vulnerable`` the sides vulnerable on it (a ``DealRow``'s)."""
    check_hcp(hcp)
    declaring = result.declarer.side
    side, held = (declaring, hcp) if hcp >= LOWEST else (declaring.other, HCP_TOTAL - hcp)
    declared = duplicate_score(result, vulnerable=declaring in vulnerable)
    actual = declared if side is declaring else -declared
    side_vulnerable = side in vulnerable
    expected = table.expected(held, vulnerable=side_vulnerable)
    return ParDeal(side, held, side_vulnerable, expected, actual, imps(actual - expected))


@dataclass(frozen=True, slots=True)
class ParSheet:
    """A Chicago's par reading under ``table``: ``deals`` has one entry per row of the sheet,
    None for a passed-out deal or one entered without high-card points (``missing`` counts
    those); ``imps_ns`` and ``imps_ew`` are each side's IMPs over the match."""

    table: ParTable
    deals: tuple[ParDeal | None, ...]
    imps_ns: int
    imps_ew: int
    missing: int

    def imps(self, side: Side) -> int:
        return self.imps_ns if side is Side.NS else self.imps_ew

    @property
    def standard_table(self) -> bool:
        """Whether the deals were read with the standard table (``DEFAULT_PAR_TABLE``), not a
        club's own."""
        return self.table == DEFAULT_PAR_TABLE


def row_readings(sheet: Sheet, par: ParSheet | None) -> tuple[ParDeal | None, ...]:
    """Each row of ``sheet`` with its par reading: ``par``'s (``read_par`` of that sheet), or
    None for every row when the sheet was not read."""
    return par.deals if par is not None else (None,) * len(sheet.rows)


def read_par(sheet: Sheet, table: ParTable | None) -> ParSheet | None:
    """The par reading of a Chicago's sheet under ``table`` (a club's ``Rules.par``); None
    without a table or for a rubber, which par scoring does not read."""
    if table is None or sheet.kind is not Kind.CHICAGO:
        return None
    deals: list[ParDeal | None] = []
    missing = 0
    for row in sheet.rows:
        result = row.result
        if not isinstance(result, Played):
            deals.append(None)
        elif result.hcp is None:
            deals.append(None)
            missing += 1
        else:
            deals.append(par_deal(result, hcp=result.hcp, vulnerable=row.vulnerable, table=table))
    ns = sum(deal.imps_of(Side.NS) for deal in deals if deal is not None)
    return ParSheet(table, tuple(deals), ns, -ns, missing)
