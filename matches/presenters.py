"""How bridge reads on the pages: seats, sides, vulnerability, contracts, results, and the
layout of a score sheet (Chicago rows; a rubber's above and below the line).

Only presentation: every figure comes from the rules engine's ``Sheet`` (``matches.selectors.
match_sheet``). Every word a person reads is translated here, with the bridge terms of the
rules pages (see ``locale/``). The templates reach these through ``templatetags/bridge.py``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, SupportsFloat, SupportsInt

from django.template.defaultfilters import floatformat
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext, pgettext_lazy

from scoring.engine import (
    DEFAULT_PAR_TABLE,
    IMP_STEPS,
    PAR_HCP,
    Contract,
    DealResult,
    DealRow,
    ItemKind,
    NextDeal,
    ParDeal,
    ParSheet,
    PassedOut,
    Played,
    ScoreItem,
    Seat,
    Sheet,
    Side,
    Strain,
    chicago_schedule,
    par_deal,
)

if TYPE_CHECKING:
    from matches.models import Match

SEAT_NAMES = {
    "N": gettext_lazy("North"),
    "E": gettext_lazy("East"),
    "S": gettext_lazy("South"),
    "W": gettext_lazy("West"),
}
SEAT_LETTERS = {
    "N": pgettext_lazy("seat letter of North", "N"),
    "E": pgettext_lazy("seat letter of East", "E"),
    "S": pgettext_lazy("seat letter of South", "S"),
    "W": pgettext_lazy("seat letter of West", "W"),
}
SIDE_NAMES = {"NS": gettext_lazy("North-South"), "EW": gettext_lazy("East-West")}
SIDE_SHORT = {
    "NS": pgettext_lazy("short for North-South", "N-S"),
    "EW": pgettext_lazy("short for East-West", "E-W"),
}
SUITS = {
    "C": ("♣", "suit-c"),
    "D": ("♦", "suit-d"),
    "H": ("♥", "suit-h"),
    "S": ("♠", "suit-s"),
}
ITEM_LABELS = {
    ItemKind.TRICK_POINTS: gettext_lazy("trick points"),
    ItemKind.OVERTRICKS: gettext_lazy("overtricks"),
    ItemKind.INSULT: gettext_lazy("doubled contract made"),
    ItemKind.SMALL_SLAM: gettext_lazy("small slam"),
    ItemKind.GRAND_SLAM: gettext_lazy("grand slam"),
    ItemKind.UNDERTRICKS: gettext_lazy("undertricks"),
    ItemKind.GAME_BONUS: gettext_lazy("game bonus"),
    ItemKind.PARTSCORE_BONUS: gettext_lazy("partscore bonus"),
    ItemKind.RUBBER_BONUS: gettext_lazy("rubber bonus"),
    ItemKind.UNFINISHED_GAME: gettext_lazy("game in an unfinished rubber"),
    ItemKind.UNFINISHED_PARTSCORE: gettext_lazy("partscore in an unfinished rubber"),
}
# Bonuses a sheet marks beside the points (the rest are plain contract scores).
MARKED = {
    ItemKind.GAME_BONUS,
    ItemKind.PARTSCORE_BONUS,
    ItemKind.SMALL_SLAM,
    ItemKind.GRAND_SLAM,
    ItemKind.RUBBER_BONUS,
    ItemKind.UNFINISHED_GAME,
    ItemKind.UNFINISHED_PARTSCORE,
}


def _text(value: object) -> str:
    return str(getattr(value, "value", value))


def seat_name(seat: str) -> str:
    """North, East, South or West in the reader's language."""
    return str(SEAT_NAMES.get(_text(seat), seat))


def seat_letter(seat: str) -> str:
    return str(SEAT_LETTERS.get(_text(seat), seat))


def side_name(side: str) -> str:
    return str(SIDE_NAMES.get(_text(side), side))


def side_short(side: str) -> str:
    return str(SIDE_SHORT.get(_text(side), side))


KIND_NAMES = {
    "chicago": gettext_lazy("Chicago"),
    "rubber": gettext_lazy("rubber bridge"),
    "two_player": gettext_lazy("two-player Draw Bridge"),
}
OUTCOMES = {
    "win": pgettext_lazy("match result", "won"),
    "draw": pgettext_lazy("match result", "drawn"),
    "loss": pgettext_lazy("match result", "lost"),
}


