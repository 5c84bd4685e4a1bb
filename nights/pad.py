"""The players' pad: the pages a table's players open on their phones, without an account,
through the table's code (``nights.models.TableCode``), to enter the deals of the match now at
their table and to confirm or reject the deals the other side entered.

The code gives one power and no other: the session of a phone that opened it keeps only the
code's id (``SESSION_CODE``) and where its table is (``SESSION_TABLE``), which these views
alone read, and every write goes through ``nights.services`` with that code, which refuses
anything that is not the match now at its table. The link's token is not kept in the address
bar: ``/t/<token>/`` opens the table and redirects to ``/table/``. The pad polls its panel
every 5 s (static/js/pad.js, which skips a poll while a deal is being typed); without
JavaScript a reload shows the same.
"""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from rest_framework.throttling import BaseThrottle

from clubs.generations import table_scope
from clubs.live import conditional, generation_etag, not_modified, page_parts
from matches import presenters
from matches.forms import DealForm
from matches.models import Match, MatchStatus
from matches.selectors import match_par, match_sheet
from matches.services import MatchConflict
from nights import selectors, services, table_selectors
from nights.models import EntryState, Side, TableCode, TableEntry
from nights.pad_forms import AnswerForm, CodeForm, PadDealForm
from scoring.engine import Sheet, row_readings

SESSION_CODE = "pad_code"
"""The session key of the table code a phone opened: its id, nothing else."""
SESSION_TABLE = "pad_table"
"""Where the opened code's table is: its club's id, its session's id and its number, which
never change for a code (what a poll asks the cache about, ``_poll_etag``)."""
SESSION_PLAYER = "pad_player"
"""The player last chosen as "Entered by" on this phone."""
POLL_SECONDS = 5
"""How often the pad asks for news (settings.PAD_POLL_SECONDS may say otherwise: tests)."""


def client_of(request: HttpRequest) -> str:
    """Who asks, for the codes' lockout: the client's address as the throttles read it."""
    # The stubs ask for DRF's Request: get_ident reads request.META alone, as Django's has it.
    return BaseThrottle().get_ident(request)  # type: ignore[arg-type]


def _open(request: HttpRequest, code: TableCode) -> HttpResponse:
    """Keep the opened code in a new session (its key rotated), then show the table."""
    request.session.cycle_key()
    request.session[SESSION_CODE] = code.pk
    _keep_table(request, code)
    request.session.pop(SESSION_PLAYER, None)
    return redirect("nights:pad")


def _keep_table(request: HttpRequest, code: TableCode) -> None:
    session = code.night.session
    request.session[SESSION_TABLE] = [session.club_id, session.pk, code.table_number]


def _render_code(
    request: HttpRequest, form: CodeForm, status: int = 200, **more: object
) -> HttpResponse:
    return render(request, "nights/pad/code.html", {"form": form, **more}, status=status)


def _refused_status(error: ValidationError) -> int:
    """A client locked out before it asked, or while typed codes are paused, is told 429 (Too
    Many Requests)."""
    codes = {item.code for items in error.error_dict.values() for item in items}
    return 429 if codes & {"locked_out", "paused"} else 400


@never_cache
@require_http_methods(["GET", "POST"])
def pad_code(request: HttpRequest) -> HttpResponse:
    """``/t/``: the table's code typed by hand."""
    if request.method == "GET":
        return _render_code(request, CodeForm())
    form = CodeForm(request.POST)
    if not form.is_valid():
        return _render_code(request, form, status=400)
    try:
        code = services.table_code_open(code=form.cleaned_data["code"], client=client_of(request))
    except ValidationError as error:
        form.add_service_error(error)
        return _render_code(request, form, status=_refused_status(error))
    return _open(request, code)


@never_cache
@require_GET
def pad_open(request: HttpRequest, token: str) -> HttpResponse:
    """``/t/<token>/``: the table card's QR code. Opens the table and leaves the address."""
    try:
        code = services.table_code_open(code=token, client=client_of(request), typed=False)
    except ValidationError as error:
        link_errors = [m for messages_ in error.message_dict.values() for m in messages_]
        return _render_code(request, CodeForm(), status=404, link_errors=link_errors)
    return _open(request, code)


def _session_code(request: HttpRequest) -> tuple[TableCode | None, bool]:
    """The live code this session opened, and whether it opened one at all."""
    pk = request.session.get(SESSION_CODE)
    if pk is None:
        return None, False
    code = services.table_code_live(code_id=pk) if isinstance(pk, int) else None
    if code is not None and SESSION_TABLE not in request.session:  # opened before it was kept
        _keep_table(request, code)
    return code, True


