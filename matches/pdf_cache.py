"""Score sheet PDFs kept in the shared cache.

WeasyPrint takes about a quarter of a second to draw a sheet, so the PDF of a complete match
is kept, per match, paper size and language, and sent again while the match and its club are
unchanged: it is stored with the generations (``clubs.generations``) of the club and of the
match, read before it was drawn, as the API's read cache stores its answers. Every write
through the services renews them: a correction the match's, a club option or a player's name
the club's. An in-progress match changes with every deal; its PDF is drawn each time.

On with the API's read cache (``API_READ_CACHE``: a cache every process shares); entries
expire after ``API_READ_CACHE_SECONDS``. If the cache fails, the PDF is drawn.
"""

import logging
from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import get_language

from clubs.generations import generations
from matches.models import Match, MatchStatus

logger = logging.getLogger(__name__)


def sheet_pdf_cached(*, match: Match, paper: str, draw: Callable[[], bytes]) -> bytes:
    """The PDF of ``match`` on ``paper`` in the active language: the copy kept for a complete
    match, else ``draw()``, which must read the match afresh (it runs after the generations
    are read, so a change committed meanwhile leaves its copy stale)."""
    if not settings.API_READ_CACHE or match.status != MatchStatus.COMPLETE:
        return draw()
    key = ":".join(
        (settings.API_READ_CACHE_NAMESPACE, "sheet-pdf", str(match.pk), paper, get_language())
    )
    scopes = [("club", match.table.session.club_id), ("match", match.pk)]
    try:
        tokens, found = generations(scopes, read_also=[key])
    except Exception:
        logger.warning("the PDF cache failed; drawing the PDF", exc_info=True)
        return draw()
    entry = found.get(key)
    if entry is not None and entry[0] == tokens:
        return entry[1]
    pdf = draw()
    try:
        cache.set(key, (tokens, pdf), timeout=settings.API_READ_CACHE_SECONDS)
    except Exception:
        logger.warning("could not keep a PDF in the cache", exc_info=True)
    return pdf
