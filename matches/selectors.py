"""Reads about matches: the score sheet, as the rules engine replays it from the deals."""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from matches.models import Deal, Match
from scoring.engine import DealResult, PassedOut, Sheet, Side, check_next, score_match


def sheet_of(
    *,
    match: Match,
    results: Sequence[DealResult],
    vulnerability: str,
    finished: bool | None = None,
    new: DealResult | None = None,
) -> Sheet:
    """The engine's sheet of ``results`` at ``match`` (its kind and first dealer) with the
    club's Chicago ``vulnerability`` option, a rubber ended early when ``finished`` (default:
    when the match was finished early). With ``new``, the sheet with that result added, which
    the engine refuses (``MatchComplete``) if the match takes no further deal. The one place
    that turns a match's results into its sheet; the engine's errors pass through."""
    options: dict[str, Any] = {
        "first_dealer": match.first_dealer,
        "vulnerability": vulnerability,
        "finished": match.finished_early if finished is None else finished,
    }
    if new is not None:
        return check_next(match.kind, results, new, **options)
    return score_match(match.kind, results, **options)


def _scored(match: Match) -> tuple[list[Deal], Sheet]:
    """The match's deals in order and the engine's sheet of them."""
    deals = list(Deal.objects.filter(match=match).order_by("sequence"))
    sheet = sheet_of(
        match=match,
        results=[deal.result for deal in deals],
        vulnerability=match.table.session.club.chicago_vulnerability,
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
