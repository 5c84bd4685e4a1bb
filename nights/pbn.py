"""PBN 2.1 (Portable Bridge Notation) export of a match, a club night and a season: every deal as
a PBN game in export format, for bridge programs to read.

One game a deal, as the match's score sheet has it (``matches.selectors``: the engine's sheet,
never scored again here). The tags, in the standard's export order (section 3.4: the mandatory
tag set in its order, then the supplemental tags sorted by name):

- ``Event`` the season's name, ``Site`` the club's name, ``Date`` the session's (``YYYY.MM.DD``);
- ``Board`` the deal's place in its match (passed-out deals counted: a Chicago's fifth deal
  after a passed-out one is board 5, its dealer and vulnerability those of Chicago deal 4);
- ``West``, ``North``, ``East``, ``South`` the players' names. A table of two (Draw Bridge) has
  only North and East, one player a side: ``South`` and ``West`` are given as an empty string,
  the standard's value of a mandatory tag that does not apply (section 3.4);
- ``Dealer``, ``Vulnerable`` (``None``, ``NS``, ``EW``, ``All``);
- ``Deal`` ``"<dealer>:- - - -"``: the service records results, not the cards; each hand is
  "not given" (section 3.4.11), the first hand the dealer's as export format wants;
- ``Scoring`` ``Chicago``, or ``Rubber`` for a rubber and Draw Bridge (scored as a rubber);
- ``Declarer``, ``Contract`` (``4SX``, ``3NT``; ``Pass`` when all passed) and ``Result`` (the
  tricks declarer took), the declarer and result empty for a passed-out deal (3.4.13, 3.4.15);
- ``Round`` (at a club night) and ``Table``;
- ``ScoreRubber`` what each side scored on the deal, above and below the line:
  ``"NS 50/120 EW 0/0"`` (4.2.5, the two-sided form of the Score tag);
- ``HCP`` (a deal entered with high-card points) the declaring side and the points it held:
  ``"NS 23"``; ``ParExpected`` and ``ParIMPs`` (a Chicago at a club that plays par scoring,
  docs/rules.md "Par scoring") the stronger side's expected score, ``"NS 110"``, and each side's
  IMPs of the deal, ``"NS 3 EW -3"``. PBN has no tag for these; the standard lets an exporter
  add its own (section 3.5) and a reader ignores a tag it does not know;
- ``ScoreRubberHistory`` (a rubber) each side's score when the deal began (4.2.6):
  ``"NS 0 <above>/<below game 1> [<below game 2> ...] EW ..."``; a match is one rubber, so the
  points of previous rubbers are always 0. The bonuses that close a rubber left unfinished
  (300 for a game, 100 for a partscore) belong to no deal: they are on the score sheet only.

Text is written as the standard escapes it (``\\"`` and ``\\\\`` in a tag value; a control
character becomes a space), lines end with CR LF, and the file is UTF-8, declared in an escape
line (``%Content-type``): the standard's Latin-1 cannot hold Greek names.

The addresses are the downloads' own (``clubs.exports``): a match's ``deals.pbn``, a night's
``results.pbn`` (the night's deals, with their results), a season's ``deals.pbn``, and the same
in the API (``?format=pbn``, ``Accept: text/x-pbn``, ``.pbn``).

It lives with the club nights, the lowest layer that knows a night's rounds as well as the
matches and seasons; its ``AppConfig.ready`` registers it (``clubs.exports.register``).
"""

import datetime
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from clubs.exports import Exporter, register
from clubs.models import Season
from matches import selectors as match_selectors
from matches.models import Match, stored_result
from nights import selectors
from nights.models import Night
from scoring.engine import (
    DealResult,
    DealRow,
    Kind,
    ParDeal,
    ParSheet,
    Played,
    Sheet,
    Side,
    read_par,
    row_readings,
)

