"""Score sheet PDFs kept in the shared cache.

WeasyPrint takes about a quarter of a second to draw a sheet, so the PDF of a complete match
is kept, keyed by the match, the paper size and the HTML it is drawn from, and sent again while
that HTML is the same: any change the sheet shows (a correction, a club option that re-scores
it, a player's new name, another language) makes new HTML, so a new PDF. An in-progress match
changes with every deal; its PDF is drawn each time.

On with the API's read cache (``API_READ_CACHE``: a cache every process shares); entries
expire after ``API_READ_CACHE_SECONDS``. If the cache fails, the PDF is drawn.
"""

import hashlib
import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache

from matches.models import Match, MatchStatus

logger = logging.getLogger(__name__)


def sheet_pdf_cached(*, match: Match, paper: str, html: str, draw: Callable[[], bytes]) -> bytes:
    """The PDF of ``match`` on ``paper`` drawn from ``html``: the copy kept for a complete
    match, else ``draw()``."""
    if not settings.API_READ_CACHE or match.status != MatchStatus.COMPLETE:
        return draw()
    digest = hashlib.sha256(html.encode()).hexdigest()
    key = ":".join((settings.API_READ_CACHE_NAMESPACE, "sheet-pdf", str(match.pk), paper, digest))
    try:
        pdf: bytes | None = cache.get(key)
    except Exception:
        logger.warning("the PDF cache failed; drawing the PDF", exc_info=True)
        return draw()
    if pdf is None:
        pdf = draw()
        try:
            cache.set(key, pdf, timeout=settings.API_READ_CACHE_SECONDS)
        except Exception:
            logger.warning("could not keep a PDF in the cache", exc_info=True)
    return pdf
