"""Seats, sides, contracts and deal results, and the notation they are written in.

A contract is a level 1 to 7, a strain (C, D, H, S or NT) and a doubling (none, X or XX);
declarer needs ``level + 6`` tricks of 13 (docs/rules.md, "One contract"). A deal where all
players pass is a ``PassedOut`` result; any other deal is ``Played``.
"""

import re
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import InvalidInput, gettext_noop


class Side(StrEnum):
    """A partnership: North-South or East-West (at a table of two, N alone or E alone)."""

    NS = "NS"
    EW = "EW"

    @property
    def other(self) -> "Side":
        return Side.EW if self is Side.NS else Side.NS


class Seat(StrEnum):
    """A seat at the table. Deals pass clockwise N, E, S, W; a table of two has only N and E."""

    N = "N"
    E = "E"
    S = "S"
    W = "W"

    @property
    def side(self) -> Side:
        return Side.NS if self is Seat.N or self is Seat.S else Side.EW

    def next(self, players: int = 4) -> "Seat":
        """The seat that deals after this one: clockwise with four players, N and E in turn
        with two (docs/rules.md, "Draw Bridge")."""
        if players == 4:
            return _CLOCKWISE[self]
        if players == 2:
            if self is Seat.N:
                return Seat.E
            if self is Seat.E:
                return Seat.N
            raise InvalidInput(
                "first_dealer",
                gettext_noop("a table of two has only seats N and E, got %(seat)s"),
                seat=self.value,
            )
        raise InvalidInput(
            "kind", gettext_noop("players must be 4 or 2, got %(value)s"), value=repr(players)
        )


_CLOCKWISE = {Seat.N: Seat.E, Seat.E: Seat.S, Seat.S: Seat.W, Seat.W: Seat.N}


class Strain(StrEnum):
    """The denomination of a contract: a trump suit or no trump."""

    C = "C"
    D = "D"
    H = "H"
    S = "S"
    NT = "NT"


class Doubling(StrEnum):
    """Undoubled, doubled (X) or redoubled (XX)."""

    NONE = ""
    DOUBLED = "X"
    REDOUBLED = "XX"


_STRAINS: dict[str, Strain] = {
    "C": Strain.C,
    "♣": Strain.C,
    "♧": Strain.C,
    "D": Strain.D,
    "♦": Strain.D,
    "♢": Strain.D,
    "H": Strain.H,
    "♥": Strain.H,
    "♡": Strain.H,
    "S": Strain.S,
    "♠": Strain.S,
    "♤": Strain.S,
    "N": Strain.NT,
    "NT": Strain.NT,
}
_DOUBLINGS: dict[str, Doubling] = {
    "": Doubling.NONE,
    "X": Doubling.DOUBLED,
    "XX": Doubling.REDOUBLED,
}
_SEATS: dict[str, Seat] = {
    "N": Seat.N,
    "E": Seat.E,
    "S": Seat.S,
    "W": Seat.W,
    "NORTH": Seat.N,
    "EAST": Seat.E,
    "SOUTH": Seat.S,
    "WEST": Seat.W,
}


def _normalise(text: str) -> str:
    """Upper case, without spaces or the emoji variation selector phones add after a suit."""
    return "".join(text.split()).replace("\ufe0f", "").upper()


def parse_strain(text: str | Strain) -> Strain:
    """C, D, H, S, NT (or N, or a suit symbol), any case, spaces ignored."""
    if isinstance(text, Strain):
        return text
    if isinstance(text, str):
        strain = _STRAINS.get(_normalise(text))
        if strain is not None:
            return strain
    if text == "":
        raise InvalidInput(
            "strain", gettext_noop("strain must be one of C, D, H, S, NT, got nothing")
        )
    raise InvalidInput(
        "strain",
        gettext_noop("strain must be one of C, D, H, S, NT, got %(value)s"),
        value=repr(text),
    )


def parse_doubling(text: str | Doubling) -> Doubling:
    """Nothing, X (doubled) or XX (redoubled), any case."""
    if isinstance(text, Doubling):
        return text
    if isinstance(text, str):
        doubling = _DOUBLINGS.get(_normalise(text))
        if doubling is not None:
            return doubling
    raise InvalidInput("doubling", _DOUBLING_ERROR, value=repr(text))