def kind_name(kind: str) -> str:
    return str(KIND_NAMES.get(_text(kind), kind))


def outcome(result: str) -> str:
    """won, drawn or lost, for "win", "draw" or "loss"."""
    return str(OUTCOMES.get(_text(result), result))


def item_label(kind: ItemKind) -> str:
    return str(ITEM_LABELS.get(kind, kind))


def vulnerable_text(vulnerable: tuple[bool, bool] | Iterable[str]) -> str:
    """Who is vulnerable: nobody, one side, or both, from a tuple of sides or a pair of
    booleans (NS, EW)."""
    if (
        isinstance(vulnerable, tuple)
        and len(vulnerable) == 2
        and all(isinstance(v, bool) for v in vulnerable)
    ):
        ns, ew = vulnerable
    else:
        sides = {_text(side) for side in vulnerable}
        ns, ew = "NS" in sides, "EW" in sides
    if ns and ew:
        return pgettext("vulnerability", "Both")
    if ns:
        return str(SIDE_SHORT["NS"])
    if ew:
        return str(SIDE_SHORT["EW"])
    return pgettext("vulnerability", "None")


SUIT_WORDS = {
    "C": pgettext_lazy("suit", "clubs"),
    "D": pgettext_lazy("suit", "diamonds"),
    "H": pgettext_lazy("suit", "hearts"),
    "S": pgettext_lazy("suit", "spades"),
}
DOUBLING_WORDS = {
    "": gettext_lazy("undoubled"),
    "X": gettext_lazy("doubled"),
    "XX": gettext_lazy("redoubled"),
}


def spoken(symbol: object, words: object) -> SafeString:
    """A symbol for the eye (♠, X, a dash) and words for a screen reader ("spades", "doubled"):
    the symbol is hidden from screen readers, the words from the eye (and from paper)."""
    return format_html(
        '<span aria-hidden="true">{}</span><span class="visually-hidden"> {} </span>', symbol, words
    )


def not_counted() -> SafeString:
    """The number cell of a passed-out deal that does not count (Chicago): a dash."""
    return spoken("\u2013", _("not counted"))


def strain_html(strain: str) -> SafeString:
    code = _text(strain)
    if code == Strain.NT:
        abbreviation = format_html(
            '<abbr title="{}">{}</abbr>', _("no trump"), pgettext("abbreviation of no trump", "NT")
        )
        return format_html('<span class="suit-nt">{}</span>', spoken(abbreviation, _("no trump")))
    symbol, css = SUITS[code]
    return format_html('<span class="{}">{}</span>', css, spoken(symbol, SUIT_WORDS[code]))


def doubling_html(doubling: str) -> SafeString:
    """X or XX after a narrow no-break space (3NT\u202fX), or nothing."""
    code = _text(doubling)
    if not code:
        return mark_safe("")
    symbol = {"X": pgettext("doubled", "X"), "XX": pgettext("redoubled", "XX")}[code]
    return format_html("\u202f{}", spoken(symbol, DOUBLING_WORDS[code]))


def contract_html(contract: Contract | None) -> SafeString:
    """4♠X, 3NT: the level, the strain's symbol, X or XX."""
    if contract is None:
        return mark_safe("")
    return format_html(
        "{}{}{}", contract.level, strain_html(contract.strain), doubling_html(contract.doubling)
    )


def result_text(result: DealResult | None) -> str:
    """=, +1, \u22122 (made exactly, overtricks, down): a minus sign, not a hyphen."""
    if not isinstance(result, Played):
        return ""
    over = result.overtricks
    if over == 0:
        return "="
    return f"+{over}" if over > 0 else f"\u2212{-over}"


def signed(value: SupportsInt | str) -> str:
    """+120, \u221250, 0: a net result, with a minus sign."""
    try:
        number = int(value)
    except (TypeError, ValueError):
        return ""
    if number > 0:
        return f"+{number}"
    if number < 0:
        return f"\u2212{-number}"
    return "0"