def _side_of_seat(seat: str) -> str:
    return Side.NS if seat in "NS" else Side.EW


def _entered_by(match: Match, entry: TableEntry) -> str:
    """Who entered ``entry``, by the seat they play at ``match``: "North"."""
    for seat, pk in match.seat_ids.items():
        if pk == entry.entered_by_id:
            return presenters.seat_name(seat)
    return entry.entered_by.name


def _entry_words(pending: table_selectors.Pending) -> str:
    """The deal an entry says, in words: "4 spades, N +1", "passed out"."""
    if pending.row is not None:
        return presenters.row_words(pending.row)
    entry = pending.entry
    if entry.passed_out:
        return gettext("passed out")
    return f"{entry.contract} {entry.declarer} {entry.tricks}"


def _waiting_words(
    match: Match, sheet: Sheet, pending: table_selectors.Pending, sequence: int | None = None
) -> str:
    """What waits at the table, who entered it and who must answer: "North entered deal 2
    (4 spades, N =): waiting for East-West to accept it." (``sequence``: the deal this phone
    was entering, said "this deal" when it is the one waiting)."""
    entry = pending.entry
    words = {
        "seat": _entered_by(match, entry),
        "n": presenters.deal_number(sheet, entry.sequence),
        "deal": _entry_words(pending),
        "side": presenters.side_name(entry.other_side),
    }
    if entry.correction:
        text = gettext(
            "%(seat)s entered a correction of deal %(n)s (%(deal)s): "
            "waiting for %(side)s to accept it."
        )
    elif entry.sequence == sequence:
        text = gettext("%(seat)s entered this deal (%(deal)s): waiting for %(side)s to accept it.")
    else:
        text = gettext("%(seat)s entered deal %(n)s (%(deal)s): waiting for %(side)s to accept it.")
    return text % words


def _conflict(match: Match, sequence: int, *, correcting: bool) -> str | None:
    """Why a deal entered on this phone waits: another phone entered one first, and it waits
    for the opponents (None when nothing waits)."""
    waiting = next(
        (
            p
            for p in table_selectors.pending_entries(matches=[match])[match.pk]
            if p.entry.state == EntryState.WAITING
        ),
        None,
    )
    if waiting is None:
        return None
    sheet = match_sheet(match=match)
    text = _waiting_words(match, sheet, waiting, None if correcting else sequence)
    if waiting.entry.sequence == sequence and not waiting.entry.correction and not correcting:
        return text
    after = (
        gettext("Enter your correction once it is answered.")
        if correcting
        else gettext("Enter your deal once it is answered.")
    )
    return f"{text} {after}"


def _last_answer(match: Match, sheet: Sheet) -> tuple[str, str] | None:
    """The table's latest answer to a deal entered there (accepted, rejected or withdrawn),
    as (a key, what it says): a phone that did not give it announces it."""
    entry = (
        TableEntry.objects.filter(
            match=match,
            state__in=[EntryState.CONFIRMED, EntryState.REJECTED, EntryState.WITHDRAWN],
            decided_at__isnull=False,
        )
        .order_by("-decided_at", "-id")
        .first()
    )
    if entry is None:
        return None
    words = {
        "n": presenters.deal_number(sheet, entry.sequence),
        "side": presenters.side_name(
            entry.side if entry.state == EntryState.WITHDRAWN else entry.other_side
        ),
    }
    if entry.state == EntryState.CONFIRMED:
        text = (
            gettext("%(side)s accepted the correction of deal %(n)s.")
            if entry.correction
            else gettext("%(side)s accepted deal %(n)s.")
        )
    elif entry.state == EntryState.REJECTED:
        text = (
            gettext("%(side)s rejected the correction of deal %(n)s.")
            if entry.correction
            else gettext("%(side)s rejected deal %(n)s.")
        )
    else:
        text = (
            gettext("%(side)s withdrew the correction of deal %(n)s.")
            if entry.correction
            else gettext("%(side)s withdrew deal %(n)s.")
        )
    return f"{entry.pk}-{entry.state}", text % words


def _deal_initial(request: HttpRequest, match: Match, **initial: object) -> dict[str, object]:
    player = request.session.get(SESSION_PLAYER)
    if player in match.seat_ids.values():
        initial["entered_by"] = player
    return {"match": match.pk, **initial}


