"""Match pages: the session sheet of one evening, the score sheet (page and PDF), the table page
where a director enters each deal, and the form that starts a match.

The views only read through ``matches.selectors`` and write through ``matches.services``;
the figures on every page are the rules engine's (``match_sheet``).
"""

import re
import secrets
from collections.abc import Callable, Mapping
from datetime import date
from functools import partial
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from clubs import live
from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.doors import club_for_director, club_for_reader, doors
from clubs.exports import Download, export_response
from clubs.models import Club, Session, Table
from clubs.selectors import can_direct
from matches import presenters, selectors, services
from matches.forms import DealForm, GuestForm, MatchForm
from matches.models import SEAT_FIELDS, Match, MatchStatus
from matches.pdf import draw_pdf, paper_checked, paper_of, pdf_response
from matches.pdf_cache import sheet_pdf_cached
from scoring.engine import Kind, Seat


def _session(request: HttpRequest, slug: str, day: date) -> tuple[Club, Session]:
    """The club (if the request may read it) and its session on ``day``."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    # "night": the session's club night, if it is one, for the link to it (a reverse relation
    # named here, not imported: matches knows nothing of nights).
    sessions = Session.objects.select_related("club", "season", "night")
    return club, get_object_or_404(sessions, club=club, date=day)


@doors
def session_export(request: HttpRequest, slug: str, day: date, fmt: str) -> HttpResponseBase:
    """The session's results (the session sheet's players) in the format ``fmt``."""
    _club, session = _session(request, slug, day)
    table = partial(selectors.session_results_export, session=session)
    return export_response(Download("session", session, table), fmt)


PLAYERS_SHOWN = 50
"""The ranked lines a session sheet shows unless asked for all (``?players=all``)."""
TABLES_PER_PAGE = 32
"""The tables a page of a session sheet lists (a club night has 15 at most: one page)."""


@doors
def session_sheet(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """An evening: the night's results (each player ranked; the first ``PLAYERS_SHOWN`` unless
    ``?players=all``), then its tables with their matches, ``TABLES_PER_PAGE`` a page
    (``?page=``): the 512-match evening of the benchmark history was 1.07 MB and 400 ms in
    full (bench/pages.py)."""
    club, session = _session(request, slug, day)
    tables, players = selectors.session_results(session_id=session.pk)
    is_director = can_direct(request.user, club.pk)
    every_player = request.GET.get("players") == "all"
    shown = players if every_player else players[:PLAYERS_SHOWN]
    page = Paginator(tables, TABLES_PER_PAGE).get_page(request.GET.get("page"))
    # A big club's evening has 2,500 links: each written here, from one reverse per kind.
    player_url = id_url("scoring:player", club.slug)
    sheet_url, table_url = id_url("matches:sheet"), id_url("matches:table")
    for line in shown:
        line["url"] = f"{player_url(line['player_id'])}?season={session.season_id}"
    for table in page.object_list:
        for match in table["matches"]:
            match["url"] = sheet_url(match["id"])
            if is_director and match["status"] == MatchStatus.IN_PROGRESS:
                match["table_url"] = table_url(match["id"])
    return render(
        request,
        "clubs/session_sheet.html",
        {
            "club": club,
            "session": session,
            "tables": page.object_list,
            "page": page,
            "players": shown,
            "players_count": len(players),
            "players_query": "players=all&" if every_player else "",
            "is_director": is_director,
            "par": selectors.session_read_by_par(tables),
        },
    )


def id_url(name: str, *args: object) -> Callable[[int], str]:
    """``reverse(name, args=[*args, pk])`` as a function of ``pk``, an integer, for the cost of
    one ``reverse``: for a page that links many objects of one kind."""
    marker = "2147483647"
    head, tail = reverse(name, args=[*args, int(marker)]).rsplit(marker, 1)
    return lambda pk: f"{head}{pk}{tail}"


def _match(pk: int) -> Match:
    match = selectors.match_with_players(match_id=pk)
    if match is None:
        raise Http404
    return match


def _sheet_context(request: HttpRequest, match: Match) -> dict[str, Any]:
    club = match.table.session.club
    return {
        "match": match,
        "club": club,
        "session": match.table.session,
        "sheet": selectors.match_sheet(match=match),
        "is_director": can_direct(request.user, club.pk),
    }


def par_guide(request: HttpRequest) -> HttpResponse:
    """How par scoring reads a deal (docs/rules.md, "Par scoring"), for players: the method,
    the standard table, the IMP scale and the worked examples, each figure the engine's."""
    return render(
        request,
        "matches/par_guide.html",
        {
            "examples": presenters.par_examples(),
            "expected_rows": presenters.par_expected_rows(),
            "imp_rows": presenters.imp_scale_rows(),
        },
    )


