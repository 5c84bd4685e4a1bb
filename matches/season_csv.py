"""The season's deals as CSV, read for an import: one row per deal, in playing order.

The format is shared with the season's deals export (README, "Importing a season's history"):
the columns ``COLUMNS`` (English keys, any case, or the translated header of any of the five
languages), in any order, unknown columns ignored. A match is the consecutive rows with the same
date, table, kind and players; its deals are its rows in file order.

Everything here reads text and checks it with the rules engine, with no database: which
players exist, whether a date is in the season and whether a table is free are the service's
(``matches.history_import.season_history_import``). Errors name the file's line (the header is
line 1) and the column's key, and are in the active language.
"""

import csv
import datetime
import io
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.messages import engine_message
from matches.selectors import StoredMatch, sheet_of
from scoring.engine import (
    DEFAULT_RULES,
    HCP_TOTAL,
    DealResult,
    InvalidInput,
    Kind,
    MatchComplete,
    PassedOut,
    Rules,
    Seat,
    make_result,
    parse_seat,
)

COLUMNS = (
    "date",
    "table",
    "kind",
    "north",
    "east",
    "south",
    "west",
    "contract",
    "declarer",
    "tricks",
    "dealer",
    "hcp",
)
"""The columns' keys, in the export's order (the export writes ``dealer`` after the match and
the deal's place in it, which the import ignores, and ``hcp`` after each side's points)."""
HEADERS = {
    "date": gettext_noop("Date"),
    "table": gettext_noop("Table"),
    "kind": gettext_noop("Kind"),
    "north": gettext_noop("North"),
    "east": gettext_noop("East"),
    "south": gettext_noop("South"),
    "west": gettext_noop("West"),
    "contract": gettext_noop("Contract"),
    "declarer": gettext_noop("Declarer"),
    "tricks": gettext_noop("Tricks"),
    "dealer": gettext_noop("Dealer"),
    "hcp": gettext_noop("High-card points"),
}
"""Each column's header msgid: the export writes it translated, the import reads it back."""
REQUIRED = ("date", "table", "north", "east", "contract", "declarer", "tricks")
"""Columns a file must have; without ``kind`` a table of four plays Chicago and a table of two
Draw Bridge; without ``south`` and ``west`` every table is of two. Without ``dealer`` (or with
it empty on a match's first row) North deals a match's first deal; a dealer given on a row must
be the one the rules give that deal (a Chicago's dealer sets who is vulnerable). ``hcp``, the
declaring side's high-card points, is needed on a played Chicago deal at a club that plays par
scoring, as on the pad; elsewhere it may be left out."""
SEAT_COLUMNS = {Seat.N: "north", Seat.E: "east", Seat.S: "south", Seat.W: "west"}
PASSED_OUT = frozenset({"pass", "passed out", "passed_out", "passed-out"})
"""What the contract column says for a deal all four passed (any case)."""
MAX_BYTES = 1_000_000
"""A file's size limit on the page and the API (the API: a 413 over it; compose's nginx takes
bodies up to 2.5 MB, the API's own limit)."""
MAX_ROWS = 1_000
"""A file's limit in deals on the page and the API: each deal is recorded through the services
within the one request, 8 to 30 ms a deal on PostgreSQL by the machine's load (bench/README.md,
"History import"), and a request has 30 s (``GUNICORN_TIMEOUT``). The command takes more."""
FILE = "file"
"""The field of an error about the whole file."""
_ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
_WHOLE = re.compile(r"[0-9]{1,4}")


@dataclass(frozen=True, order=True)
class LineError:
    """A problem on line ``line`` of the file (the header is line 1; 0: the file itself), in
    column ``field`` (a key of ``COLUMNS``, or ``file``)."""

    line: int
    field: str
    message: str

    def as_dict(self) -> dict[str, object]:
        return {"line": self.line, "field": self.field, "message": self.message}


@dataclass(frozen=True)
class Row:
    """One deal as read: its line, its match's key and its result."""

    line: int
    date: datetime.date
    table: int
    kind: Kind
    players: tuple[str, ...]  # by seat N, E[, S, W], as written (trimmed)
    result: DealResult
    dealer: Seat | None = None  # as written, if it was

    @property
    def key(self) -> tuple[object, ...]:
        """What the rows of one match share (names compared without case)."""
        return (self.date, self.table, self.kind, tuple(name.casefold() for name in self.players))


