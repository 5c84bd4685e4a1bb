"""Exports in the API: the lists a spreadsheet is wanted of answer CSV or XLSX as well as JSON.

``?format=csv`` or ``?format=xlsx``, or ``Accept: text/csv`` or ``Accept: application/vnd.
openxmlformats-officedocument.spreadsheetml.sheet``, on

    GET /api/v1/seasons/{id}/ladder/                   the whole ladder (``min_matches`` kept)
    GET /api/v1/seasons/{id}/players/{id}/history/     a player's season
    GET /api/v1/sessions/{id}/results/                 a session's results
    GET /api/v1/nights/{id}/results/                   a club night's results
    GET /api/v1/matches/{id}/deals/                    a match's deals as scored
    GET /api/v1/seasons/{id}/deals/                    every deal of the season (CSV or XLSX only)

answers the whole list (never a page of it) as a download, streamed, with the same columns as
the page's download (``clubs.exports``; the export of each is defined once, in its app's
selectors), the headers in the request's language (``Accept-Language``). DRF's content
negotiation chooses: an unknown ``format`` is a 404, an Accept no renderer offers a 406. The
views name the formats in ``export_actions``; errors are always JSON.
"""

from collections.abc import Callable
from functools import wraps

from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from clubs.exports import MEDIA_TYPES, Export, export_response


class ExportRenderer(BaseRenderer):
    """A download's format for content negotiation. Its views answer it themselves, streamed
    (``exportable``); any other answer of theirs (an error) is rendered as JSON."""

    charset: str | None = None

    def render(self, data, accepted_media_type=None, renderer_context=None):
        raise AssertionError("an export is answered by its view, streamed (api.exports)")


class CSVRenderer(ExportRenderer):
    media_type = MEDIA_TYPES["csv"]
    format = "csv"
    charset = "utf-8"


class XLSXRenderer(ExportRenderer):
    media_type = MEDIA_TYPES["xlsx"]
    format = "xlsx"


class ExportsMixin:
    """A view whose ``export_actions`` also answer CSV and XLSX (``exportable``)."""

    export_actions: tuple[str, ...] = ("list",)
    export_only = False  # no JSON: the file is the answer

    def get_renderers(self):
        renderers = super().get_renderers()  # type: ignore[misc]
        if getattr(self, "action", None) not in self.export_actions:
            return renderers
        exports = [CSVRenderer(), XLSXRenderer()]
        return exports if self.export_only else [*renderers, *exports]

    def finalize_response(self, request, response, *args, **kwargs):
        renderer = getattr(request, "accepted_renderer", None)
        if isinstance(response, Response) and (
            renderer is None or isinstance(renderer, ExportRenderer)
        ):
            # An error (an export is no Response; None: the Accept header was refused, 406):
            # JSON, as every error of the API.
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().finalize_response(request, response, *args, **kwargs)  # type: ignore[misc]


def exportable(build: Callable[..., Export]):
    """A view method that answers ``build(view, request, **kwargs)`` as a download when the
    request negotiated CSV or XLSX, and as before otherwise (put it outside ``cached_read``:
    a download is not kept in the read cache)."""

    def decorate(method):
        @wraps(method)
        def view_method(view, request, *args, **kwargs):
            renderer = getattr(request, "accepted_renderer", None)
            if isinstance(renderer, ExportRenderer):
                paginator = getattr(view, "paginator", None)
                if paginator is not None and hasattr(paginator, "check_params"):
                    paginator.check_params(request)  # bad paging is a 400 here too
                return export_response(build(view, request, **kwargs), renderer.format)
            return method(view, request, *args, **kwargs)

        return view_method

    return decorate
