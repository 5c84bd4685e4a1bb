"""Drawing a page as a PDF, for every app that prints: the score sheet (``matches.views``),
a club night's cards, sheets and results (``nights.prints``) and a season's ladder
(``scoring.views``).

The PDF is WeasyPrint's drawing of a page's HTML with the pages' own stylesheet (its print
rules) on A4, or on Letter where the club's country uses it; ``?paper=a4|letter`` chooses (any
other: a 400, ``paper_checked``).
"""

import functools
import logging
from collections.abc import Callable
from typing import Any, cast

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify

from clubs.models import Club

PAPER_SIZES = {"a4": "A4", "letter": "letter"}
PAPER_MM = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # width, height
# Where Letter is the usual paper; everywhere else the PDF defaults to A4.
LETTER_COUNTRIES = {"US", "CA", "MX", "PH", "CL", "CO", "VE", "GT", "DO", "CR", "PA", "SV"}


class _ScreenOnlyRules(logging.Filter):
    """The PDF is drawn with the pages' own stylesheet; WeasyPrint warns about each rule it
    has no use for (scrolling, screen-width media queries). Those warnings are expected."""

    EXPECTED = ("Ignored `", "Invalid media type", "Expected a media type")

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith(self.EXPECTED)


logging.getLogger("weasyprint").addFilter(_ScreenOnlyRules())


def default_paper(club: Club) -> str:
    return "letter" if club.country in LETTER_COUNTRIES else "a4"


class UnknownPaper(Exception):
    """``?paper=`` names no paper the PDF is printed on (``paper_checked`` answers it)."""

    def __init__(self, paper: str):
        super().__init__(paper)
        self.paper = paper


def paper_of(request: HttpRequest, club: Club) -> str:
    """The paper the request asks for (``?paper=a4|letter``, in any case), else (none, or
    empty) the club's usual one; any other raises ``UnknownPaper``."""
    asked = request.GET.get("paper", "")
    if not asked:
        return default_paper(club)
    if asked.lower() not in PAPER_SIZES:
        raise UnknownPaper(asked)
    return asked.lower()


def paper_checked(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A PDF view whose ``?paper=`` names no paper answers a 400: a short page in the reader's
    language naming the choices, not a PDF on another paper."""

    @functools.wraps(view)
    def checked(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except UnknownPaper as unknown:
            return render(request, "paper_refused.html", {"paper": unknown.paper}, status=400)

    return checked


def draw_pdf(request: HttpRequest, html: str, paper: str) -> bytes:
    """``html`` drawn as a PDF on ``paper`` with 12 mm margins."""
    import weasyprint  # imported here: only the PDF views need it, and it is slow to import

    stylesheets = [
        weasyprint.CSS(filename=finders.find("css/partscore.css")),
        weasyprint.CSS(string=f"@page {{ size: {PAPER_SIZES[paper]}; margin: 12mm; }}"),
    ]
    pdf = weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf(
        stylesheets=stylesheets
    )
    return cast(bytes, pdf)  # write_pdf without a target returns the PDF's bytes


def pdf_response(pdf: bytes, name: str) -> HttpResponse:
    """``pdf`` as a download named ``name`` (slugified) ``.pdf``."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{slugify(name)}.pdf"'
    return response
