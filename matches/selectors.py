"""Reads about matches: the score sheet, as the rules engine replays it from the deals."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from matches.models import Deal, Match
from scoring.engine import PassedOut, Sheet, Side, parse_kind, score_match


def _scored(match: Match) -> tuple[list[Deal], Sheet]:
    """The match's deals in order and the engine's sheet of them (a rubber finished early
    with ``finished=True``), with the club's Chicago vulnerability option."""
    deals = list(Deal.objects.filter(match=match).order_by("sequence"))
    kind = parse_kind(match.kind)
    sheet = score_match(
        kind,
        [deal.result for deal in deals],
        first_dealer=match.first_dealer,
        vulnerability=match.table.session.club.chicago_vulnerability,
        finished=match.finished_early,
        players=kind.seats,
    )
    return deals, sheet


def match_sheet(*, match: Match) -> Sheet:
    """The match scored by the engine from its stored entered results."""
    return _scored(match)[1]


@dataclass(frozen=True)
class SheetLine:
    """One deal of a match as the admin's score sheet shows it."""

    deal_id: int
    sequence: int
    number: int | None
    dealer: str
    vulnerable: str
    contract: str
    declarer: str
    result: str
    points_ns: int
    points_ew: int
    partscore_ns: int
    partscore_ew: int


def _vulnerable_text(vulnerable: tuple[Side, ...]) -> str:
    if len(vulnerable) == 2:
        return _("both")
    if vulnerable:
        return _("North-South") if vulnerable[0] is Side.NS else _("East-West")
    return _("none")


def match_sheet_lines(*, match: Match) -> list[SheetLine]:
    """The match's deals in order, each with its row of the engine's sheet."""
    deals, sheet = _scored(match)
    lines = []
    for deal, row in zip(deals, sheet.rows, strict=True):
        result = row.result
        if isinstance(result, PassedOut):
            contract, declarer, result_text = _("passed out"), "", ""
        else:
            contract, declarer = str(result.contract), result.declarer.value
            result_text = result.result_text
        lines.append(
            SheetLine(
                deal_id=deal.pk,
                sequence=row.sequence,
                number=row.number,
                dealer=row.dealer.value,
                vulnerable=_vulnerable_text(row.vulnerable),
                contract=contract,
                declarer=declarer,
                result=result_text,
                points_ns=row.ns,
                points_ew=row.ew,
                partscore_ns=row.partscore_ns,
                partscore_ew=row.partscore_ew,
            )
        )
    return lines
