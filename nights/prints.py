"""A club night on paper (issue 17): a guide card per player, a card per table, every score
sheet of the night, and the night's results, each a PDF a reader of the club may download.

A4 by default, Letter where the club's country uses it, ``?paper=a4|letter`` (``matches.pdf``
draws them). The views read the night through ``nights.selectors`` (its table codes through
``nights.table_selectors``) only.
"""

import math
from datetime import date
from typing import Any, TypeVar

import segno
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.urls import reverse

from clubs.doors import club_for_reader, doors
from clubs.models import Club
from clubs.selectors import can_direct
from matches import selectors as match_selectors
from matches.pdf import PAPER_MM, draw_pdf, paper_checked, paper_of, pdf_response
from nights.models import Night, TableCode
from nights.selectors import (
    GuideCard,
    guide_cards,
    night_plan,
    night_results,
    nights_of,
    table_cards,
)
from nights.table_selectors import live_codes

MARGIN_MM = 12  # matches.pdf's @page margin
# The results on one page: from this many lines on, a smaller type and tighter rows.
RESULTS_SMALL = 30
RESULTS_TINY = 48


def _night(request: HttpRequest, slug: str, day: date) -> tuple[Club, Night]:
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    night = get_object_or_404(nights_of(clubs=Club.objects.filter(pk=club.pk)), session__date=day)
    return club, night


def _area(paper: str) -> tuple[float, float]:
    """The width and height (mm) inside the page's margins."""
    width, height = PAPER_MM[paper]
    return width - 2 * MARGIN_MM, height - 2 * MARGIN_MM


def _pdf(
    request: HttpRequest, template: str, context: dict[str, Any], paper: str, name: str
) -> HttpResponse:
    html = render_to_string(template, {**context, "paper": paper}, request=request)
    return pdf_response(draw_pdf(request, html, paper), name)


def _name(club: Club, night: Night, what: str) -> str:
    return f"{club.slug} {night.session.date.isoformat()} {what}"


# --- guide cards ---------------------------------------------------------------------------


def _round_height(longest: int, column_mm: float) -> float:
    """About how tall (mm) a round is on a card whose rounds are ``column_mm`` wide, at
    10 pt (about 2 mm a character): the seat's line, the partner's and the opponents'
    lines, long names wrapping."""
    per_line = max(1, int(column_mm / 2.0))
    lines = 1 + math.ceil((10 + longest) / per_line) + math.ceil((13 + 2 * longest) / per_line)
    return lines * 4.4 + 2


def cards_per_page(rounds: int, longest: int = 20, paper: str = "a4") -> int:
    """Four cards to a sheet (cut in quarters), else two (cut in half, the rounds in two
    columns), else one (a card longer than a page goes on to the next): as many as hold
    every round of the night, with names up to ``longest`` characters."""
    width, height = _area(paper)
    for per_page, columns in ((4, 1), (2, 2)):
        card_width, card_height = width / (2 if per_page == 4 else 1), height / 2
        column = (card_width - 14 - 4 * (columns - 1)) / columns - 8
        if 20 + math.ceil(rounds / columns) * _round_height(longest, column) <= card_height:
            return per_page
    return 1


Item = TypeVar("Item")