@doors
@live.polled
def match_sheet(request: HttpRequest, pk: int) -> HttpResponseBase:
    """The score sheet of one match, printable on one page. Its head and sheet are a live
    region (``clubs.live``): ``?live=1`` answers that fragment alone, with an ETag from the
    club's and the match's generations and the match's last change as Last-Modified, and a
    304 while neither changed (the sheet is then not computed)."""
    match = _match(pk)
    club = club_for_reader(request, match.table.session.club)
    return live.live_view(
        request,
        page="matches/sheet.html",
        fragment="matches/_sheet_live.html",
        context=lambda: _sheet_context(request, match),
        scopes=[("club", club.pk), ("match", match.pk)],
        last_modified=match.updated_at,
    )


@doors
@paper_checked
def match_sheet_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    """The score sheet as a PDF of one page (A4, or Letter with ?paper=letter); a complete
    match's is kept in the cache (``matches.pdf_cache``)."""
    match = _match(pk)
    club = club_for_reader(request, match.table.session.club)
    paper = paper_of(request, club)
    context = {**_sheet_context(request, match), "pdf": True}
    html = render_to_string("matches/sheet_pdf.html", context, request=request)
    pdf = sheet_pdf_cached(
        match=match, paper=paper, html=html, draw=lambda: draw_pdf(request, html, paper)
    )
    session = match.table.session
    return pdf_response(
        pdf, f"{club.slug} {session.date.isoformat()} table {match.table.number} {pk}"
    )


@doors
def match_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponseBase:
    """The match's score sheet, a line a deal, in the format ``fmt``."""
    match = _match(pk)
    club_for_reader(request, match.table.session.club)
    table = partial(selectors.match_deals_export, match=match)
    return export_response(Download("match", match, table), fmt)


# --- The table page ----------------------------------------------------------------------


def _table_context(
    request: HttpRequest,
    match: Match,
    *,
    form: DealForm | None = None,
    fix_form: DealForm | None = None,
    fix_open: bool = False,
    confirm: str = "",
    fix: int | None = None,
) -> dict[str, Any]:
    """``confirm`` ("delete", "finish" or "abandon") asks the director before that action;
    ``fix`` is the entry the correction form is for (the last one unless another exists)."""
    context = _sheet_context(request, match)
    sheet = context["sheet"]
    deals = list(match.deals.order_by("sequence"))
    last = deals[-1] if deals else None
    fixed = deals[fix - 1] if fix is not None and 1 <= fix <= len(deals) else last
    open_for_deals = match.status == "in_progress" and sheet.next_deal is not None
    if form is None and open_for_deals:
        form = DealForm(match=match, initial={"expected_sequence": len(deals) + 1})
    if fix_form is None and fixed is not None:  # fixed is None only when last is
        fix_form = DealForm(
            match=match, prefix="fix", initial=DealForm.initial_from(fixed, sequence=fixed.sequence)
        )
    last_row = sheet.rows[-1] if sheet.rows else None
    counted = sum(1 for row in sheet.rows if row.number is not None)
    context.update(
        {
            "form": form if open_for_deals else None,
            "fix_form": fix_form if match.status != "abandoned" else None,
            "fix_open": fix_open or bool(confirm),
            "confirm": confirm,
            "last_deal": last,
            "last_row": last_row,
            "last_number": presenters.deal_number(sheet, last.sequence) if last else None,
            "fix_number": presenters.deal_number(sheet, fixed.sequence) if fixed else None,
            "fix_choices": [
                (row.sequence, presenters.deal_number(sheet, row.sequence), row)
                for row in sheet.rows
            ],
            "fix_sequence": fixed.sequence if fixed else None,
            "next_deal": sheet.next_deal if open_for_deals else None,
            "deals_left": 4 - counted if match.kind == "chicago" else None,
            "can_finish": match.kind != "chicago" and match.status == "in_progress",
            "can_abandon": match.status == "in_progress",
            "next_match_url": next_match_url(match) if match.status == "complete" else None,
            "seated_elsewhere": (
                selectors.seated_elsewhere(match=match) if match.status == "in_progress" else []
            ),
        }
    )
    return context


