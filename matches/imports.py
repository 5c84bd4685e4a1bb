"""The directors' page that imports a season's history from CSV (``season_history_import``).

The file is checked first (a dry run: nothing written) and the result shown: what would be
written, the players to be created, and every error by line and column. A file without errors
can then be imported: the page keeps its text in a hidden field, signed (``django.core.signing``,
for this season and this director, for two hours), so the file imported is the file checked
and nobody sends another in its place. A template file is offered for download.
"""

import csv
import io
from collections.abc import Iterable

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_GET, require_http_methods

from clubs.doors import club_for_director, doors
from clubs.models import Club, Season
from matches import season_csv
from matches.forms import HistoryFileForm
from matches.history_import import HistoryImport, HistoryRefused, season_history_import

SIGNED_FOR = 2 * 60 * 60
"""Seconds a checked file may wait for its import."""


def _salt(season: Season, user: AbstractBaseUser | AnonymousUser) -> str:
    return f"matches.imports:{season.pk}:{user.pk}"


def _column(key: str) -> str:
    """A column's header in the reader's language (``file``: the file itself)."""
    if key in season_csv.HEADERS:
        return gettext(season_csv.HEADERS[key])
    return gettext("File")


def _lines(errors: Iterable[season_csv.LineError]) -> list[dict[str, object]]:
    return [
        {"line": error.line, "column": _column(error.field), "message": error.message}
        for error in errors
    ]


def _report(report: HistoryImport) -> dict[str, object]:
    return {
        "report": report,
        "errors": _lines(report.errors),
        "notes": _lines(report.notes),
    }


@doors
@require_http_methods(["GET", "POST"])
def season_import(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """The form (a file to check), the check's result, and the import of a checked file."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    season = get_object_or_404(Season, pk=season_id, club=club)
    form = HistoryFileForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"club": club, "season": season, "form": form}
    status = 200
    if request.method == "POST" and "content" in request.POST:
        try:
            text = signing.loads(
                request.POST["content"], salt=_salt(season, request.user), max_age=SIGNED_FOR
            )
        except signing.BadSignature:
            form = HistoryFileForm()
            context["form"] = form
            context["expired"] = True
            return render(request, "matches/season_import.html", context, status=400)
        try:
            report = season_history_import(season=season, data=text, actor=request.user)
        except HistoryRefused as refused:
            context.update(_report(refused.report), form=HistoryFileForm())
            return render(request, "matches/season_import.html", context, status=400)
        messages.success(
            request,
            ngettext(
                "%(matches)s match of %(deals)s deals imported into %(season)s.",
                "%(matches)s matches of %(deals)s deals imported into %(season)s.",
                report.matches,
            )
            % {"matches": report.matches, "deals": report.deals, "season": season.name},
        )
        return redirect("scoring:ladder", club.slug, season.pk)
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data["file"].read(season_csv.MAX_BYTES + 1)
            report = season_history_import(
                season=season, data=data, actor=request.user, dry_run=True
            )
            context.update(_report(report))
            if not report.errors:
                context["content"] = signing.dumps(
                    season_csv.decode(data), salt=_salt(season, request.user), compress=True
                )
            else:
                status = 400
        else:
            status = 400
    return render(request, "matches/season_import.html", context, status=status)


@doors
@require_GET
def season_import_template(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """A CSV to fill in: the header in the reader's language and two example rows (a Chicago's
    first deal, with its high-card points at a club that plays par scoring, then a passed-out
    deal) on the season's first day."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    season = get_object_or_404(Season, pk=season_id, club=club)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow([_column(key) for key in season_csv.COLUMNS])
    day = season.start_date.isoformat()
    seats = ["Anna", "Ben", "Clara", "David"]
    writer.writerow([day, 1, "chicago", *seats, "4S", "N", 10, "N", 26 if club.scores_par else ""])
    writer.writerow([day, 1, "chicago", *seats, "pass", "", "", "E", ""])
    response = HttpResponse("\ufeff" + out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{club.slug}-history.csv"'
    return response