def _pad_context(
    request: HttpRequest,
    code: TableCode,
    *,
    form: PadDealForm | None = None,
    fix_form: PadDealForm | None = None,
    answer_form: AnswerForm | None = None,
    conflict: str | None = None,
) -> dict[str, Any]:
    night = code.night
    context: dict[str, Any] = {
        "code": code,
        "night": night,
        "session": night.session,
        "club": night.session.club,
        "poll_seconds": getattr(settings, "PAD_POLL_SECONDS", POLL_SECONDS),
        "answer_form": answer_form,
        "conflict": conflict,
    }
    match = table_selectors.current_match(code=code)
    context["match"] = match
    if match is None:
        return context
    sheet = match_sheet(match=match)
    deals = list(match.deals.order_by("sequence"))
    pending = table_selectors.pending_entries(matches=[match])[match.pk]
    waiting = next((p for p in pending if p.entry.state == EntryState.WAITING), None)
    rejected = [p for p in pending if p.entry.state == EntryState.REJECTED]
    in_progress = match.status == MatchStatus.IN_PROGRESS
    open_for_deals = in_progress and sheet.next_deal is not None and waiting is None
    # The latest deal rejected by the opponents, by its place in the match: the form that
    # enters it again comes back with what was rejected, to correct.
    rejected_at = {p.entry.sequence: p.entry for p in rejected}
    if form is None and open_for_deals:
        again = rejected_at.get(len(deals) + 1)
        values = (
            DealForm.initial_from(again, sequence=again.sequence)
            if again is not None
            else {"expected_sequence": len(deals) + 1}
        )
        initial = _deal_initial(request, match, **values)
        form = PadDealForm(match=match, initial=initial)
    fix = request.GET.get("fix", "")
    if fix_form is None and waiting is None and fix.isdigit() and 1 <= int(fix) <= len(deals):
        deal = deals[int(fix) - 1]
        again = rejected_at.get(deal.sequence)
        values = DealForm.initial_from(again or deal, sequence=deal.sequence)
        initial = _deal_initial(request, match, **values)
        fix_form = PadDealForm(match=match, prefix="fix", initial=initial)
    if waiting is not None:
        other = waiting.entry.other_side
        context["answerers"] = [
            (seat, player) for seat, player in match.seats.items() if _side_of_seat(seat) == other
        ]
        context["waiting_number"] = presenters.deal_number(sheet, waiting.entry.sequence)
    # What the other phones did, for a phone that polls to announce (static/js/pad.js): the
    # table's latest answer and the deal waiting now, each with a key of its own.
    events = []
    answered = _last_answer(match, sheet)
    if answered is not None:
        events.append(answered)
    if waiting is not None:
        events.append((f"{waiting.entry.pk}-waiting", _waiting_words(match, sheet, waiting)))
    fix_sequence = fix_form["expected_sequence"].value() if fix_form is not None else None
    # The par reading after each deal, at a par club (matches.selectors.match_par).
    par = match_par(match=match, sheet=sheet)
    par_deals = row_readings(sheet, par)
    seated = list(match.seats.items())
    handicaps = selectors.handicaps_of(night=night, player_ids=match.seat_ids.values())
    context.update(
        {
            "sheet": sheet,
            "round_number": selectors.round_number_of(match=match),
            # Each seat's player with their handicap at a night that gives handicaps.
            "seats": [(seat, player, handicaps.get(player.pk)) for seat, player in seated],
            "handicaps": bool(handicaps),
            "last_row": sheet.rows[-1] if sheet.rows else None,
            "waiting": waiting,
            "rejected": [
                (p, presenters.deal_number(sheet, p.entry.sequence), _entry_words(p))
                for p in rejected
            ],
            "events": events,
            # A correction open: its form alone (the next deal's is back after it).
            "form": form if open_for_deals and (fix_form is None or waiting) else None,
            "fix_form": fix_form if waiting is None else None,
            "fix_number": (
                presenters.deal_number(sheet, int(fix_sequence))
                if fix_sequence is not None and str(fix_sequence).isdigit()
                else None
            ),
            "rows": [
                (row, presenters.deal_number(sheet, row.sequence), read)
                for row, read in zip(sheet.rows, par_deals, strict=True)
            ],
            "par": par,
            "next_deal": sheet.next_deal if in_progress else None,
            "deals_left": (
                4 - sum(1 for row in sheet.rows if row.number is not None)
                if match.kind == "chicago"
                else None
            ),
            "can_correct": waiting is None and match.status != MatchStatus.ABANDONED,
        }
    )
    return context