_SEAT_ERRORS = {
    "declarer": gettext_noop("declarer must be one of N, E, S, W, got %(value)s"),
    "first_dealer": gettext_noop("first_dealer must be one of N, E, S, W, got %(value)s"),
}
_SEAT_ERROR = gettext_noop("%(field)s must be one of N, E, S, W, got %(value)s")


def parse_seat(text: str | Seat, *, field: str = "declarer") -> Seat:
    """N, E, S or W (or North, East, South, West), any case. ``field`` names the input in the
    error ("declarer" or "first_dealer")."""
    if isinstance(text, Seat):
        return text
    if isinstance(text, str):
        seat = _SEATS.get(_normalise(text))
        if seat is not None:
            return seat
    template = _SEAT_ERRORS.get(field, _SEAT_ERROR)
    raise InvalidInput(field, template, field=field, value=repr(text))


_LEVEL_ERROR = gettext_noop("level must be 1 to 7, got %(value)s")
_DOUBLING_ERROR = gettext_noop("doubling must be X, XX or nothing, got %(value)s")


def check_level(level: object) -> int:
    if type(level) is not int or not 1 <= level <= 7:
        raise InvalidInput("level", _LEVEL_ERROR, value=repr(level))
    return level


def check_tricks(tricks: object) -> int:
    """Tricks taken by declarer: 0 to 13."""
    if type(tricks) is not int or not 0 <= tricks <= 13:
        raise InvalidInput(
            "tricks", gettext_noop("tricks must be 0 to 13, got %(value)s"), value=repr(tricks)
        )
    return tricks


HCP_TOTAL = 40
"""High-card points in the pack: ace 4, king 3, queen 2, jack 1 in each suit."""


def check_hcp(hcp: object, *, field: str = "hcp") -> int:
    """``hcp`` when it is a whole number 0 to 40, else ``InvalidInput`` on ``field``."""
    if type(hcp) is not int or not 0 <= hcp <= HCP_TOTAL:
        raise InvalidInput(
            field,
            gettext_noop("high-card points must be 0 to 40, got %(value)s"),
            value=repr(hcp),
        )
    return hcp


_STRAIN_ORDER = (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT)
_DOUBLING_ORDER = (Doubling.NONE, Doubling.DOUBLED, Doubling.REDOUBLED)


@dataclass(frozen=True, slots=True)
class Contract:
    """A final contract, e.g. ``Contract(4, Strain.S, Doubling.DOUBLED)``; ``str()`` gives the
    canonical text "4SX". Strain and doubling may be given as text; anything invalid raises
    ``InvalidInput``."""

    level: int
    strain: Strain
    doubling: Doubling = Doubling.NONE
    # Position in the engine's precomputed tables (0 to 104).
    _index: int = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        check_level(self.level)
        strain = parse_strain(self.strain)
        doubling = parse_doubling(self.doubling)
        object.__setattr__(self, "strain", strain)
        object.__setattr__(self, "doubling", doubling)
        index = ((self.level - 1) * 5 + _STRAIN_ORDER.index(strain)) * 3
        object.__setattr__(self, "_index", index + _DOUBLING_ORDER.index(doubling))

    def __str__(self) -> str:
        return f"{self.level}{self.strain.value}{self.doubling.value}"

    @property
    def tricks_needed(self) -> int:
        """Declarer's side needs six tricks (the book) plus the level."""
        return self.level + 6


_CONTRACT = re.compile(r"([0-9]+)(.*?)(X*)", re.ASCII)