@dataclass
class MatchRows:
    """A match of the file: its consecutive rows. ``ending`` says how it ends once its rows are
    recorded: ``complete``, ``finish`` (an unfinished rubber, finished by the Laws' scoring) or
    ``abandon`` (a Chicago with fewer than four deals)."""

    rows: list[Row]
    ending: str = "complete"

    @property
    def first(self) -> Row:
        return self.rows[0]

    @property
    def first_dealer(self) -> Seat:
        """Who deals the match's first deal: its first row's dealer, North if not given."""
        return self.first.dealer or Seat.N

    @property
    def seats(self) -> dict[Seat, str]:
        return dict(zip(Seat, self.first.players, strict=False))


@dataclass
class Reading:
    """What ``read`` made of a file: the matches, the rows read and every error."""

    matches: list[MatchRows] = field(default_factory=list)
    rows: int = 0
    errors: list[LineError] = field(default_factory=list)


def decode(data: bytes | str) -> str:
    """The file's text: UTF-8, with or without a byte order mark. ``ValueError`` otherwise."""
    if isinstance(data, str):
        return data.removeprefix("\ufeff")
    return data.decode("utf-8-sig")


def sniff_delimiter(first_line: str) -> str:
    """``;`` (what spreadsheets write where the decimal mark is a comma), a tab or ``,``:
    whichever the header line holds most of (``,`` on a tie)."""
    counts = {delimiter: first_line.count(delimiter) for delimiter in (",", ";", "\t")}
    best = max(counts.values())
    return next(d for d in (",", ";", "\t") if counts[d] == best) if best else ","