HEADER = (
    "% PBN 2.1\r\n% EXPORT\r\n%Content-type: text/x-pbn; charset=UTF-8\r\n%Creator: Partscore\r\n"
)
MANDATORY = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
"""The mandatory tag set (MTS) in the standard's order (PBN 2.1, section 3.4)."""
SEATS = ("N", "E", "S", "W")
# A tag value's longest escaped text: a line of export format holds at most 255 characters.
LONGEST = 200
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_VULNERABLE = {(): "None", (Side.NS,): "NS", (Side.EW,): "EW", (Side.NS, Side.EW): "All"}


def tag_value(text: str) -> str:
    """``text`` as a PBN string's contents: a quote as ``\\"``, a backslash as ``\\\\``, a
    control character (a tab, a line end) as a space, at most ``LONGEST`` characters."""
    text = _CONTROL.sub(" ", text)
    while True:
        escaped = text.replace("\\", "\\\\").replace('"', '\\"')
        if len(escaped) <= LONGEST:
            return escaped
        text = text[: len(text) - (len(escaped) - LONGEST + 1) // 2 - 1]


def game(tags: dict[str, str]) -> str:
    """One PBN game in export format: the mandatory tags in order, then the others by name,
    one tag a line."""
    names = [*MANDATORY, *sorted(name for name in tags if name not in MANDATORY)]
    return "".join(f'[{name} "{tag_value(tags[name])}"]\r\n' for name in names)


@dataclass(frozen=True)
class MatchGames:
    """A match as its games need it: where and when, who sat where, and its engine's sheet."""

    event: str
    site: str
    date: str  # YYYY.MM.DD
    table: int
    players: dict[str, str]  # seat letter -> name (N and E only at a table of two)
    sheet: Sheet
    round: int | None = None
    # The par reading beside the sheet (``matches.selectors.match_par``).
    par: ParSheet | None = None


def _score(row: DealRow) -> str:
    """The deal's points, each side's above and below the line: ``NS a/b EW c/d``."""
    above = {Side.NS: 0, Side.EW: 0}
    below = {Side.NS: 0, Side.EW: 0}
    for item in row.items:
        (below if item.below_line else above)[item.side] += item.points
    return f"NS {above[Side.NS]}/{below[Side.NS]} EW {above[Side.EW]}/{below[Side.EW]}"


def _histories(sheet: Sheet) -> Iterator[str]:
    """Each deal's ``ScoreRubberHistory``: each side's above-the-line points and the
    below-the-line points of each game so far, as the deal began."""
    above = {Side.NS: 0, Side.EW: 0}
    games: list[dict[Side, int]] = [{Side.NS: 0, Side.EW: 0}]
    for row in sheet.rows:
        yield " ".join(
            f"{side.value} 0 {above[side]}/" + " ".join(str(game[side]) for game in games)
            for side in (Side.NS, Side.EW)
        )
        for item in row.items:
            if item.below_line:
                games[-1][item.side] += item.points
            else:
                above[item.side] += item.points
        if row.game_won_by is not None:
            games.append({Side.NS: 0, Side.EW: 0})


def _par_tags(result: DealResult, read: ParDeal | None) -> dict[str, str]:
    """The deal's own tags of its high-card points and its par reading (none without them)."""
    tags = {}
    if isinstance(result, Played) and result.hcp is not None:
        tags["HCP"] = f"{result.declarer.side.value} {result.hcp}"
    if read is not None:
        tags["ParExpected"] = f"{read.side.value} {read.expected}"
        tags["ParIMPs"] = " ".join(f"{side.value} {read.imps_of(side)}" for side in Side)
    return tags


def games(match: MatchGames) -> Iterator[str]:
    """The match's deals as PBN games."""
    rubber = match.sheet.kind is not Kind.CHICAGO
    histories = _histories(match.sheet) if rubber else None
    for row, read in zip(match.sheet.rows, row_readings(match.sheet, match.par), strict=True):
        result = row.result
        tags = {
            "Event": match.event,
            "Site": match.site,
            "Date": match.date,
            "Board": str(row.sequence),
            **{
                name: match.players.get(seat, "")
                for seat, name in zip(SEATS, ("North", "East", "South", "West"), strict=True)
            },
            "Dealer": row.dealer.value,
            "Vulnerable": _VULNERABLE[tuple(row.vulnerable)],
            "Deal": f"{row.dealer.value}:- - - -",
            "Scoring": "Rubber" if rubber else "Chicago",
            "Declarer": result.declarer.value if isinstance(result, Played) else "",
            "Contract": str(result.contract) if isinstance(result, Played) else "Pass",
            "Result": str(result.tricks) if isinstance(result, Played) else "",
            "ScoreRubber": _score(row),
            "Table": str(match.table),
            **_par_tags(result, read),
        }
        if histories is not None:
            tags["ScoreRubberHistory"] = next(histories)
        if match.round is not None:
            tags["Round"] = str(match.round)
        yield game(tags)


def pbn_chunks(matches: Iterable[MatchGames]) -> Iterator[bytes]:
    """The file: the escape lines, then every deal of ``matches``, a game each, an empty line
    before each game but the first; a chunk a match."""
    yield HEADER.encode()
    separator = ""
    for match in matches:
        texts = list(games(match))
        if texts:
            yield (separator + "\r\n".join(texts)).encode()
            separator = "\r\n"


def _date(day: datetime.date) -> str:
    return day.strftime("%Y.%m.%d")


def _of_match(match: Match, round: int | None = None) -> MatchGames:
    session = match.table.session
    sheet = match_selectors.match_sheet(match=match)
    return MatchGames(
        event=match.season.name,
        site=session.club.name,
        date=_date(session.date),
        table=match.table.number,
        players={seat: player.name for seat, player in match.seats.items()},
        sheet=sheet,
        round=round,
        par=match_selectors.match_par(match=match, sheet=sheet),
    )


@register
class PBN(Exporter):
    """PBN 2.1, export format: a match's deals, a club night's, a season's."""

    key = "pbn"
    label = _("PBN (bridge programs)")
    media_type = "text/x-pbn"
    charset = "utf-8"
    description = _(
        "PBN 2.1 (Portable Bridge Notation), export format, UTF-8: one game a deal, with its "
        "players, contract, result and score, and its high-card points and par IMPs where they "
        "were entered; the cards are not given."
    )
    kinds = frozenset({"match", "night", "season"})

    def match(self, match: Match) -> tuple[str, Iterator[bytes]]:
        match_selectors.with_players([match])
        session, number = match.table.session, match.table.number
        name = f"{session.club.slug} {session.date.isoformat()} table {number} {match.pk}"
        return name, pbn_chunks([_of_match(match)])

    def night(self, night: Night) -> tuple[str, Iterator[bytes]]:
        rounds = [
            (round.number, table.match)
            for round in selectors.started_rounds(night=night)
            for table in round.tables
            if table.match is not None
        ]
        played: list[Match] = [match for _number, match in rounds]
        match_selectors.with_players(played)
        session = night.session
        name = f"{session.club.slug} {session.date.isoformat()} night"
        return name, pbn_chunks(_of_match(match, number) for number, match in rounds)

    def season(self, season: Season) -> tuple[str, Iterator[bytes]]:
        return f"{season.club.slug} deals {season.name}", pbn_chunks(_season_matches(season))


def _season_matches(season: Season) -> Iterator[MatchGames]:
    """The season's matches in playing order (``season_deal_records``, read in batches), each
    scored by the engine as its sheet is."""
    rules = season.club.rules()
    for (
        _id,
        day,
        table,
        kind,
        first_dealer,
        finished,
        *names,
    ), deals in match_selectors.season_deal_records(season):
        stored = match_selectors.StoredMatch(kind, first_dealer, finished)
        results: Sequence[DealResult] = [stored_result(*deal) for deal in deals]
        sheet = match_selectors.sheet_of(match=stored, results=results, rules=rules)
        yield MatchGames(
            event=season.name,
            site=season.club.name,
            date=_date(day),
            table=table,
            players={seat: name for seat, name in zip(SEATS, names, strict=True) if name},
            sheet=sheet,
            par=read_par(sheet, rules.par),
        )
