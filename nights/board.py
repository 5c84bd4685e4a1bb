"""The director's board of a club night: every table at a glance (its live code, the match
now there, how far it got, when it last entered anything, the deal waiting for the opponents
and the disputes), refreshed by itself (htmx polls the board's fragment), and the director's
taps: settle a dispute or a long wait, renew a table's code, end a match that cannot finish,
close the night and reopen it.

Directors of the club only (``club_for_director``). Reads through ``nights.table_selectors``
(and the rounds through ``nights.selectors``), writes through ``nights.services``; every POST
answers with a redirect back to the board (or the board with the error, 400 or 409: never a
500).
"""

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.contrib import messages
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBase, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from clubs import live
from clubs.doors import club_for_director, doors
from clubs.generations import Scope
from clubs.models import Club
from clubs.selectors import can_direct
from clubs.services import TABLE_NUMBER_MAX
from matches.models import KindChoice, Match, MatchStatus
from matches.services import MatchConflict
from matches.services import match_abandon as abandon_match
from nights import selectors, services, table_selectors
from nights.models import Night, TableCode, TableEntry
from nights.movements import MOVEMENTS
from nights.prints import entry_link
from nights.views import night_scopes, players_change

_now = time.time  # the clock of BOARD_SECONDS (the tests move it)
CHICAGO_DEALS = 4
BOARD_SECONDS = 60
"""What the board says of time (a round played for N minutes, a deal waiting since, a wait
long enough to flag) is at most this late: its ETag changes this often."""


@dataclass(frozen=True)
class Row:
    """A table on the board with what the template needs beside ``BoardTable``."""

    table: table_selectors.BoardTable
    code: str  # the short code as shown ("ABCD-EFGH"); "" without a live code
    link: str  # the entry link; "" without a live code
    deal_now: int | None  # the next deal's number, None once the match is over
    deal_total: int | None  # 4 in Chicago, else None (a rubber has no set number of deals)
    over: bool

    @property
    def flagged(self) -> bool:
        return any(p.flagged for p in self.table.unsettled)


def _night(club: Club, day: date) -> Night:
    return get_object_or_404(
        Night.objects.select_related("session__club"), session__club=club, session__date=day
    )


def _rows(request: HttpRequest, night: Night) -> list[Row]:
    rows = []
    for table in table_selectors.night_board(night=night):
        code = table.code
        match: Match | None = table.match
        deal_now = total = None
        over = False
        if match is not None:
            over = match.status != MatchStatus.IN_PROGRESS
            sheet = table.sheet
            if not over and sheet is not None and sheet.next_deal is not None:
                deal_now = sheet.next_deal.number
            total = CHICAGO_DEALS if match.kind == KindChoice.CHICAGO else None
        link = entry_link(request, code) if code else ""
        rows.append(Row(table, code.shown if code else "", link, deal_now, total, over))
    return rows


@dataclass(frozen=True)
class Rounds:
    """The board's line about the rounds: the one being played and for how long (whole
    minutes; the poll refreshes them), and the next one's number when it may start now
    (``start``; a fixed movement's is seated on the night page: ``seat``)."""

    playing: int | None  # the last started round's number while a table of it still plays
    minutes: int
    next: int
    start: bool
    seat: bool