def _render_table(
    request: HttpRequest, match: Match, status: int = 200, **kwargs: Any
) -> HttpResponse:
    return render(
        request, "matches/table.html", _table_context(request, match, **kwargs), status=status
    )


_ALREADY_RECORDED = gettext_lazy(
    "Deal %(expected)s was already recorded (someone else may have entered it); the next deal "
    "is %(next)s."
)


@doors
@require_http_methods(["GET", "POST"])
def table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The page on the table: what the next deal is, the score so far, the form for it."""
    match = _match(pk)
    club_for_director(request, match.table.session.club)
    if request.method == "GET":
        fix = _posted_int(request.GET, "fix")
        return _render_table(request, match, fix=fix, fix_open=fix is not None)
    form = DealForm(request.POST, match=match)
    if not form.is_valid():
        return _render_table(request, match, status=400, form=form)
    try:
        sequence = form.cleaned_data["expected_sequence"]
        scored = services.deal_record(
            match=match, expected_sequence=sequence, actor=request.user, **form.service_arguments()
        )
    except ValidationError as error:
        form.add_service_error(error)
        return _render_table(request, _match(pk), status=400, form=form)
    except services.MatchConflict as error:
        match = _match(pk)
        sheet = selectors.match_sheet(match=match)
        if sequence <= len(sheet.rows) and sheet.next_deal is not None:
            # In the numbers the page shows (a passed-out Chicago deal is not counted).
            numbers = {
                "expected": presenters.deal_number(sheet, sequence),
                "next": sheet.next_deal.number,
            }
            form.add_error(None, _ALREADY_RECORDED % numbers)
        else:
            form.add_error(None, str(error))
        return _render_table(request, match, status=409, form=form)
    next_deal = selectors.match_sheet(match=_match(pk)).next_deal
    messages.success(request, presenters.recorded_text(scored.row, next_deal))
    return redirect("matches:table", pk=pk)


@doors
@require_POST
def table_correct(request: HttpRequest, pk: int) -> HttpResponse:
    """A director corrects a deal (later deals are re-scored). The page posts the last
    entry it showed as ``seen_last``: a correction of that deal is refused if another was
    recorded meanwhile (without ``seen_last``, only the last deal may be corrected)."""
    match = _match(pk)
    club_for_director(request, match.table.session.club)
    fix_form = DealForm(request.POST, match=match, prefix="fix")
    fix = _posted_int(request.POST, fix_form.add_prefix("expected_sequence"))
    again = {"fix_form": fix_form, "fix_open": True, "fix": fix}
    if not fix_form.is_valid():
        return _render_table(request, match, status=400, **again)
    sequence = fix_form.cleaned_data["expected_sequence"]
    seen_last = _posted_int(request.POST, "seen_last")
    try:
        services.deal_correct(
            match=match,
            sequence=sequence,
            # checked under the match's lock: a deal may be recorded meanwhile
            last_only=seen_last is None or seen_last == sequence,
            actor=request.user,
            **fix_form.service_arguments(),
        )
    except ValidationError as error:
        fix_form.add_service_error(error)
        return _render_table(request, _match(pk), status=400, **again)
    except services.MatchConflict as error:
        fix_form.add_error(None, str(error))
        return _render_table(request, _match(pk), status=409, **again)
    sheet = selectors.match_sheet(match=_match(pk))
    number = presenters.deal_number(sheet, fix_form.cleaned_data["expected_sequence"])
    messages.success(
        request, gettext("Deal %(n)s corrected; later deals re-scored.") % {"n": number}
    )
    return redirect("matches:table", pk=pk)


@doors
@require_POST
def table_delete_last(request: HttpRequest, pk: int) -> HttpResponse:
    """A director takes back the last deal entered."""
    match = _match(pk)
    club_for_director(request, match.table.session.club)
    if request.POST.get("confirm") != "1":
        return _render_table(request, match, confirm="delete")
    try:
        services.deal_delete_last(
            match=match, sequence=_posted_int(request.POST, "sequence"), actor=request.user
        )
    except (ValidationError, services.MatchConflict) as error:
        return _render_table(request, _match(pk), status=409, **_error_form(match, error))
    messages.success(request, gettext("The last deal was deleted."))
    return redirect("matches:table", pk=pk)


@doors
@require_POST
def table_finish(request: HttpRequest, pk: int) -> HttpResponse:
    """A director ends an unfinished rubber; it is scored by the Laws."""
    match = _match(pk)
    club_for_director(request, match.table.session.club)
    if request.POST.get("confirm") != "1":
        return _render_table(request, match, confirm="finish")
    try:
        services.match_finish(match=match, actor=request.user)
    except (ValidationError, services.MatchConflict) as error:
        return _render_table(request, _match(pk), status=409, **_error_form(match, error))
    messages.success(request, gettext("The rubber was finished and scored by the Laws."))
    return redirect("matches:table", pk=pk)


@doors
@require_POST
def table_abandon(request: HttpRequest, pk: int) -> HttpResponse:
    """A director ends a match that cannot finish (time is up, a player is ill): it is
    abandoned, keeps its deals and counts for nothing; a club night's next round no longer
    waits for it. Asked first."""
    match = _match(pk)
    club_for_director(request, match.table.session.club)
    if request.POST.get("confirm") != "1":
        return _render_table(request, match, confirm="abandon")
    try:
        services.match_abandon(match=match, actor=request.user)
    except (ValidationError, services.MatchConflict) as error:
        return _render_table(request, _match(pk), status=409, **_error_form(match, error))
    messages.success(request, gettext("The match was ended: it is abandoned and not counted."))
    return redirect("matches:table", pk=pk)


def _posted_int(data: Mapping[str, str], name: str) -> int | None:
    """A whole number posted as ``name``, or None (absent or not a number)."""
    try:
        return int(data.get(name, ""))
    except ValueError:
        return None


def _error_form(match: Match, error: Exception) -> dict[str, Any]:
    """A deal form carrying ``error`` at its top, for the actions that have no form."""
    texts = error.messages if isinstance(error, ValidationError) else [str(error)]
    fix_form = DealForm(match=match, prefix="fix", data={})
    fix_form.is_valid()
    fix_form.errors.clear()
    for message in texts:
        fix_form.add_error(None, message)
    return {"fix_form": fix_form, "fix_open": True}


# --- A new match ---------------------------------------------------------------------------


def _match_choices(data: Mapping[str, str]) -> dict[str, str]:
    """What a director chose so far on the new-match form (posted, or in the query string),
    and the table the match is to be played at, when it is one already in use."""
    return {name: data[name] for name in [*MatchForm.base_fields, "table"] if data.get(name)}


def _chosen_table(data: Mapping[str, str]) -> Table | None:
    """The table posted (or in the query string) as ``table``; None if there is none such.
    ``match_create`` refuses a table of another club."""
    try:
        pk = int(data.get("table", ""))
    except ValueError:
        return None
    return Table.objects.select_related("session").filter(pk=pk).first()


def next_match_url(match: Match) -> str:
    """The new-match form for the next match at ``match``'s table: the same kind and
    players in the same seats, on the same day."""
    table = match.table
    choices = {"kind": match.kind, "played_on": table.session.date.isoformat()}
    for field in SEAT_FIELDS.values():
        if getattr(match, f"{field}_id"):
            choices[field] = str(getattr(match, f"{field}_id"))
    choices["table"] = str(table.pk)
    return _match_new_url(table.session.club, choices)


def _match_new_url(club: Club, choices: Mapping[str, str]) -> str:
    url = reverse("matches:new", kwargs={"slug": club.slug})
    return f"{url}?{urlencode(choices)}" if choices else url


def _season_offer(
    club: Club, day: date | None, choices: Mapping[str, str]
) -> dict[str, object] | None:
    """When no season of the club covers ``day``: the link to create one that does, coming
    back to this form with the same choices."""
    if day is None or club_selectors.season_covering(club, day) is not None:
        return None
    query = urlencode({"date": day.isoformat(), "next": _match_new_url(club, choices)})
    return {"date": day, "url": f"{reverse('clubs:season_new', args=[club.slug])}?{query}"}


def _form_token(data: Mapping[str, str]) -> str | None:
    """The new-match form's one-time token (``match_create_once``), when well formed."""
    token = data.get("form_token", "")
    return token if re.fullmatch(r"[A-Za-z0-9_-]{16,32}", token) else None