def header_names(translations: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """Every accepted header (casefolded) with its key: the keys themselves, and each column's
    header as translated in ``translations`` (one mapping of key to header per language)."""
    names = {key: key for key in COLUMNS}
    for translated in translations:
        for key, header in translated.items():
            names.setdefault(" ".join(header.split()).casefold(), key)
    return names


def _columns(header: Sequence[str], names: Mapping[str, str]) -> tuple[dict[str, int], list[str]]:
    """Each known key's column index, and the problems with the header."""
    found: dict[str, int] = {}
    problems: list[str] = []
    for index, cell in enumerate(header):
        key = names.get(" ".join(cell.split()).casefold())
        if key is None:
            continue  # a column of the export's (points) or the club's own: ignored
        if key in found:
            problems.append(_("The column %(column)s appears twice.") % {"column": cell.strip()})
        found[key] = index
    missing = [key for key in REQUIRED if key not in found]
    if missing:
        problems.append(
            _("The header row lacks the columns %(columns)s (it needs %(required)s).")
            % {"columns": ", ".join(missing), "required": ", ".join(REQUIRED)}
        )
    return found, problems


def read(
    data: bytes | str,
    *,
    names: Mapping[str, str],
    max_bytes: int = MAX_BYTES,
    max_rows: int = MAX_ROWS,
    rules: Rules = DEFAULT_RULES,
) -> Reading:
    """Read and check a whole file (``names``: ``header_names``): every row's fields, the
    matches they make and each deal against its match by the rules engine, under the club's
    ``rules``. Collects every error; ``matches`` holds only the matches whose rows are all
    good."""
    reading = Reading()
    if len(data) > max_bytes:
        message = _("The file is larger than %(size)s MB; import the season in several files.")
        size = f"{max_bytes / 1_000_000:g}"
        reading.errors.append(LineError(0, FILE, message % {"size": size}))
        return reading
    try:
        text = decode(data)
    except UnicodeDecodeError as error:
        message = _("The file is not UTF-8 text (byte %(at)s): save it as CSV UTF-8.")
        reading.errors.append(LineError(0, FILE, message % {"at": error.start + 1}))
        return reading
    if "\x00" in text:
        reading.errors.append(LineError(0, FILE, _("The file is not a CSV text file.")))
        return reading
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        message = _("The file is empty: it needs a header row, then one row per deal.")
        reading.errors.append(LineError(1 if lines else 0, FILE, message))
        return reading
    records = csv.reader(
        io.StringIO(text, newline=""), delimiter=sniff_delimiter(lines[0]), strict=True
    )
    try:
        header = next(records)
        columns, problems = _columns(header, names)
        reading.errors.extend(LineError(1, FILE, problem) for problem in problems)
        if problems:
            return reading
        rows: list[Row] = []
        failed: list[int] = []  # the lines of rows refused on their own
        for cells in records:
            line = records.line_num
            if not any(cell.strip() for cell in cells):
                continue  # a blank line
            reading.rows += 1
            if reading.rows > max_rows:
                message = _("The file has more than %(rows)s deals; import it in several files.")
                reading.errors.append(LineError(line, FILE, message % {"rows": max_rows}))
                return reading
            row = _row(line, cells, columns, reading.errors)
            if row is not None:
                rows.append(row)
            else:
                failed.append(line)
    except csv.Error as error:
        message = _("The file cannot be read as CSV: %(error)s.")
        reading.errors.append(LineError(records.line_num, FILE, message % {"error": error}))
        return reading
    if reading.rows == 0:
        message = _("The file has a header row but no deal.")
        reading.errors.append(LineError(1, FILE, message))
    matches = group(rows)
    for index, match in enumerate(matches):
        # A refused row between this match's neighbours may have been one of its deals: its
        # deals after it cannot be checked against the rules (the dealer, the deal count)
        # without a false error, so the match waits until the row is corrected.
        after = matches[index - 1].rows[-1].line if index else 0
        before_next = matches[index + 1].first.line if index + 1 < len(matches) else sys.maxsize
        if any(after < line < before_next for line in failed):
            continue
        before = len(reading.errors)
        _check_match(match, reading.errors, rules)
        if len(reading.errors) == before:
            reading.matches.append(match)
    reading.errors.sort()
    return reading


def _cell(cells: Sequence[str], columns: Mapping[str, int], key: str) -> str:
    index = columns.get(key)
    if index is None or index >= len(cells):
        return ""
    return cells[index].strip()


def _row(
    line: int, cells: Sequence[str], columns: Mapping[str, int], errors: list[LineError]
) -> Row | None:
    """The row on ``line``, or None with its errors added (every field checked)."""
    before = len(errors)

    def refuse(key: str, message: str) -> None:
        errors.append(LineError(line, key, message))

    value = {key: _cell(cells, columns, key) for key in COLUMNS}
    date = None
    if not value["date"]:
        refuse("date", _("The date is missing (write it as 2026-03-14)."))
    else:
        try:
            if not _ISO_DATE.fullmatch(value["date"]):
                raise ValueError
            date = datetime.date.fromisoformat(value["date"])
        except ValueError:
            message = _("%(value)s is not a date written as 2026-03-14 (year-month-day).")
            refuse("date", message % {"value": value["date"]})
    table = None
    if not _WHOLE.fullmatch(value["table"]) or not 1 <= int(value["table"]) <= 999:
        message = _("The table is a number from 1 to 999, not %(value)s.")
        refuse("table", message % {"value": value["table"] or "''"})
    else:
        table = int(value["table"])
    names = [value[SEAT_COLUMNS[seat]] for seat in Seat]
    two = not names[2] and not names[3]
    kind = _kind(value["kind"], two=two, refuse=refuse)
    seated = seated_at(two)
    seen: set[str] = set()
    for seat in tuple(Seat)[: seated_at(two)]:
        key = SEAT_COLUMNS[seat]
        if not value[key]:
            refuse(key, _("The player in seat %(seat)s is missing.") % {"seat": seat.value})
        elif value[key].casefold() in seen:
            message = _("%(name)s already sits in another seat of this match.")
            refuse(key, message % {"name": value[key]})
        seen.add(value[key].casefold())
    result = _result(value, refuse)
    dealer = None
    if value["dealer"]:
        try:
            dealer = parse_seat(value["dealer"], field="dealer")
        except InvalidInput:
            message = _("The dealer is N, E, S or W, not %(value)s.")
            refuse("dealer", message % {"value": value["dealer"]})
    if len(errors) > before or date is None or table is None or kind is None or result is None:
        return None
    return Row(
        line=line,
        date=date,
        table=table,
        kind=kind,
        players=tuple(names[:seated]),
        result=result,
        dealer=dealer,
    )


def seated_at(two: bool) -> int:
    return 2 if two else 4


def _kind(text: str, *, two: bool, refuse: Callable[[str, str], None]) -> Kind | None:
    """The match's kind: ``chicago`` or ``rubber`` (a table of two: Draw Bridge, written
    ``rubber``, or ``two_player``); empty: Chicago at four, Draw Bridge at two."""
    word = text.strip().casefold().replace("-", "_").replace(" ", "_")
    if not word:
        return Kind.TWO_PLAYER if two else Kind.CHICAGO
    if word in ("rubber", "two_player"):
        return Kind.TWO_PLAYER if two else Kind.RUBBER
    if word == "chicago":
        if two:
            refuse(
                "kind",
                _(
                    "A Chicago is played by four; a table of two (no South and West) plays "
                    "Draw Bridge: write rubber."
                ),
            )
            return None
        return Kind.CHICAGO
    refuse("kind", _("The kind is chicago or rubber, not %(value)s.") % {"value": text})
    return None


_ENGINE_FIELDS = {"level": "contract", "strain": "contract", "doubling": "contract"}


def _result(value: Mapping[str, str], refuse: Callable[[str, str], None]) -> DealResult | None:
    """The deal's result: ``pass`` (declarer and tricks empty), or contract, declarer and
    tricks, checked by the engine's notation."""
    contract, declarer, tricks = value["contract"], value["declarer"], value["tricks"]
    if contract.casefold() in PASSED_OUT:
        extra = [key for key in ("declarer", "tricks", "hcp") if value[key]]
        for key in extra:
            message = _(
                "A passed-out deal has no declarer, tricks or high-card points; leave "
                "%(column)s empty."
            )
            refuse(key, message % {"column": key})
        return None if extra else PassedOut()
    missing = False
    if not contract:
        refuse("contract", _("The contract is missing: write e.g. 4S or 3NTX, or pass."))
        missing = True
    if not declarer:
        refuse("declarer", _("The declarer is missing: N, E, S or W."))
        missing = True
    if not tricks:
        refuse("tricks", _("The tricks taken by declarer are missing: 0 to 13."))
        missing = True
    count: int | None = None
    if tricks:
        if _WHOLE.fullmatch(tricks):
            count = int(tricks)
        else:
            message = _("Tricks are a whole number from 0 to 13, not %(value)s.")
            refuse("tricks", message % {"value": tricks})
            missing = True
    hcp: int | None = None
    if value["hcp"]:
        if _WHOLE.fullmatch(value["hcp"]) and int(value["hcp"]) <= HCP_TOTAL:
            hcp = int(value["hcp"])
        else:
            message = _(
                "High-card points are a whole number from 0 to 40 (the declaring side's), "
                "not %(value)s."
            )
            refuse("hcp", message % {"value": value["hcp"]})
            missing = True
    if missing:
        return None
    found = []
    # Each part on its own, so that a bad contract and a bad declarer are both reported.
    for given in (
        {"contract": contract, "declarer": "N", "tricks": 7},
        {"contract": "1C", "declarer": declarer, "tricks": 7},
        {"contract": "1C", "declarer": "N", "tricks": count},
    ):
        try:
            found.append(make_result(**given))
        except InvalidInput as error:
            refuse(_ENGINE_FIELDS.get(error.field, error.field), engine_message(error))
    if len(found) < 3:
        return None
    return make_result(contract=contract, declarer=declarer, tricks=count, hcp=hcp)


def group(rows: Iterable[Row]) -> list[MatchRows]:
    """The matches: runs of consecutive rows with the same key."""
    matches: list[MatchRows] = []
    for row in rows:
        if matches and matches[-1].first.key == row.key:
            matches[-1].rows.append(row)
        else:
            matches.append(MatchRows(rows=[row]))
    return matches


def _check_match(match: MatchRows, errors: list[LineError], rules: Rules) -> None:
    """Each deal against the match so far, by the engine (``sheet_of``, under the club's
    ``rules``, as the services record it): a deal after a Chicago's fourth or after the rubber
    ended, a declarer a table of two lacks, or a played Chicago deal without its high-card
    points at a club that plays par scoring is an error on its line. Sets how the match ends."""
    kind = match.first.kind
    stored = StoredMatch(kind, match.first_dealer, finished_early=False)
    results: list[DealResult] = []
    sheet = None
    for row in match.rows:
        try:
            sheet = sheet_of(match=stored, results=results, rules=rules, new=row.result)
        except InvalidInput as error:
            field = _ENGINE_FIELDS.get(error.field, error.field)
            errors.append(LineError(row.line, field, engine_message(error)))
            return
        except MatchComplete as error:
            message = _(
                "%(error)s. This row repeats the match's date, table and players: a new match "
                "at the table needs other players or another table number."
            )
            errors.append(
                LineError(row.line, "contract", message % {"error": engine_message(error)})
            )
            return
        dealt_by = sheet.rows[-1].dealer
        if row.dealer is not None and row.dealer is not dealt_by:
            message = _(
                "Deal %(deal)s of this match is dealt by %(seat)s (the match's first dealer is "
                "%(first)s), not %(value)s."
            )
            values = {
                "deal": len(results) + 1,
                "seat": dealt_by.value,
                "first": match.first_dealer.value,
                "value": row.dealer.value,
            }
            errors.append(LineError(row.line, "dealer", message % values))
            return
        results.append(row.result)
    if sheet is not None and not sheet.complete:
        match.ending = "abandon" if kind is Kind.CHICAGO else "finish"
