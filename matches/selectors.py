"""Reads about matches: the score sheet, and which matches a user may see."""

from dataclasses import dataclass

from django.utils.translation import gettext as _

from matches.models import Deal, Match
from scoring.engine import Sheet, parse_kind, score_match


def match_sheet(*, match: Match) -> Sheet:
    """The match scored by the engine from its stored entered results (a rubber finished
    early with ``finished=True``), with the club's Chicago vulnerability option."""
    deals = Deal.objects.filter(match=match).order_by("sequence")
    kind = parse_kind(match.kind)
    return score_match(
        kind,
        [deal.result for deal in deals],
        first_dealer=match.first_dealer,
        vulnerability=match.table.session.club.chicago_vulnerability,
        finished=match.finished_early,
        players=kind.seats,
    )


@dataclass(frozen=True)
class SheetLine:
    """One deal of a match as a score sheet shows it, from the stored figures."""

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


def _vulnerable_text(deal: Deal) -> str:
    if deal.vulnerable_ns and deal.vulnerable_ew:
        return _("both")
    if deal.vulnerable_ns:
        return _("North-South")
    if deal.vulnerable_ew:
        return _("East-West")
    return _("none")


def match_sheet_lines(*, match: Match) -> list[SheetLine]:
    """The match's deals in order, with the figures the engine stored on them."""
    lines = []
    for deal in Deal.objects.filter(match=match).order_by("sequence"):
        if deal.passed_out:
            contract, declarer, result = _("passed out"), "", ""
        else:
            contract, declarer, result = deal.contract, deal.declarer, deal.result.result_text
        lines.append(
            SheetLine(
                deal_id=deal.pk,
                sequence=deal.sequence,
                number=deal.number,
                dealer=deal.dealer,
                vulnerable=_vulnerable_text(deal),
                contract=contract,
                declarer=declarer,
                result=result,
                points_ns=deal.points_ns,
                points_ew=deal.points_ew,
                partscore_ns=deal.partscore_ns,
                partscore_ew=deal.partscore_ew,
            )
        )
    return lines
