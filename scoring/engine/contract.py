"""The score of one contract (docs/rules.md, "One contract": the scoring table of the Laws).

The rule functions below are the only place the table's numbers are written. At import they
fill lookup tables with every possible result (7 levels x 5 strains x 3 doublings x 14 trick
counts x 2 vulnerabilities), so scoring a contract is a list index. Honours are never scored.
"""

from dataclasses import dataclass, field
from enum import StrEnum

from .errors import InvalidInput, gettext_noop
from .notation import Contract, Doubling, Side, Strain, check_tricks, parse_contract


class ItemKind(StrEnum):
    """What a line of the score sheet is for."""

    TRICK_POINTS = "trick_points"
    OVERTRICKS = "overtricks"
    INSULT = "insult"
    SMALL_SLAM = "small_slam"
    GRAND_SLAM = "grand_slam"
    UNDERTRICKS = "undertricks"
    GAME_BONUS = "game_bonus"
    PARTSCORE_BONUS = "partscore_bonus"
    RUBBER_BONUS = "rubber_bonus"
    UNFINISHED_GAME = "unfinished_game"
    UNFINISHED_PARTSCORE = "unfinished_partscore"


class Party(StrEnum):
    """Who an item of one contract's score goes to, before the seats are known."""

    DECLARER = "declarer"
    DEFENDERS = "defenders"


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """A named line of a score sheet for one side. Only trick points are below the line."""

    kind: ItemKind
    side: Side
    points: int
    below_line: bool = False


@dataclass(frozen=True, slots=True)
class ContractItem:
    """A named part of one contract's score, for the declaring side or the defenders."""

    kind: ItemKind
    party: Party
    points: int
    below_line: bool = False

    def for_side(self, declarer: Side) -> ScoreItem:
        """This item as a sheet line, given the declaring side."""
        side = declarer if self.party is Party.DECLARER else declarer.other
        return ScoreItem(self.kind, side, self.points, self.below_line)


@dataclass(frozen=True, slots=True)
class ContractScore:
    """One contract's score: ``below`` (trick points, declarer's, towards game) and the
    ``above``-the-line items; ``items`` lists the trick points first, then the rest."""

    below: int
    above: tuple[ContractItem, ...]
    items: tuple[ContractItem, ...] = field(init=False)
    declarer_points: int = field(init=False)
    defender_points: int = field(init=False)

    def __post_init__(self) -> None:
        trick = (ContractItem(ItemKind.TRICK_POINTS, Party.DECLARER, self.below, True),)
        object.__setattr__(self, "items", (trick if self.below else ()) + self.above)
        totals = {Party.DECLARER: 0, Party.DEFENDERS: 0}
        for item in self.items:
            totals[item.party] += item.points
        object.__setattr__(self, "declarer_points", totals[Party.DECLARER])
        object.__setattr__(self, "defender_points", totals[Party.DEFENDERS])

    @property
    def made(self) -> bool:
        return self.below > 0

    def for_side(self, declarer: Side) -> tuple[ScoreItem, ...]:
        """The items as sheet lines, given the declaring side."""
        return tuple(item.for_side(declarer) for item in self.items)


# --- The rules (docs/rules.md, "One contract") ------------------------------------------

_MULTIPLIER = {Doubling.NONE: 1, Doubling.DOUBLED: 2, Doubling.REDOUBLED: 4}


def trick_value(strain: Strain) -> int:
    """Each trick bid and made: 20 in clubs and diamonds, 30 in the majors and after the first
    trick in no trump (the first NT trick is 40)."""
    return 20 if strain is Strain.C or strain is Strain.D else 30


def trick_points(contract: Contract) -> int:
    """Below the line, for the tricks bid: doubled x2, redoubled x4."""
    points = trick_value(contract.strain) * contract.level
    if contract.strain is Strain.NT:
        points += 10
    return points * _MULTIPLIER[contract.doubling]


def overtrick_points(contract: Contract, *, vulnerable: bool, overtricks: int) -> int:
    """Above the line: undoubled the trick value each; doubled 100 (200 vulnerable) each;
    redoubled 200 (400 vulnerable) each."""
    if contract.doubling is Doubling.NONE:
        each = trick_value(contract.strain)
    elif contract.doubling is Doubling.DOUBLED:
        each = 200 if vulnerable else 100
    else:
        each = 400 if vulnerable else 200
    return each * overtricks