def _render_pad(
    request: HttpRequest, code: TableCode | None, status: int = 200, **forms: Any
) -> HttpResponse:
    """The pad, or only its panel for htmx; the gone page for a code that opens nothing."""
    template = "nights/pad/table.html"
    if request.headers.get("HX-Request") == "true" and request.method == "GET":
        template = "nights/pad/_panel.html"
    if code is None:
        context = {"gone": True, "code_form": CodeForm()}
        return render(request, template, context, status=status)
    return render(request, template, _pad_context(request, code, **forms), status=status)


def _live_or_else(request: HttpRequest) -> tuple[TableCode, None] | tuple[None, HttpResponse]:
    """(code, None), or (None, the answer when the session opened no live code)."""
    code, opened = _session_code(request)
    if not opened:
        return None, redirect("nights:pad_code")
    if code is None:
        return None, _render_pad(request, None, status=200 if request.method == "GET" else 409)
    return code, None


def _same_match(request: HttpRequest, form: PadDealForm, match: Match | None) -> bool:
    """Whether the deal was entered for the match now at the table (not a previous round's
    or another table's)."""
    if match is not None and form.cleaned_data.get("match") == match.pk:
        return True
    form.add_error("match", gettext("The table has a new match: enter its deals below."))
    return False


def _poll_etag(request: HttpRequest) -> str | None:
    """The ETag of the panel a phone polls, from the generations (``clubs.live``) of the
    club (a code renewed, the night closed or reopened, a round started or undone) and of the
    table (the match now at it, its deals and entries), with the code and the player this
    phone enters as: from the session and one round trip to the cache, before anything is read
    from the database (so a change after that moves the ETag), and enough for a 304 (most
    polls of a busy night: bench/polls.py). Other tables' deals leave it unchanged."""
    code_id, table = request.session.get(SESSION_CODE), request.session.get(SESSION_TABLE)
    if not isinstance(code_id, int) or not isinstance(table, list) or len(table) != 3:
        return None
    club_id, session_id, number = table
    scopes = [("club", club_id), table_scope(session_id, number)]
    parts = [*page_parts(request), code_id, request.session.get(SESSION_PLAYER)]
    return generation_etag(scopes, parts)


@require_http_methods(["GET", "POST"])
def pad(request: HttpRequest) -> HttpResponseBase:
    """``/table/``: the match now at the table; a POST enters its next deal. Only the panel's
    polls may be kept by the browser (and revalidated: 304); the rest is never cached."""
    polled = request.method == "GET" and request.headers.get("HX-Request") == "true"
    etag = _poll_etag(request) if polled else None
    unchanged = None if etag is None else not_modified(request, etag=etag)
    if unchanged is not None:
        return unchanged
    code, answer = _live_or_else(request)
    if code is None:
        assert answer is not None  # one or the other (the checker cannot pair them)
        add_never_cache_headers(answer)
        return answer
    if polled:  # the panel, kept by the browser (and revalidated) under the ETag read first
        return conditional(request, lambda: _render_pad(request, code), etag=etag)
    if request.method == "GET":
        response = _render_pad(request, code)
        add_never_cache_headers(response)
        return response
    match = table_selectors.current_match(code=code)
    if match is None:
        return _render_pad(request, code, status=409)
    form = PadDealForm(request.POST, match=match)
    if not form.is_valid():
        return _render_pad(request, code, status=400, form=form)
    if not _same_match(request, form, match):
        return _render_pad(request, code, status=400, form=form)
    sequence = form.cleaned_data["expected_sequence"]
    if sequence <= match.deals.count():
        message = gettext("Deal %(n)s was already entered at this table.")
        form.add_error(None, message % {"n": sequence})
        return _render_pad(request, code, status=409, form=form)
    return _submit(request, code, form)