def _pages(items: list[Item], size: int) -> list[list[Item]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@paper_checked
def cards_pdf(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """A guide card per player present, in the director's order: for every round the table,
    the seat, the partner and the opponents, or "sits out"; a round the movement cannot plan
    yet as blank lines to fill in by hand. Several cards to a sheet, with cut lines."""
    club, night = _night(request, slug, day)
    paper = paper_of(request, club)
    cards: list[GuideCard] = guide_cards(plan=night_plan(night=night))
    longest = max((len(card.player.name) for card in cards), default=0)
    per_page = cards_per_page(night.rounds, longest, paper)
    width, height = _area(paper)
    columns = 2 if per_page == 4 else 1
    rows = per_page // columns
    # A long night's rounds in two or three columns on a card (drawn as floats: WeasyPrint
    # takes a minute over CSS columns of a dozen cards).
    round_columns = 1 if per_page == 4 else 2
    length = math.ceil(night.rounds / round_columns)
    context = {
        "club": club,
        "night": night,
        "pages": _pages([(card, _pages(card.rows, length)) for card in cards], per_page),
        "per_page": per_page,
        # Each card's box, a hair under its share of the page so that rounding never
        # pushes the last card onto a page of its own; a card that does not fit grows, and
        # its sheet runs on to another page (the tests count the pages).
        "card_width": f"{width / columns - 0.2:.1f}mm",
        "card_height": f"{height / rows - 0.4:.1f}mm" if per_page > 1 else "0",
        "round_width": f"{(width / columns - 14 - 4 * (round_columns - 1)) / round_columns:.1f}mm",
    }
    return _pdf(request, "nights/print_cards.html", context, paper, _name(club, night, "cards"))


# --- table cards ---------------------------------------------------------------------------


def tables_per_page(rounds: int) -> int:
    return 2 if rounds <= 10 else 1


def table_entry(request: HttpRequest, code: TableCode) -> dict[str, str]:
    """A table card's way in for the players' phones: the entry link, its QR code (an SVG
    data URI) and the short code to type instead."""
    link = entry_link(request, code)
    qr = segno.make(link, error="m")
    return {"link": link, "qr": qr.svg_data_uri(scale=4, border=2), "short": code.shown}


def entry_link(request: HttpRequest, code: TableCode) -> str:
    """The table's entry link, in full (the QR code's, the board's)."""
    return request.build_absolute_uri(reverse("nights:pad_open", args=[code.token]))


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@paper_checked
def tables_pdf(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """A card per table: the table's number big, and who sits North, East, South and West
    in each round (North and East at a table of two). The director's copy has each table's
    code, as a QR code of its entry link and as the short code (a table whose first round has
    not started has none yet); a reader's copy has no code, which would open the table."""
    club, night = _night(request, slug, day)
    paper = paper_of(request, club)
    per_page = tables_per_page(night.rounds)
    _width, height = _area(paper)
    director = can_direct(request.user, club.pk)
    codes = live_codes(night=night) if director else {}
    cards = [
        (card, table_entry(request, codes[card.number]) if card.number in codes else None)
        for card in table_cards(night_plan(night=night))
    ]
    context = {
        "club": club,
        "night": night,
        "pages": _pages(cards, per_page),
        "card_height": f"{height / per_page - 0.4:.1f}mm",
        "with_codes": director and night.closed_at is None,
    }
    return _pdf(request, "nights/print_tables.html", context, paper, _name(club, night, "tables"))


# --- score sheets --------------------------------------------------------------------------


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@paper_checked
def sheets_pdf(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """Every score sheet of the night's started rounds, a match to a page, in round then
    table order: the score sheet's own PDF, page after page."""
    club, night = _night(request, slug, day)
    paper = paper_of(request, club)
    pages = []
    for round in night_plan(night=night).rounds:
        for table in round.tables:
            if table.match is None:
                continue
            match = match_selectors.match_with_players(match_id=table.match.pk)
            assert match is not None  # a round's match is never deleted apart from its round
            sheet = match_selectors.match_sheet(match=match)
            pages.append({"round": round.number, "match": match, "sheet": sheet})
    context = {"club": club, "night": night, "session": night.session, "pages": pages}
    return _pdf(request, "nights/print_sheets.html", context, paper, _name(club, night, "sheets"))


# --- results -------------------------------------------------------------------------------


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@paper_checked
def results_pdf(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """The night's results on one page: the rule that ranked them, each player's place
    (shared on equal scores; none when unranked), net, matches, the average ranked by (an
    average's rules) and best round, their prize group and place in it, the prize winners
    marked."""
    club, night = _night(request, slug, day)
    paper = paper_of(request, club)
    plan = night_plan(night=night, ahead=1)  # the results: the rounds started
    results = night_results(night=night, plan=plan)
    # Each line with the player's place in their prize group and whether it wins there.
    in_group = {
        result.line.player_id: result for lines in results.groups.values() for result in lines
    }
    lines = [(result, in_group.get(result.line.player_id)) for result in results.lines]
    context = {
        "club": club,
        "night": night,
        "results": results,
        "lines": lines,
        "groups": list(results.groups),
        "started": sum(1 for round in plan.rounds if round.started),
        "density": "tiny"
        if len(lines) > RESULTS_TINY
        else "small"
        if len(lines) > RESULTS_SMALL
        else "",
    }
    return _pdf(request, "nights/print_results.html", context, paper, _name(club, night, "results"))