def insult_points(contract: Contract) -> int:
    """Making a doubled contract 50, a redoubled one 100, vulnerable or not."""
    return {Doubling.NONE: 0, Doubling.DOUBLED: 50, Doubling.REDOUBLED: 100}[contract.doubling]


def slam_bonus(contract: Contract, *, vulnerable: bool) -> int:
    """Small slam (6 bid and made) 500 / 750 vulnerable; grand slam (7) 1000 / 1500."""
    if contract.level == 6:
        return 750 if vulnerable else 500
    if contract.level == 7:
        return 1500 if vulnerable else 1000
    return 0


def undertrick_points(contract: Contract, *, vulnerable: bool, undertricks: int) -> int:
    """To the defenders. Undoubled 50 (100 vulnerable) each. Doubled, not vulnerable: 100 for
    the first, 200 for the 2nd and 3rd, 300 for each after; vulnerable: 200 for the first,
    300 for each after. Redoubled: twice the doubled figure."""
    if contract.doubling is Doubling.NONE:
        return (100 if vulnerable else 50) * undertricks
    total = 0
    for n in range(1, undertricks + 1):
        if vulnerable:
            total += 200 if n == 1 else 300
        else:
            total += 100 if n == 1 else 200 if n <= 3 else 300
    return total * (2 if contract.doubling is Doubling.REDOUBLED else 1)


def rule_score(contract: Contract, *, vulnerable: bool, tricks: int) -> ContractScore:
    """One contract's score straight from the rule functions (the tables are built from it)."""
    over = tricks - contract.tricks_needed
    if over < 0:
        points = undertrick_points(contract, vulnerable=vulnerable, undertricks=-over)
        return ContractScore(0, (ContractItem(ItemKind.UNDERTRICKS, Party.DEFENDERS, points),))
    above: list[ContractItem] = []
    if over:
        points = overtrick_points(contract, vulnerable=vulnerable, overtricks=over)
        above.append(ContractItem(ItemKind.OVERTRICKS, Party.DECLARER, points))
    if contract.doubling is not Doubling.NONE:
        above.append(ContractItem(ItemKind.INSULT, Party.DECLARER, insult_points(contract)))
    if contract.level >= 6:
        kind = ItemKind.SMALL_SLAM if contract.level == 6 else ItemKind.GRAND_SLAM
        points = slam_bonus(contract, vulnerable=vulnerable)
        above.append(ContractItem(kind, Party.DECLARER, points))
    return ContractScore(trick_points(contract), tuple(above))


# --- Lookup tables -------------------------------------------------------------------------

ALL_CONTRACTS: tuple[Contract, ...] = tuple(
    Contract(level, strain, doubling)
    for level in range(1, 8)
    for strain in Strain
    for doubling in Doubling
)
assert [c._index for c in ALL_CONTRACTS] == list(range(len(ALL_CONTRACTS)))


def score_index(contract: Contract, tricks: int, vulnerable: bool) -> int:
    """Where a result is in ``_SCORES``; times 2, plus 1 if EW declared, in ``SIDE_SCORES``."""
    return (contract._index * 14 + tricks) * 2 + vulnerable


_SCORES: list[ContractScore] = [
    rule_score(contract, vulnerable=vulnerable, tricks=tricks)
    for contract in ALL_CONTRACTS
    for tricks in range(14)
    for vulnerable in (False, True)
]

# A deal row's view of the same score for a declaring side: (sheet items, trick points,
# declarer's points, defenders' points), at ``score_index(...) * 2 + (1 if EW declared)``.
SideScore = tuple[tuple[ScoreItem, ...], int, int, int]
SIDE_SCORES: list[SideScore] = [
    (score.for_side(side), score.below, score.declarer_points, score.defender_points)
    for score in _SCORES
    for side in (Side.NS, Side.EW)
]


def score_contract(contract: Contract | str, *, vulnerable: bool, tricks: int) -> ContractScore:
    """The score of ``contract`` when declarer's side, ``vulnerable`` or not, took ``tricks``.

    >>> score_contract(parse_contract("1NTXX"), vulnerable=True, tricks=8).declarer_points
    660
    """
    if type(contract) is not Contract:
        contract = parse_contract(contract)
    if type(tricks) is not int or not 0 <= tricks <= 13:
        check_tricks(tricks)
    if type(vulnerable) is not bool:
        raise InvalidInput(
            "vulnerable",
            gettext_noop("vulnerable must be True or False, got %(value)s"),
            value=repr(vulnerable),
        )
    return _SCORES[score_index(contract, tricks, vulnerable)]