def _submit(
    request: HttpRequest, code: TableCode, form: PadDealForm, **again: object
) -> HttpResponse:
    name = "fix_form" if form.prefix else "form"
    entered_by = form.cleaned_data["entered_by"]
    try:
        entry = services.table_entry_submit(
            code=code,
            sequence=form.cleaned_data["expected_sequence"],
            entered_by=entered_by,
            **form.service_arguments(),
        )
    except ValidationError as error:
        form.add_service_error(error)
        return _render_pad(request, code, status=400, **{name: form})
    except MatchConflict as error:
        # Another phone entered a deal first, and it waits: say who entered what (the panel
        # shows it, to answer or to wait for), not the form the deal cannot be sent from.
        match = table_selectors.current_match(code=code)
        sequence = form.cleaned_data["expected_sequence"]
        said = _conflict(match, sequence, correcting=bool(form.prefix)) if match else None
        if said is not None:
            return _render_pad(request, code, status=409, conflict=said)
        form.add_error(None, str(error))
        return _render_pad(request, code, status=409, **{name: form})
    request.session[SESSION_PLAYER] = entered_by
    sheet = match_sheet(match=entry.match)
    number = presenters.deal_number(sheet, entry.sequence)
    side = presenters.side_name(entry.other_side)
    if entry.correction:
        text = gettext("Correction of deal %(n)s sent to %(side)s: waiting for their answer.")
    else:
        text = gettext("Deal %(n)s entered: waiting for %(side)s to confirm it.")
    messages.success(request, text % {"n": number, "side": side})
    return redirect("nights:pad")


@never_cache
@require_POST
def pad_correct(request: HttpRequest) -> HttpResponse:
    """A correction of a deal recorded: it waits for the other side's confirmation too."""
    code, answer = _live_or_else(request)
    if code is None:
        assert answer is not None  # one or the other (the checker cannot pair them)
        return answer
    match = table_selectors.current_match(code=code)
    if match is None:
        return _render_pad(request, code, status=409)
    form = PadDealForm(request.POST, match=match, prefix="fix")
    if not form.is_valid():
        return _render_pad(request, code, status=400, fix_form=form)
    if not _same_match(request, form, match):
        return _render_pad(request, code, status=400, fix_form=form)
    sequence = form.cleaned_data["expected_sequence"]
    if sequence > match.deals.count():
        message = gettext("This match has no deal %(n)s.") % {"n": sequence}
        form.add_error("expected_sequence", message)
        return _render_pad(request, code, status=400, fix_form=form)
    return _submit(request, code, form)


@never_cache
@require_POST
def pad_answer(request: HttpRequest) -> HttpResponse:
    """A player answers the deal waiting at the table: accept, reject or withdraw it."""
    code, answer = _live_or_else(request)
    if code is None:
        assert answer is not None  # one or the other (the checker cannot pair them)
        return answer
    match = table_selectors.current_match(code=code)
    if match is None:
        return _render_pad(request, code, status=409)
    form = AnswerForm(request.POST, match=match)
    if not form.is_valid():
        return _render_pad(request, code, status=400, answer_form=form)
    data = form.cleaned_data
    try:
        entry = services.table_entry_answer(
            code=code, entry=data["entry"], player=data["player"], accept=data["answer"] == "accept"
        )
    except ValidationError as error:
        form.add_service_error(error)
        return _render_pad(request, code, status=400, answer_form=form)
    except MatchConflict as error:
        form.add_error(None, str(error))
        return _render_pad(request, code, status=409, answer_form=form)
    sheet = match_sheet(match=entry.match)
    number = presenters.deal_number(sheet, entry.sequence)
    if entry.state == EntryState.CONFIRMED:
        row = sheet.rows[entry.sequence - 1]
        words = {"n": number, "deal": presenters.row_words(row)}
        if entry.correction:
            text = gettext("Correction of deal %(n)s confirmed: %(deal)s. It counts.") % words
        else:
            text = gettext("Deal %(n)s confirmed: %(deal)s. It counts.") % words
    elif entry.state == EntryState.REJECTED:
        if entry.correction:
            text = gettext("Correction of deal %(n)s rejected: the director has been told.")
        else:
            text = gettext("Deal %(n)s rejected: the director has been told.")
        text %= {"n": number}
    elif entry.correction:
        text = gettext("Correction of deal %(n)s withdrawn.") % {"n": number}
    else:
        text = gettext("Deal %(n)s withdrawn: enter it again.") % {"n": number}
    messages.success(request, text)
    return redirect("nights:pad")


@never_cache
@require_POST
def pad_leave(request: HttpRequest) -> HttpResponse:
    """Forget the table on this phone."""
    for key in (SESSION_CODE, SESSION_TABLE, SESSION_PLAYER):
        request.session.pop(key, None)
    request.session.cycle_key()
    messages.info(request, gettext("You left the table. Type a code to open one."))
    return redirect(reverse("nights:pad_code"))