def signed_decimal(value: SupportsFloat | str, digits: int = 1) -> str:
    """+383.3 or \u2212220.0 (in the reader's decimal style): a signed average."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ""
    text = str(floatformat(number, digits))
    if text.startswith("-"):
        return "\u2212" + text[1:]
    return f"+{text}" if number > 0 else text


# --- Score sheets ----------------------------------------------------------------------


@dataclass
class SheetRow:
    sequence: int
    number: int | None
    dealer: str
    vulnerable: str
    vulnerable_any: bool
    passed_out: bool
    contract: SafeString
    declarer: str
    tricks: int | None
    result: str
    ns: int
    ew: int
    partscore_ns: int
    partscore_ew: int
    marks_ns: list[str] = field(default_factory=list)
    marks_ew: list[str] = field(default_factory=list)
    game_by: str = ""


def _marks(items: Iterable[ScoreItem], side: Side) -> list[str]:
    return [
        f"{item_label(item.kind)} {item.points}"
        for item in items
        if item.side is side and item.kind in MARKED
    ]


def sheet_rows(sheet: Sheet) -> list[SheetRow]:
    rows = []
    for row in sheet.rows:
        result = row.result
        played = result if isinstance(result, Played) else None
        rows.append(
            SheetRow(
                sequence=row.sequence,
                number=row.number,
                dealer=seat_letter(row.dealer),
                vulnerable=vulnerable_text(row.vulnerable),
                vulnerable_any=bool(row.vulnerable),
                passed_out=isinstance(result, PassedOut),
                contract=contract_html(played.contract) if played else mark_safe(""),
                declarer=seat_letter(played.declarer) if played else "",
                tricks=played.tricks if played else None,
                result=result_text(result),
                ns=row.ns,
                ew=row.ew,
                partscore_ns=row.partscore_ns,
                partscore_ew=row.partscore_ew,
                marks_ns=_marks(row.items, Side.NS),
                marks_ew=_marks(row.items, Side.EW),
                game_by=side_short(row.game_won_by) if row.game_won_by else "",
            )
        )
    return rows


@dataclass
class ParRow:
    """One played deal's par reading as a sheet shows it (``hcp`` None: entered without its
    high-card points, so not read). ``side`` is the stronger side, which holds ``hcp``."""

    number: int | None
    side: str = ""
    hcp: int | None = None
    vulnerable: bool = False
    expected: int = 0
    actual: str = ""
    difference: str = ""
    imps_ns: str = ""
    imps_ew: str = ""


def par_rows(sheet: Sheet, par: ParSheet) -> list[ParRow]:
    """The played deals of ``sheet`` with their par reading, in order (a passed-out deal has
    none, so no row)."""
    rows = []
    for row, deal in zip(sheet.rows, par.deals, strict=True):
        if not isinstance(row.result, Played):
            continue
        if deal is None:
            rows.append(ParRow(number=row.number))
            continue
        rows.append(
            ParRow(
                number=row.number,
                side=side_short(deal.side),
                hcp=deal.hcp,
                vulnerable=deal.vulnerable,
                expected=deal.expected,
                actual=signed(deal.actual),
                difference=signed(deal.difference),
                imps_ns=signed(imps_ns(deal)),
                imps_ew=signed(deal.imps_of(Side.EW)),
            )
        )
    return rows


def imps_ns(deal: ParDeal) -> int:
    """North-South's IMPs on a deal read against par (East-West have as many, negative)."""
    return deal.imps_of(Side.NS)


def par_table_name(par: ParSheet) -> str:
    """Which table read the deals: the standard one (docs/rules.md) or the club's own."""
    if par.standard_table:
        return _("the standard par table")
    return _("the club's own par table")


@dataclass(frozen=True)
class ParExample:
    """A worked example of par scoring, as the engine reads it: Chicago deal ``number`` (its
    dealer and who is vulnerable), the stronger side and its HCP, what was played, ``E``, ``A``,
    ``A - E`` and the stronger side's IMPs."""

    number: int
    dealer: str
    vulnerable: str
    side: str
    hcp: int
    played: SafeString
    expected: int
    actual: str
    difference: str
    imps: str


PAR_EXAMPLES = tuple(
    (number, Played(Contract(level, strain), declarer, tricks), hcp)
    for number, level, strain, declarer, tricks, hcp in (
        (2, 4, Strain.S, Seat.N, 10, 26),
        (4, 2, Strain.H, Seat.E, 9, 23),
        (3, 3, Strain.NT, Seat.S, 8, 30),
        (1, 2, Strain.D, Seat.E, 8, 15),
        (1, 1, Strain.NT, Seat.W, 7, 20),
    )
)
"""The worked examples of docs/rules.md ("Worked examples"): a Chicago deal number (North
deals first), what was played and the declaring side's HCP."""


