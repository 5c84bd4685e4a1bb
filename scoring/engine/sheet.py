"""What a match produces: one row per deal and the sheet's totals (docs/rules.md)."""

from collections.abc import Callable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, TypeVar

from .contract import ScoreItem
from .notation import DealResult, Seat, Side


class Kind(StrEnum):
    """The kind of match: Chicago (four deals), a rubber, or a two-player rubber (Draw Bridge)."""

    CHICAGO = "chicago"
    RUBBER = "rubber"
    TWO_PLAYER = "two_player"

    @property
    def seats(self) -> int:
        """How many players sit at the table: two at Draw Bridge, else four."""
        return 2 if self is Kind.TWO_PLAYER else 4


class ChicagoVulnerability(StrEnum):
    """Who is vulnerable on Chicago deals 2 and 3: the dealer's side (the rules' default) or,
    as a club option, the other side."""

    DEALER = "dealer"
    NON_DEALER = "non_dealer"


class Winner(StrEnum):
    NS = "NS"
    EW = "EW"
    TIE = "tie"


@dataclass(frozen=True, slots=True)
class DealRow:
    """One deal on the score sheet.

    ``sequence`` is the 1-based position in the results (passed-out deals included);
    ``number`` is the counted Chicago deal 1 to 4 (None for a passed-out Chicago deal) and
    equals ``sequence`` in a rubber. ``vulnerable`` lists the vulnerable sides, NS first.
    ``ns``/``ew`` are the points each side scored on this deal (the sum of ``items``);
    ``partscore_*`` are the running below-the-line partscores after the deal (0 after a game);
    ``games_*`` count the games won so far in the match, this deal included.
    """

    sequence: int
    number: int | None
    dealer: Seat
    vulnerable: tuple[Side, ...]
    result: DealResult
    items: tuple[ScoreItem, ...]
    ns: int
    ew: int
    partscore_ns: int
    partscore_ew: int
    game_won_by: Side | None
    games_ns: int
    games_ew: int


@dataclass(frozen=True, slots=True)
class NextDeal:
    """What the table shows for the next deal."""

    number: int
    dealer: Seat
    vulnerable: tuple[Side, ...]


@dataclass(frozen=True, slots=True)
class Sheet:
    """A whole match as scored so far.

    Totals are ``above + below`` for each side: below the line the trick points, above it
    everything else, ``closing_items`` (the unfinished-rubber bonuses) included. ``winner`` is
    None while the match is not complete; ``next_deal`` is None once it is.
    """

    kind: Kind
    first_dealer: Seat
    rows: tuple[DealRow, ...]
    closing_items: tuple[ScoreItem, ...]
    total_ns: int
    total_ew: int
    above_ns: int
    above_ew: int
    below_ns: int
    below_ew: int
    games_ns: int
    games_ew: int
    complete: bool
    finished_early: bool
    winner: Winner | None
    next_deal: NextDeal | None

    def net(self, side: Side) -> int:
        """That side's total minus the other side's."""
        return side_net(self.total_ns, self.total_ew, side)

    def total(self, side: Side) -> int:
        return self.total_ns if side is Side.NS else self.total_ew


T = TypeVar("T")


def fast_constructor(cls: type[T]) -> Callable[..., T]:
    """A constructor for the frozen slots dataclass ``cls`` taking the same arguments as its
    ``__init__``, without defaults: it sets each field through its slot descriptor instead of
    the generated ``object.__setattr__`` calls. Kept because ``bench/engine.py`` shows that it
    pays more than the house's threshold for a shortcut on scoring a match (bench/README.md,
    Engine). Only for the engine's own classes, which have no ``__post_init__``.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    namespace |= {f"set_{name}": cls.__dict__[name].__set__ for name in names}
    body = "".join(f"    set_{name}(self, {name})\n" for name in names)
    source = f"def make({', '.join(names)}):\n    self = new(cls)\n{body}    return self\n"
    exec(source, namespace)
    make: Callable[..., T] = namespace["make"]
    make.__qualname__ = make.__name__ = f"new_{cls.__name__.lower()}"
    return make


new_row = fast_constructor(DealRow)
new_sheet = fast_constructor(Sheet)

VULNERABLE: dict[tuple[bool, bool], tuple[Side, ...]] = {
    (False, False): (),
    (True, False): (Side.NS,),
    (False, True): (Side.EW,),
    (True, True): (Side.NS, Side.EW),
}
"""The ``vulnerable`` tuple for (NS vulnerable, EW vulnerable)."""


def side_net(total_ns: int, total_ew: int, side: Side) -> int:
    """A side's result in a match: its total minus the other side's (a player's net points)."""
    return total_ns - total_ew if side is Side.NS else total_ew - total_ns


def winner_by_points(total_ns: int, total_ew: int) -> Winner:
    """More points wins; equal totals are a tie."""
    if total_ns > total_ew:
        return Winner.NS
    if total_ew > total_ns:
        return Winner.EW
    return Winner.TIE
