"""Drawing a page as a PDF, for every app that prints: the score sheet (``matches.views``),
a club night's cards, sheets and results (``nights.prints``) and a season's ladder
(``scoring.views``).

The PDF is WeasyPrint's drawing of a page's HTML with the pages' own stylesheet (its print
rules) on A4, or on Letter where the club's country uses it; ``?paper=a4|letter`` chooses.
"""

import logging

from django.contrib.staticfiles import finders
from django.http import HttpResponse
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


def paper_of(request, club: Club) -> str:
    """The paper the request asks for (``?paper=a4|letter``), else the club's usual one."""
    paper = request.GET.get("paper", "").lower()
    return paper if paper in PAPER_SIZES else default_paper(club)


def draw_pdf(request, html: str, paper: str) -> bytes:
    """``html`` drawn as a PDF on ``paper`` with 12 mm margins."""
    import weasyprint  # imported here: only the PDF views need it, and it is slow to import

    stylesheets = [
        weasyprint.CSS(filename=finders.find("css/partscore.css")),
        weasyprint.CSS(string=f"@page {{ size: {PAPER_SIZES[paper]}; margin: 12mm; }}"),
    ]
    return weasyprint.HTML(string=html, base_url=request.build_absolute_uri("/")).write_pdf(
        stylesheets=stylesheets
    )


def pdf_response(pdf: bytes, name: str) -> HttpResponse:
    """``pdf`` as a download named ``name`` (slugified) ``.pdf``."""
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="{slugify(name)}.pdf"'
    return response
