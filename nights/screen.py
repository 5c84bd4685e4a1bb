"""The club screen's layout: the round being played and the results, laid out for a TV across
the room (16:9, 1920x1080 or 1280x720: the type is sized in parts of the screen's height, so
both show the same). The fewer the players, the larger the type; past what one screen holds
at the smallest type still read from the back of the room, the screen shows pages that turn
by themselves (``static/js/screen.js``; without JavaScript every page shows, one under
another).

A screen is cut into columns of rows (a row: a player's line of the results, 1.55 times the
type's size, its rule included): a table of the round takes about two (each side's pair on
two lines), a section's heading and a table's head about one and a half, two. Each tier says
how large its type is (in hundredths of the screen's height: ``--type`` of the CSS class
``screen-<name>`` in ``static/css/partscore.css`` says the same) and how many columns a screen
has; the first tier that holds everything on one screen is used, else the last one, on as
many pages as it takes.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

ROW = 1.55  # a row's height, in the type's size (line 1.25, padding 0.2, rule 0.1)
SCREEN = 91.2  # what the pages have of the screen's height, in hundredths (the title above)
HEADING = 1.45  # a section's heading, in rows
HEAD = 1.85  # a table's head (its labels on two lines at most)
PAIRS = 1.85  # a table of the round (a side's pair on two lines)
SITTING_OUT = 1.1  # the line of who sits out
GAP = 0.2  # under a table
FEWEST = 2  # a section's piece holds at least this many lines (or all it has left)
SLACK = 0.98  # what a column is filled to, at most


@dataclass(frozen=True)
class Tier:
    name: str
    type: float  # the type's size, in hundredths of the screen's height
    columns: int

    @property
    def rows(self) -> float:
        return SCREEN / (self.type * ROW) * SLACK


# Checked in Chromium at 1920x1080 and 1280x720 (tests/web/test_screen_browser.py).
TIERS = (
    Tier("large", 3.0, 1),
    Tier("medium", 2.5, 1),
    Tier("compact", 2.0, 2),
)


@dataclass
class Piece:
    """A section's lines in one column: the round's tables (``kind`` "round") or the results'
    rows ("results"); ``first``: the section's heading goes before it; ``last``: the section
    ends with it (the round's line of who sits out follows)."""

    kind: Literal["round", "results"]
    rows: list[Any]
    first: bool
    last: bool = False


@dataclass
class Page:
    number: int
    columns: list[list[Piece]] = field(default_factory=list)


@dataclass(frozen=True)
class Layout:
    tier: str
    pages: list[Page]


Section = tuple[Literal["round", "results"], list[Any], float, float]


def _pack(tier: Tier, sections: Sequence[Section]) -> list[list[Piece]]:
    """The sections (kind, lines, rows a line takes, rows after the last line) cut into
    columns of ``tier``."""
    columns: list[list[Piece]] = [[]]
    used = 0.0
    for kind, lines, size, tail in sections:
        start = 0
        first = True
        while first or start < len(lines):
            left = len(lines) - start
            fixed = (HEADING if first else 0) + (HEAD + GAP if lines else 0)
            space = tier.rows - used - fixed
            room = int(space // size)
            if room < min(FEWEST, left) or (not lines and space < tail):
                if used:
                    columns.append([])
                    used = 0
                    continue
                room = max(room, min(FEWEST, left))  # a column too short: take what it must
            take = min(left, room)
            if take == left and take * size + tail > space:
                take = max(
                    min(FEWEST, left), int((space - tail) // size)
                )  # the last lines go with the tail
            last = start + take >= len(lines)
            columns[-1].append(Piece(kind, lines[start : start + take], first, last))
            used += fixed + take * size + (tail if last else 0)
            start += take
            first = False
    return [column for column in columns if column]


def screen_layout(
    *, tables: list[Any], pairs: bool, sitting_out: int, results: list[Any]
) -> Layout:
    """The screen's pages for a round of ``tables`` (none before the first round; ``pairs``:
    a table of four among them) with ``sitting_out`` players out, and the results' rows."""
    sections: list[Section] = [
        ("round", tables, PAIRS if pairs else 1, SITTING_OUT if sitting_out else 0),
        ("results", results, 1, 0),
    ]
    for tier in TIERS:
        columns = _pack(tier, sections)
        if len(columns) <= tier.columns:
            break
    per_page = tier.columns
    pages = [
        Page(number, columns[start : start + per_page])
        for number, start in enumerate(range(0, len(columns), per_page), 1)
    ]
    return Layout(tier.name, pages)