def _rounds(night: Night) -> Rounds:
    plan = selectors.night_plan(night=night, ahead=1)
    started = [round for round in plan.rounds if round.started]
    playing = started[-1] if started and not started[-1].finished else None
    minutes = 0
    if playing is not None:
        since: datetime | None = selectors.round_started_at(night=night, number=playing.number)
        minutes = max(0, int((timezone.now() - since).total_seconds() // 60)) if since else 0
    ready = not plan.next.waiting
    fixed = MOVEMENTS[night.movement].seated_by_hand
    return Rounds(
        playing.number if playing else None,
        minutes,
        plan.next.number,
        ready and not fixed,
        ready and fixed,
    )


def _board_url(club: Club, day: date) -> str:
    return reverse("nights:board", args=[club.slug, day])


def _render(
    request: HttpRequest,
    club: Club,
    night: Night,
    *,
    fragment: bool = False,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    rows = _rows(request, night)
    renew = request.GET.get("renew", "")
    abandon = request.GET.get("abandon", "")
    context: dict[str, Any] = {
        "club": club,
        "night": night,
        "session": night.session,
        "rows": rows,
        "rounds": _rounds(night),
        "waiting": sum(1 for row in rows if row.table.waiting is not None),
        "flagged": sum(1 for row in rows if row.flagged),
        "renew": int(renew) if renew.isdigit() and len(renew) < 6 else None,
        "confirm_close": request.GET.get("close") == "1",
        "confirm_reopen": request.GET.get("reopen") == "1",
        "abandon": int(abandon) if abandon.isdigit() and len(abandon) < 12 else None,
        "error": error,
        "type_url": request.build_absolute_uri(reverse("nights:pad_code")),
        "query": request.GET.urlencode(),
        "fragment": fragment,
        # Typed codes paused after many wrong ones (services.ALL_FAILURES_ALLOWED).
        "codes_paused_until": None if night.closed_at else services.table_codes_paused_until(),
    }
    if not fragment:  # late arrivals and leavers, as on the night page (not polled)
        plan = selectors.night_plan(night=night, ahead=1)
        context.update({"plan": plan, "players_change": True})
        context.update(players_change(request, club, plan, back="board"))
    template = "nights/_board.html" if fragment else "nights/board.html"
    return render(request, template, context, status=status)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_GET
def board_page(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """The board. ``?renew=N`` asks to confirm renewing table N's code, ``?close=1`` to
    confirm closing the night, ``?reopen=1`` reopening it, ``?abandon=M`` ending match M."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    return _render(request, club, _night(club, day))


def _board_etag(request: HttpRequest, scopes: Sequence[Scope]) -> str | None:
    """The ETag of the board's tables (``clubs.live``): the generations of the club and the
    night's matches, with whether typed codes are paused (read in the same round trip), the
    period of ``BOARD_SECONDS`` and the CSRF cookie its forms were made for (a director who
    signed out and in again gets forms that post). None when the generations cannot be
    trusted: the ETag is then the body's.

    The viewer is the session's account and its password's hash as the session keeps them,
    not the account read from the database: a poll stays one round trip to the cache
    (bench/polls.py: 3.2x the floor's CPU with the account read, 1.6x without). A session
    whose account was deactivated or whose password changed meanwhile is told "unchanged"
    for ``BOARD_SECONDS`` at most (nothing it had not seen), then reloads the page and signs
    in."""
    read = live.read_generations(scopes, read_also=services.PAUSE_KEYS)
    if read is None:
        return None
    tokens, found = read
    viewer = [request.session.get(key, "-") for key in (SESSION_KEY, HASH_SESSION_KEY)]
    parts = [
        *live.page_parts(request, viewer=viewer),
        int(_now() // BOARD_SECONDS),
        services.paused_until(found),
        request.META.get("CSRF_COOKIE", ""),
    ]
    return live.tokens_etag(tokens, parts)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_GET
@live.polled_by(_board_etag)
def board_fragment(request: HttpRequest, slug: str, day: date) -> HttpResponseBase:
    """The board's tables alone, as htmx polls them: a 304 while nothing on them changed
    (``_board_etag``), from the cache alone once this process answered the path before
    (``clubs.live.polled_by``). A poll that may no longer see them (the director logged out,
    their session expired) reloads the whole page, which says why, rather than swapping the
    login page into the board."""
    club = get_object_or_404(Club, slug=slug)
    if request.headers.get("HX-Request") and not can_direct(request.user, club.pk):
        return HttpResponse(status=204, headers={"HX-Refresh": "true"})
    club = club_for_director(request, club)
    night = _night(club, day)
    return live.live_page(
        request,
        lambda: _render(request, club, night, fragment=True),
        scopes=night_scopes(night),
        etag_of=_board_etag,
    )


def _failed(request: HttpRequest, club: Club, night: Night, error: Exception) -> HttpResponse:
    if isinstance(error, MatchConflict):
        return _render(request, club, night, error=str(error), status=409)
    assert isinstance(error, ValidationError)
    return _render(request, club, night, error=" ".join(error.messages), status=400)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def entry_resolve(request: HttpRequest, slug: str, day: date, entry: int) -> HttpResponse:
    """The director settles a deal the table disputed or left waiting: ``accept`` "1"
    records it as entered, "0" sets it aside."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    found = TableEntry.objects.filter(pk=entry, code__night=night).first()
    if found is None:
        raise Http404
    accept = request.POST.get("accept")
    if accept not in ("0", "1"):
        error = ValidationError({"accept": [gettext("Choose to count the deal or set it aside.")]})
        return _failed(request, club, night, error)
    try:
        services.table_entry_resolve(entry=found, accept=accept == "1", actor=request.user)
    except (ValidationError, MatchConflict) as error:
        return _failed(request, club, night, error)
    if accept == "1":
        text = gettext("Table %(table)s: deal %(n)s counts as entered.")
    else:
        text = gettext("Table %(table)s: deal %(n)s was set aside.")
    messages.success(request, text % {"table": found.code.table_number, "n": found.sequence})
    return HttpResponseRedirect(_board_url(club, day) + f"#table-{found.code.table_number}")


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def code_renew(request: HttpRequest, slug: str, day: date, number: int) -> HttpResponse:
    """The director renews table ``number``'s code: the old one stops working at once.
    Without ``confirm`` "1" the board asks first."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    if not 1 <= number <= TABLE_NUMBER_MAX:
        raise Http404
    if request.POST.get("confirm") != "1":
        # No #fragment: a page with a target element skips autofocus (the confirm button).
        return HttpResponseRedirect(f"{_board_url(club, day)}?renew={number}")
    try:
        code: TableCode = services.table_code_renew(night=night, table_number=number)
    except ValidationError as error:
        return _failed(request, club, night, error)
    text = gettext("Table %(table)s has a new code: %(code)s. The old code no longer works.")
    messages.success(request, text % {"table": number, "code": code.shown})
    return HttpResponseRedirect(_board_url(club, day) + f"#table-{number}")


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def round_start(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """The director starts the next round from the board, as from the night page (the same
    service and its refusals: a round already started, the last one still playing, the night
    closed). A night seated by hand is seated on the night page's form."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    number = request.POST.get("round", "")
    try:
        round = services.night_round_start(
            night=night,
            number=int(number) if number.isdigit() and len(number) < 4 else None,
            actor=request.user,
        )
    except ValidationError as error:
        return _failed(request, club, night, error)
    messages.success(request, gettext("Round %(n)s started.") % {"n": round.number})
    return HttpResponseRedirect(_board_url(club, day))


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def night_close(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """The director closes the night: no table code works any more. Without ``confirm`` "1"
    the board asks first."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    if request.POST.get("confirm") != "1":
        return HttpResponseRedirect(f"{_board_url(club, day)}?close=1")
    services.night_close(night=night)
    messages.success(request, gettext("The night is closed: the table codes no longer work."))
    return HttpResponseRedirect(_board_url(club, day))


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def night_reopen(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """The director reopens a closed night: the round's tables get new codes. Without
    ``confirm`` "1" the board asks first."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    if request.POST.get("confirm") != "1":
        return HttpResponseRedirect(f"{_board_url(club, day)}?reopen=1")
    services.night_reopen(night=night)
    messages.success(
        request,
        gettext("The night is open again: the tables have new codes (the old ones stay closed)."),
    )
    return HttpResponseRedirect(_board_url(club, day))


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def match_abandon(request: HttpRequest, slug: str, day: date, match: int) -> HttpResponse:
    """The director ends a match that cannot finish (time is up, a player is ill): it is
    abandoned, shown so and not counted, and the next round no longer waits for it. Without
    ``confirm`` "1" the board asks first."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    found = (
        table_selectors.night_matches(night=night).filter(pk=match).select_related("table").first()
    )
    if found is None:
        raise Http404
    if request.POST.get("confirm") != "1":
        return HttpResponseRedirect(f"{_board_url(club, day)}?abandon={found.pk}")
    try:
        abandon_match(match=found, actor=request.user)
    except (ValidationError, MatchConflict) as error:
        return _failed(request, club, night, error)
    text = gettext("Table %(table)s: the match was ended; it is not counted.")
    messages.success(request, text % {"table": found.table.number})
    return HttpResponseRedirect(_board_url(club, day) + f"#table-{found.table.number}")