def par_examples() -> list[ParExample]:
    """``PAR_EXAMPLES`` read with the standard table, as the guide to par scoring shows them."""
    schedule = chicago_schedule(Seat.N)
    examples = []
    for number, result, hcp in PAR_EXAMPLES:
        deal = schedule[number - 1]
        read = par_deal(result, hcp=hcp, vulnerable=deal.vulnerable)
        examples.append(
            ParExample(
                number=number,
                dealer=seat_name(deal.dealer),
                vulnerable=vulnerable_text(deal.vulnerable),
                side=side_short(read.side),
                hcp=read.hcp,
                played=format_html(
                    "{} {} {}",
                    contract_html(result.contract),
                    seat_letter(result.declarer),
                    result_text(result),
                ),
                expected=read.expected,
                actual=signed(read.actual),
                difference=signed(read.difference),
                imps=signed(read.imps),
            )
        )
    return examples


def par_expected_rows() -> list[tuple[int, int, int]]:
    """The standard table: each HCP with its expected score, not vulnerable and vulnerable."""
    table = DEFAULT_PAR_TABLE
    return [
        (hcp, table.expected(hcp, vulnerable=False), table.expected(hcp, vulnerable=True))
        for hcp in PAR_HCP
    ]


def imp_scale_rows() -> list[tuple[int, int | None, int]]:
    """The IMP scale as (lowest difference, highest or None for no limit, IMPs), in tens."""
    lows = (0, *(step + 10 for step in IMP_STEPS))
    highs: tuple[int | None, ...] = (*IMP_STEPS, None)
    return [(low, high, n) for n, (low, high) in enumerate(zip(lows, highs, strict=True))]


@dataclass
class Line:
    """One entry in a column of a rubber sheet: the points and what they are for."""

    points: int
    label: str


@dataclass
class RubberLayout:
    above: list[tuple[Line | None, Line | None]]
    games: list[dict[str, Any]]
    above_ns: int
    above_ew: int
    below_ns: int
    below_ew: int


def rubber_layout(sheet: Sheet) -> RubberLayout:
    """The classic rubber sheet: above the line, each side's bonuses and penalties written
    upwards from the line (the latest highest); below the line, the trick points of each
    game, with a line drawn under every game won."""
    above: dict[Side, list[Line]] = {Side.NS: [], Side.EW: []}
    games: list[dict[str, Any]] = []
    current: dict[str, Any] = {"ns": [], "ew": [], "won_by": ""}
    for row in sheet.rows:
        for item in row.items:
            line = Line(item.points, item_label(item.kind))
            if item.below_line:
                current["ns" if item.side is Side.NS else "ew"].append(line)
            else:
                above[item.side].append(line)
        if row.game_won_by is not None:
            current["won_by"] = side_short(row.game_won_by)
            games.append(current)
            current = {"ns": [], "ew": [], "won_by": ""}
    if current["ns"] or current["ew"]:
        games.append(current)
    for item in sheet.closing_items:
        above[item.side].append(Line(item.points, item_label(item.kind)))
    height = max(len(above[Side.NS]), len(above[Side.EW]))

    def column(side: Side) -> list[Line | None]:
        lines = list(reversed(above[side]))  # the first entry sits just above the line
        return [None] * (height - len(lines)) + lines

    for game in games:
        rows = max(len(game["ns"]), len(game["ew"]))
        game["rows"] = [
            (
                game["ns"][i] if i < len(game["ns"]) else None,
                game["ew"][i] if i < len(game["ew"]) else None,
            )
            for i in range(rows)
        ]
    return RubberLayout(
        above=list(zip(column(Side.NS), column(Side.EW), strict=True)),
        games=games,
        above_ns=sheet.above_ns,
        above_ew=sheet.above_ew,
        below_ns=sheet.below_ns,
        below_ew=sheet.below_ew,
    )


def side_players(match: Match) -> dict[str, str]:
    """The names on each side: "Anna & Ben" (a table of two: one name a side)."""
    seats = match.seats
    ns = [seats[s].name for s in ("N", "S") if s in seats]
    ew = [seats[s].name for s in ("E", "W") if s in seats]
    return {"NS": " & ".join(ns), "EW": " & ".join(ew)}