def parse_contract(text: str | Contract) -> Contract:
    """Read a contract such as "4SX", "3 nt xx", "1♥" or "7n".

    A level 1 to 7, a strain (C, D, H, S, NT; also N or a suit symbol), then X for doubled or
    XX for redoubled; any case, spaces ignored.
    """
    if isinstance(text, Contract):
        return text
    if not isinstance(text, str):
        raise InvalidInput(
            "contract",
            gettext_noop("contract must be text like '4S' or '3NTX', got %(value)s"),
            value=repr(text),
        )
    normal = _normalise(text)
    if not normal:
        raise InvalidInput(
            "contract",
            gettext_noop(
                "contract is empty: write a level 1 to 7, a strain (C, D, H, S, NT) and X or XX "
                "if doubled, like '4S' or '3NTX'"
            ),
        )
    match = _CONTRACT.fullmatch(normal)
    if match is None:
        raise InvalidInput(
            "contract",
            gettext_noop(
                "contract must start with a level 1 to 7, like '4S' or '3NTX', got %(value)s"
            ),
            value=repr(text),
        )
    digits, strain, doubling = match.groups()
    level = int(digits)
    if not 1 <= level <= 7:
        raise InvalidInput("level", _LEVEL_ERROR, value=repr(level))
    if len(doubling) > 2:
        raise InvalidInput("doubling", _DOUBLING_ERROR, value=repr(doubling))
    return Contract(level, parse_strain(strain), _DOUBLINGS[doubling])


@dataclass(frozen=True, slots=True)
class Played:
    """A deal played in ``contract`` by ``declarer``, whose side took ``tricks`` (0 to 13);
    ``hcp``, when entered, the declaring side's high-card points (0 to 40, for par scoring).
    The contract and declarer may be given as text."""

    contract: Contract
    declarer: Seat
    tricks: int
    hcp: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "contract", parse_contract(self.contract))
        object.__setattr__(self, "declarer", parse_seat(self.declarer))
        check_tricks(self.tricks)
        if self.hcp is not None:
            check_hcp(self.hcp)

    @property
    def overtricks(self) -> int:
        """Tricks over the contract; negative for undertricks (-2 is two down)."""
        return self.tricks - self.contract.level - 6

    @property
    def made(self) -> bool:
        return self.tricks >= self.contract.level + 6

    @property
    def result_text(self) -> str:
        """ "=" for made exactly, "+1" for one overtrick, "-2" for two down."""
        over = self.overtricks
        return "=" if over == 0 else f"{over:+d}"

    def __str__(self) -> str:
        return f"{self.contract} by {self.declarer} {self.result_text}"


@dataclass(frozen=True, slots=True)
class PassedOut:
    """A deal where every player passed: nobody scores."""

    def __str__(self) -> str:
        return "passed out"


DealResult = Played | PassedOut


def make_result(
    *,
    passed_out: bool = False,
    contract: str | Contract | None = None,
    declarer: str | Seat | None = None,
    tricks: int | None = None,
    hcp: int | None = None,
) -> DealResult:
    """Build a deal result from form-like input, raising ``InvalidInput`` naming the field.

    A passed-out deal has no contract, declarer, tricks or high-card points; a played deal
    needs the first three, and may give the declaring side's ``hcp``.
    """
    if type(passed_out) is not bool:
        raise InvalidInput(
            "passed_out",
            gettext_noop("passed_out must be True or False, got %(value)s"),
            value=repr(passed_out),
        )
    given = {"contract": contract, "declarer": declarer, "tricks": tricks}
    if passed_out:
        extra = [name for name, value in {**given, "hcp": hcp}.items() if value is not None]
        if extra:
            raise InvalidInput(
                "passed_out",
                gettext_noop(
                    "a passed-out deal has no contract, declarer, tricks or high-card points; got "
                    "%(fields)s"
                ),
                fields=", ".join(extra),
            )
        return PassedOut()
    for name, value in given.items():
        if value is None:
            raise InvalidInput(
                name,
                gettext_noop(
                    "a played deal needs a contract, a declarer and tricks; %(field)s is missing"
                ),
                field=name,
            )
    assert contract is not None and declarer is not None and tricks is not None
    return Played(
        parse_contract(contract),
        parse_seat(declarer),
        check_tricks(tricks),
        None if hcp is None else check_hcp(hcp),
    )


def not_a_result(value: object, sequence: int) -> InvalidInput:
    """The error for a results entry that is neither ``Played`` nor ``PassedOut``."""
    return InvalidInput(
        "contract",
        gettext_noop(
            "deal %(deal)s must be a played or passed-out result (see make_result), got %(type)s"
        ),
        deal=sequence,
        type=type(value).__name__,
    )
