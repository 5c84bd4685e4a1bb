"""Exports in the API: the lists a file is wanted of answer it in any format of the registry
(``clubs.exports.EXPORTERS``) that writes that kind of download, as well as JSON.

``?format=<key>`` (``?format=csv``, ``?format=xlsx``...) or an ``Accept`` header naming the
format's media type (``text/csv``...), on

    GET /api/v1/seasons/{id}/ladder/                   the whole ladder (``min_matches`` kept)
    GET /api/v1/seasons/{id}/players/{id}/history/     a player's season
    GET /api/v1/sessions/{id}/results/                 a session's results
    GET /api/v1/nights/{id}/results/                   a club night's results
    GET /api/v1/matches/{id}/deals/                    a match's deals as scored
    GET /api/v1/seasons/{id}/deals/                    every deal of the season (a file only)

answers the whole list (never a page of it) as a download, streamed, the same file as the
page's download (``clubs.exports``; the table of each is defined once, in its app's selectors),
a table's headers in the request's language (``Accept-Language``). DRF's content negotiation
chooses among the formats that write the view's kind of download (``exportable``): an unknown
``format`` is a 404 naming it, an Accept no renderer offers a 406; errors are always JSON.
"""

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404
from django.utils.translation import gettext
from rest_framework.exceptions import NotFound
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response

from clubs.exports import Download, Exporter, export_response, exporters


class ExportRenderer(BaseRenderer):
    """A download's format for content negotiation (``for_exporter``). Its views answer it
    themselves, streamed (``exportable``); any other answer of theirs (an error) is rendered
    as JSON."""

    charset: str | None = None
    exporter: Exporter

    def render(self, data, accepted_media_type=None, renderer_context=None):
        raise AssertionError("an export is answered by its view, streamed (api.exports)")

    @classmethod
    def for_exporter(cls, exporter: Exporter) -> "ExportRenderer":
        renderer = cls()
        renderer.exporter = exporter
        renderer.media_type = exporter.media_type
        renderer.format = exporter.key
        renderer.charset = exporter.charset
        return renderer


class ExportsMixin:
    """A view whose actions decorated with ``exportable`` also answer their download in each
    format that writes it."""

    export_only = False  # no JSON: the file is the answer

    def _export_kind(self) -> str | None:
        method = getattr(self, getattr(self, "action", None) or "", None)
        return getattr(method, "export_kind", None)

    def get_renderers(self):
        renderers = super().get_renderers()  # type: ignore[misc]
        kind = self._export_kind()
        if kind is None:
            return renderers
        files = [ExportRenderer.for_exporter(exporter) for exporter in exporters(kind)]
        return files if self.export_only else [*renderers, *files]

    def perform_content_negotiation(self, request, force=False):
        try:
            return super().perform_content_negotiation(request, force)  # type: ignore[misc]
        except Http404:
            kind = self._export_kind()
            fmt = request.query_params.get("format")
            if kind is None or not fmt:
                raise
            formats = [e.key for e in exporters(kind)] + ([] if self.export_only else ["json"])
            raise NotFound(
                {
                    "format": [
                        gettext("There is no download as %(format)s here; there is: %(formats)s.")
                        % {"format": fmt, "formats": ", ".join(formats)}
                    ]
                }
            ) from None

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


def exportable(kind: str, of: Callable[..., Any], table: Callable[..., Any]):
    """A view method that answers its download (kind ``kind``: "match", "night", "season"...,
    ``clubs.exports.Download``) when the request negotiated a file format, and as before
    otherwise (put it outside ``cached_read``: a download is not kept in the read cache).
    ``of(view, request, **kwargs)`` is what the download is of (the match...), ``table(view,
    request, subject)`` its table."""

    def decorate(method):
        @wraps(method)
        def view_method(view, request, *args, **kwargs):
            renderer = getattr(request, "accepted_renderer", None)
            if isinstance(renderer, ExportRenderer):
                paginator = getattr(view, "paginator", None)
                if paginator is not None and hasattr(paginator, "check_params"):
                    paginator.check_params(request)  # bad paging is a 400 here too
                subject = of(view, request, **kwargs)
                download = Download(kind, subject, lambda: table(view, request, subject))
                return export_response(download, renderer.format)
            return method(view, request, *args, **kwargs)

        view_method.export_kind = kind  # type: ignore[attr-defined]
        return view_method

    return decorate
