"""The template library of the pages (``{% load bridge %}``): the words and layouts of
``matches.presenters`` as filters, and the score sheet as an inclusion tag."""

from typing import Any

from django import template

from matches import presenters
from matches.models import Match
from matches.selectors import match_par
from scoring.engine import Kind, Sheet

register = template.Library()

for name in (
    "seat_name",
    "seat_letter",
    "side_name",
    "side_short",
    "kind_name",
    "outcome",
    "item_label",
    "contract_html",
    "strain_html",
    "result_text",
    "signed",
    "signed_decimal",
    "row_contract_html",
    "row_words",
    "seat_player",
    "imps_ns",
):
    register.filter(name, getattr(presenters, name))
register.filter("vulnerable", presenters.vulnerable_text)
register.filter("side_names", presenters.side_players)
register.filter("winner_for", presenters.winner_text)
register.simple_tag(presenters.not_counted, name="not_counted")
register.simple_tag(presenters.spoken, name="spoken")


@register.inclusion_tag("matches/_sheet.html")
def score_sheet(sheet: Sheet, match: Match) -> dict[str, Any]:
    """The whole score sheet of ``match``: Chicago rows, or a rubber's two halves and its
    list of deals."""
    rubber = sheet.kind is not Kind.CHICAGO
    par = match_par(match=match, sheet=sheet)
    return {
        "sheet": sheet,
        "match": match,
        "rubber": rubber,
        "rows": presenters.sheet_rows(sheet),
        "layout": presenters.rubber_layout(sheet) if rubber else None,
        "names": presenters.side_players(match),
        "winner": presenters.winner_text(sheet, match),
        "dense": len(sheet.rows) > 12,
        "par": par,
        "par_rows": presenters.par_rows(sheet, par) if par else [],
        "read_with": presenters.par_table_name(par) if par else "",
        "handicaps": match.table.session.club.gives_handicaps,
    }