def winner_text(sheet: Sheet, match: Match) -> str:
    """ "North-South win by 380", "Tie", or "In progress" for the sheet's state."""
    if not sheet.complete:
        return _("In progress")
    margin = abs(sheet.total_ns - sheet.total_ew)
    if sheet.winner is None or _text(sheet.winner) == "tie":
        return _("Tie: %(points)s points each") % {"points": sheet.total_ns}
    side = _text(sheet.winner)
    names = side_players(match)[side]
    return _("%(side)s (%(names)s) win by %(points)s") % {
        "side": side_name(side),
        "names": names,
        "points": margin,
    }


def row_contract_html(row: DealRow) -> SafeString:
    """One sheet row's result, short: 4♠X N =, or passed out."""
    result = row.result
    if not isinstance(result, Played):
        return format_html("<em>{}</em>", _("passed out"))
    return format_html(
        "{} {} {}",
        contract_html(result.contract),
        seat_letter(result.declarer),
        result_text(result),
    )


def seat_player(match: Match, seat: str) -> str:
    """The name of the player in ``seat`` of ``match``."""
    player = match.seats.get(_text(seat))
    return player.name if player else ""


def _outcome_words(overtricks: int) -> str:
    if overtricks == 0:
        return _("made exactly")
    if overtricks > 0:
        return ngettext("made with an overtrick", "made with %(n)s overtricks", overtricks) % {
            "n": overtricks
        }
    return ngettext("down one", "down %(n)s", -overtricks) % {"n": -overtricks}


def recorded_text(row: DealRow, next_deal: NextDeal | None) -> SafeString:
    """What the table page says once a deal is recorded, in words: "Deal 2 passed out: North
    deals again." or "Deal 3 recorded: 4♠ doubled by South, made with an overtrick: N-S +590."
    ``row`` is the deal's sheet row, ``next_deal`` the sheet's next deal after it (or None)."""
    result = row.result
    if not isinstance(result, Played):
        number = row.number or (next_deal.number if next_deal else row.sequence)
        if next_deal is None:
            return mark_safe(conditional_escape(_("Deal %(n)s passed out.") % {"n": number}))
        if next_deal.dealer == row.dealer:
            text = _("Deal %(n)s passed out: %(dealer)s deals again.")
        else:
            text = _("Deal %(n)s passed out: %(dealer)s deals next.")
        words = {"n": number, "dealer": seat_name(next_deal.dealer)}
        return mark_safe(conditional_escape(text) % words)
    contract = result.contract
    shown = format_html("{}{}", contract.level, strain_html(contract.strain))
    doubling = _text(contract.doubling)
    if doubling:
        shown = format_html("{} {}", shown, DOUBLING_WORDS[doubling])
    side = "NS" if row.ns >= row.ew else "EW"
    words = {
        "n": row.number or row.sequence,
        "contract": shown,
        "declarer": conditional_escape(seat_name(result.declarer)),
        "outcome": conditional_escape(_outcome_words(result.overtricks)),
        "side": conditional_escape(side_short(side)),
        "points": conditional_escape(signed(max(row.ns, row.ew))),
    }
    text = _("Deal %(n)s recorded: %(contract)s by %(declarer)s, %(outcome)s: %(side)s %(points)s.")
    return mark_safe(conditional_escape(text) % words)


def deal_number(sheet: Sheet, sequence: int) -> int:
    """The deal number the table showed for entry ``sequence``: a Chicago deal that was
    passed out and not counted is played again under the same number."""
    return 1 + sum(1 for row in sheet.rows[: sequence - 1] if row.number is not None)


def row_words(row: DealRow) -> str:
    """A deal in plain words, for a list to choose from: "4 spades doubled, S +1", "passed out"."""
    result = row.result
    if not isinstance(result, Played):
        return _("passed out")
    contract = result.contract
    code = _text(contract.strain)
    words = [str(contract.level), _("no trump") if code == Strain.NT else str(SUIT_WORDS[code])]
    if _text(contract.doubling):
        words.append(str(DOUBLING_WORDS[_text(contract.doubling)]))
    return f"{' '.join(words)}, {seat_letter(result.declarer)} {result_text(result)}"