def _render_new(
    request: HttpRequest,
    club: Club,
    form: MatchForm,
    guest_form: GuestForm | None = None,
    season_offer: dict[str, object] | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "club": club,
        "form": form,
        "form_token": secrets.token_urlsafe(16),  # a new one each time the form is shown
        "table": _chosen_table(request.GET if request.method == "GET" else request.POST),
        "guest_form": guest_form or GuestForm(),
        "season_offer": season_offer,
    }
    return render(request, "matches/new.html", context, status=status)


def _add_guest(request: HttpRequest, club: Club) -> HttpResponse:
    """A guest (a new player of the club) added from the new-match form, then seated in its
    first empty seat; the director's other choices are kept."""
    choices = _match_choices(request.POST)
    guest_form = GuestForm(request.POST)
    if guest_form.is_valid():
        try:
            guest = club_services.player_create(
                club=club, name=guest_form.cleaned_data["name"], actor=request.user
            )
        except ValidationError as error:
            guest_form.add_service_error(error)
        else:
            fields = list(SEAT_FIELDS.values())
            if choices.get("kind") == Kind.TWO_PLAYER:
                fields = [SEAT_FIELDS[Seat.N], SEAT_FIELDS[Seat.E]]
            empty = [field for field in fields if field not in choices]
            if empty:
                choices[empty[0]] = str(guest.pk)
            return redirect(_match_new_url(club, choices))
    form = MatchForm(club=club, today=club.today(), initial=choices)
    return _render_new(request, club, form, guest_form=guest_form, status=400)


@doors
@require_http_methods(["GET", "POST"])
def match_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A director starts a match: the kind, the players in their seats, the first dealer. A
    guest's name typed on the form adds them to the club first (``_add_guest``)."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    if request.method == "GET":
        initial = _match_choices(request.GET)
        return _render_new(request, club, MatchForm(club=club, today=club.today(), initial=initial))
    if "add_guest" in request.POST or request.POST.get(GuestForm().add_prefix("name"), "").strip():
        return _add_guest(request, club)
    form = MatchForm(request.POST, club=club, today=club.today())
    offer = None
    if form.is_valid():
        data = form.cleaned_data
        try:
            match, _started = services.match_create_once(
                token=_form_token(request.POST),
                club=club,
                kind=data["kind"],
                seats=form.seats(),
                first_dealer=data["first_dealer"],
                played_on=data["played_on"],
                table=_chosen_table(request.POST),
                actor=request.user,
            )
        except ValidationError as error:
            if "played_on" in getattr(error, "error_dict", {}):
                offer = _season_offer(club, data["played_on"], _match_choices(request.POST))
            form.add_service_error(error)
        else:
            return redirect(reverse("matches:table", kwargs={"pk": match.pk}))
    return _render_new(request, club, form, season_offer=offer, status=400)
