"""The club night's pages: start a night (directors), the night page (its rounds, tables and
results, for anyone who may read the club) and the directors' actions on it: start the next
round, set the rounds, prizes and prize groups.

Reads go through ``nights.selectors``, writes through ``nights.services``.
"""

from datetime import date
from functools import partial
from typing import Any, cast

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBase, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs import live
from clubs import selectors as club_selectors
from clubs import services as club_services
from clubs.doors import club_for_director, club_for_reader, doors
from clubs.exports import Download, export_response
from clubs.generations import Scope
from clubs.models import Club
from clubs.validators import folded
from matches import selectors as match_selectors
from matches.forms import GuestForm
from nights import selectors, services
from nights.forms import (
    NightForm,
    NightUpdateForm,
    PlayerAddForm,
    SeatingForm,
    SeatSwapForm,
    seating_rows,
)
from nights.models import Night
from nights.movements import MOVEMENTS
from nights.screen import screen_layout
from nights.selectors import NightPlan, NightRound, NightTable
from scoring.engine.handicap import HANDICAP_MARGIN, RATING_START

# What the new-night form keeps between its own round trips (check all, add a guest).
CHOICES = (
    "date",
    "movement",
    "remainder",
    "rounds",
    "tie_rule",
    "prizes",
    "ranking",
    "min_matches",
    "rank_by",
)


Choices = dict[str, str | list[str]]  # a choice, or the players checked (their ids)


def _choices(data: QueryDict) -> Choices:
    """What a director chose so far on the new-night form (posted, or in the query string)."""
    # data[name]: a value given (data.get), not the stubs' empty list
    choices: Choices = {name: cast(str, data[name]) for name in CHOICES if data.get(name)}
    players = [pk for pk in data.getlist("players") if pk.isdigit()]
    if players:
        choices["players"] = players
    return choices


def _new_url(club: Club, choices: Choices) -> str:
    url = reverse("nights:new", kwargs={"slug": club.slug})
    return f"{url}?{urlencode(choices, doseq=True)}" if choices else url


def _night_form(
    club: Club, data: QueryDict | None = None, initial: Choices | None = None
) -> NightForm:
    players = sorted(club_selectors.active_players_of(club), key=lambda p: (folded(p.name), p.pk))
    return NightForm(data, players=players, today=club.today(), club=club, initial=initial or {})


def _render_new(
    request: HttpRequest,
    club: Club,
    form: NightForm,
    guest_form: GuestForm | None = None,
    status: int = 200,
    **extra: object,
) -> HttpResponse:
    context = {"club": club, "form": form, "guest_form": guest_form or GuestForm(), **extra}
    return render(request, "nights/new.html", context, status=status)


def _date_trouble(club: Club, day: date | None, choices: Choices) -> dict[str, object]:
    """Beside a date error: the night already on that date, or the link to create a season
    covering it, coming back to this form with the same choices."""
    if day is None:
        return {}
    existing = selectors.nights_of(clubs=Club.objects.filter(pk=club.pk)).filter(session__date=day)
    if existing.exists():
        return {"existing": reverse("nights:night", args=[club.slug, day])}
    if club_selectors.season_covering(club, day) is None:
        query = urlencode({"date": day.isoformat(), "next": _new_url(club, choices)})
        url = f"{reverse('clubs:season_new', args=[club.slug])}?{query}"
        return {"season_offer": {"date": day, "url": url}}
    return {}


def _add_guest(request: HttpRequest, club: Club) -> HttpResponse:
    """A guest (a new player of the club) added from the form, then checked as present; the
    director's other choices are kept."""
    choices = _choices(request.POST)
    guest_form = GuestForm(request.POST)
    if guest_form.is_valid():
        name = guest_form.cleaned_data["name"]
        # A name already on the list is that player, checked, not a second one of that name.
        guest = club_selectors.active_players_of(club).filter(name__iexact=name).first()
        try:
            if guest is None:
                guest = club_services.player_create(club=club, name=name, actor=request.user)
        except ValidationError as error:
            guest_form.add_service_error(error)
        else:
            choices["players"] = [*choices.get("players", []), str(guest.pk)]
            return redirect(_new_url(club, choices))
    form = _night_form(club, initial=choices)
    return _render_new(request, club, form, guest_form=guest_form, status=400)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_http_methods(["GET", "POST"])
def night_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A director starts a night: the date, the players present, the movement and its
    options. "Check all" and "Clear" (buttons, so that they work without JavaScript) and a
    guest's name come back to the form with the choices kept."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    if request.method == "GET":
        return _render_new(request, club, _night_form(club, initial=_choices(request.GET)))
    if "add_guest" in request.POST or request.POST.get(GuestForm().add_prefix("name"), "").strip():
        return _add_guest(request, club)
    if request.POST.get("check") in ("all", "none"):
        choices = _choices(request.POST)
        form = _night_form(club, initial=choices)
        choices["players"] = form.player_ids if request.POST["check"] == "all" else []
        return _render_new(request, club, _night_form(club, initial=choices))
    form = _night_form(club, request.POST)
    extra: dict[str, Any] = {}
    if form.is_valid():
        data = form.cleaned_data
        try:
            night = services.night_start(club=club, **data)
        except ValidationError as error:
            if "date" in getattr(error, "error_dict", {}):
                extra = _date_trouble(club, data["date"], _choices(request.POST))
            form.add_service_error(error)
        else:
            return redirect("nights:night", slug=club.slug, day=night.session.date)
    return _render_new(request, club, form, status=400, **extra)


def handicap_guide(request: HttpRequest) -> HttpResponse:
    """How a club night's handicaps come from the ratings (docs/rules.md, "Handicaps"), for
    players: the formula in words and a table of ratings, each figure the engine's."""
    return render(
        request,
        "nights/handicap_guide.html",
        {
            "rows": selectors.handicap_guide_rows(),
            "cap": selectors.GUIDE_CAP,
            "margin": HANDICAP_MARGIN,
            "start": int(RATING_START),
        },
    )


def _night(club: Club, day: date) -> Night:
    return get_object_or_404(
        Night.objects.select_related("session__club", "session__season"),
        session__club=club,
        session__date=day,
    )


def _swap_form(
    current: NightRound | None,
    data: QueryDict | None = None,
    tables: list[NightTable] | None = None,
) -> SeatSwapForm | None:
    """The form that puts a wrong seat right in the round being played, while one of its
    tables has nothing entered yet (None otherwise); ``tables``: those tables, if known."""
    if current is None:
        return None
    if tables is None:
        tables = selectors.tables_untouched(round=current)
    if not tables:
        return None
    return SeatSwapForm(data, tables=tables, sitting_out=current.sitting_out)


ROUNDS_SHOWN_AHEAD = 3
"""The planned rounds the night page shows in full; the guide cards print every one."""


def _render_night(
    request: HttpRequest,
    club: Club,
    night: Night,
    *,
    seating_form: SeatingForm | None = None,
    update_form: NightUpdateForm | None = None,
    swap_form: SeatSwapForm | None = None,
    player_form: PlayerAddForm | None = None,
    status: int = 200,
    **asked: object,
) -> HttpResponse:
    plan = selectors.night_plan(night=night, ahead=ROUNDS_SHOWN_AHEAD)
    movement = MOVEMENTS[night.movement]
    results = selectors.night_results(night=night, plan=plan)
    is_director = club_selectors.can_direct(request.user, club.pk)
    started = [round for round in plan.rounds if round.started]
    planned = [round for round in plan.rounds if not round.started]
    season = f"?season={night.session.season_id}" if night.session.season_id else ""
    urls = {pk: reverse("scoring:player", args=[club.slug, pk]) + season for pk in plan.players}
    context: dict[str, Any] = {
        "club": club,
        "night": night,
        "session": night.session,
        "plan": plan,
        "current": started[-1] if started else None,
        "earlier": started[:-1],
        "planned": planned,
        "results": results,
        "lines": [(line, urls.get(line.line.player_id)) for line in results.lines],
        "groups": [
            (name, [(line, urls.get(line.line.player_id)) for line in lines])
            for name, lines in results.groups.items()
        ],
        "is_director": is_director,
        "movement": movement,
        "fixed": movement.seated_by_hand,
    }
    if is_director:
        if movement.seated_by_hand and not plan.next.waiting and seating_form is None:
            # Round N+1 starts as round N was seated: the director changes only who moves.
            previous = started[-1] if started else None
            rows = seating_rows(len(plan.playing), previous)
            seating_form = SeatingForm(players=plan.playing, tables=rows, previous=previous)
        if update_form is None:
            update_form = NightUpdateForm(night=night, players=plan.players)
        context.update({"seating_form": seating_form, "update_form": update_form})
        context.update(players_change(request, club, plan, player_form, back="night"))
        current = context["current"]
        if current is not None and night.closed_at is None:
            # A round started by mistake, a wrong seat (docs/nights.md): while nothing is entered.
            untouched = selectors.tables_untouched(round=current)
            context["can_undo"] = len(untouched) == len(current.tables)
            context["swap_form"] = swap_form or _swap_form(current, tables=untouched)
        context.update(asked)  # confirm_undo, confirm_swap: the director is asked first
    context["live"] = live.live_region(  # the results refresh themselves (below)
        request,
        lambda: render_to_string("nights/_results_live.html", context, request=request),
        scopes=night_scopes(night),
        path=reverse("nights:night", args=[club.slug, night.session.date]),
    )
    return render(request, "nights/night.html", context, status=status)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@live.polled
def night_page(request: HttpRequest, slug: str, day: date) -> HttpResponseBase:
    """The night: who is present, the round being played, earlier and planned rounds, and
    the results; for directors, the button that starts the next round."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    if live.wants_live(request):
        return _results_live(request, club, _night(club, day))
    return _render_night(request, club, _night(club, day))


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def round_start(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """A director starts the night's next round (fixed movement: as seated on the form). A
    second tap for the same round is refused by the service and said as a message."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    seating = None
    form = None
    if MOVEMENTS[night.movement].seated_by_hand:
        present = selectors.present(night=night)
        started = selectors.started_rounds(night=night, players=present)
        players = selectors.playing_in(present, len(started) + 1)
        rows = seating_rows(len(players), started[-1] if started else None)
        form = SeatingForm(request.POST, players=players, tables=rows)
        if not form.is_valid():
            return _render_night(request, club, night, seating_form=form, status=400)
        seating = form.seating()
    try:
        number = request.POST.get("round", "")
        round = services.night_round_start(
            night=night,
            seating=seating,
            number=int(number) if number.isdigit() and len(number) < 4 else None,
            actor=request.user,
        )
    except ValidationError as error:
        errors = getattr(error, "error_dict", {})
        if form is not None and "round" not in errors:
            form.add_service_error(error)
            return _render_night(request, club, night, seating_form=form, status=400)
        for message in error.messages:
            messages.error(request, message)
    else:
        messages.success(request, gettext("Round %(n)s started.") % {"n": round.number})
    return redirect("nights:night", slug=club.slug, day=day)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def round_undo(request: HttpRequest, slug: str, day: date, number: int) -> HttpResponse:
    """A director takes back round ``number``, started by mistake (asked first: without
    ``confirm`` "1" the night page asks)."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    if request.POST.get("confirm") != "1":
        return _render_night(request, club, night, confirm_undo=number)
    try:
        services.night_round_undo(night=night, number=number, actor=request.user)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        text = gettext("Round %(n)s was taken back: it can be started again.")
        messages.success(request, text % {"n": number})
    return redirect("nights:night", slug=club.slug, day=day)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def seats_swap(request: HttpRequest, slug: str, day: date, number: int) -> HttpResponse:
    """A director puts a wrong seat right in round ``number``: two players change places
    (asked first: without ``confirm`` "1" the night page asks, the choice kept)."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    plan = selectors.night_plan(night=night, ahead=1)
    started = [round for round in plan.rounds if round.started]
    form = _swap_form(started[-1] if started else None, request.POST)
    if form is None:
        messages.error(request, gettext("No seat of this round can change any more."))
        return redirect("nights:night", slug=club.slug, day=day)
    if not form.is_valid():
        return _render_night(request, club, night, swap_form=form, status=400)
    if request.POST.get("confirm") != "1":
        return _render_night(request, club, night, swap_form=form, confirm_swap=form.chosen())
    try:
        services.night_seats_swap(
            night=night,
            number=number,
            player=form.cleaned_data["player"],
            other=form.cleaned_data["other"],
            actor=request.user,
        )
    except ValidationError as error:
        form.add_service_error(error)
        return _render_night(request, club, night, swap_form=form, status=400)
    first, second = form.chosen()
    text = gettext("%(player)s and %(other)s changed places.")
    messages.success(request, text % {"player": first, "other": second})
    return redirect("nights:night", slug=club.slug, day=day)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def night_settings(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """A director sets the night's rounds, prizes, ranking and each player's prize group."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    form = NightUpdateForm(request.POST, night=night, players=selectors.present(night=night))
    if form.is_valid():
        try:
            services.night_update(
                night=night,
                rounds=form.cleaned_data["rounds"],
                prizes=form.cleaned_data["prizes"],
                groups=form.groups(),
                **form.ranking_data(),
            )
        except ValidationError as error:
            form.add_service_error(error)
        else:
            messages.success(request, gettext("The night's settings were saved."))
            return redirect("nights:night", slug=club.slug, day=day)
    return _render_night(request, club, night, update_form=form, status=400)


# --- Players arriving late or leaving (the night page and the board) ----------------------


def _player_form(club: Club, plan: NightPlan, data: QueryDict | None = None) -> PlayerAddForm:
    """The late arrival's form: the club's active members not playing the next round."""
    members = [
        player for player in club_selectors.active_players_of(club) if player.pk not in plan.playing
    ]
    members.sort(key=lambda p: (folded(p.name), p.pk))
    return PlayerAddForm(data, members=members)


def players_change(
    request: HttpRequest,
    club: Club,
    plan: NightPlan,
    player_form: PlayerAddForm | None = None,
    *,
    back: str,
) -> dict[str, object]:
    """What ``nights/_players_change.html`` shows a director: every player at the night
    (who arrived late, who left), the round a change takes effect from, the late arrival's
    form, and the leaver asked about (``?leave=<player id>``). ``back`` is the page the
    forms come back to ("night" or "board")."""
    night = plan.night
    number = plan.next.number
    open_ = night.closed_at is None and number <= night.rounds
    leave = request.GET.get("leave", "")
    asked = int(leave) if leave.isdigit() and len(leave) < 12 else None
    started = [round for round in plan.rounds if round.started]
    return {
        # A leaver of the round still played "leaves" after it; once it is over, "left".
        "playing_round": started[-1].number if started and not started[-1].finished else None,
        "change_round": number,
        "can_change": open_,
        "player_form": player_form or (_player_form(club, plan) if open_ else None),
        "leave_asked": plan.playing.get(asked) if open_ and asked else None,
        "back": back,
    }


def _back_url(club: Club, day: date, back: str, query: str = "") -> str:
    """The page the players' forms came from, at its players; a question (``query``)
    without the #fragment: a page with a target element skips autofocus (the answer)."""
    name = "nights:board" if back == "board" else "nights:night"
    return f"{reverse(name, args=[club.slug, day])}{query or '#players'}"


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def player_add(request: HttpRequest, slug: str, day: date) -> HttpResponse:
    """A director adds a late arrival (a member, or a new guest by name): they play from
    the next round, and the rounds to come are planned again."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    back = "board" if request.POST.get("back") == "board" else "night"
    form = _player_form(club, selectors.night_plan(night=night, ahead=1), request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            row = services.night_player_add(
                night=night,
                player=data["player"],
                guest=data["guest"].strip(),
                group=data["group"].strip(),
                actor=request.user,
            )
        except ValidationError as error:
            form.add_service_error(error)
        else:
            text = gettext(
                "%(name)s plays from round %(round)s: the rounds to come are planned again."
            )
            messages.success(request, text % {"name": row.player, "round": row.joined_round})
            return redirect(_back_url(club, day, back))
    if back == "board":
        for errors in form.errors.values():
            for message in errors:
                messages.error(request, str(message))
        return redirect(_back_url(club, day, back))
    return _render_night(request, club, night, player_form=form, status=400)


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@require_POST
def player_leave(request: HttpRequest, slug: str, day: date, player: int) -> HttpResponse:
    """A director removes a player who leaves, from the next round on. Without ``confirm``
    "1" the page asks first."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    back = "board" if request.POST.get("back") == "board" else "night"
    if request.POST.get("confirm") != "1":
        return redirect(_back_url(club, day, back, f"?leave={player}"))
    known = selectors.present(night=night).get(player)
    try:
        row = services.night_player_leave(night=night, player=player)
    except ValidationError as error:
        for message in error.messages:
            messages.error(request, message)
    else:
        if row is None:
            text = gettext("%(name)s is no longer at the night.") % {"name": known and known.name}
        else:
            assert row.left_round is not None
            text = gettext(
                "%(name)s leaves after round %(round)s: the rounds to come are planned again."
            ) % {"name": row.player, "round": row.left_round - 1}
        messages.success(request, text)
    return redirect(_back_url(club, day, back))


# --- Live: the night page's results and the club screen (clubs.live) ----------------------


def night_scopes(night: Night) -> list[Scope]:
    """What a night's pages show: the club's data (the night, its players, prizes, groups:
    the night's services announce them as the club's) and its session's matches."""
    return [("club", night.session.club_id), ("session-matches", night.session_id)]


def _result_rows(
    club: Club, night: Night, plan: NightPlan, *, links: bool = True
) -> dict[str, Any]:
    """The night's results as the results' template shows them (each line with the player's
    page, unless ``links`` is False), as ``_render_night`` gives them."""
    results = selectors.night_results(night=night, plan=plan)
    season = f"?season={night.session.season_id}" if night.session.season_id else ""
    urls = (
        {pk: reverse("scoring:player", args=[club.slug, pk]) + season for pk in plan.players}
        if links
        else {}
    )
    return {
        "results": results,
        "lines": [(line, urls.get(line.line.player_id)) for line in results.lines],
        "groups": [
            (name, [(line, urls.get(line.line.player_id)) for line in lines])
            for name, lines in results.groups.items()
        ],
    }


def _results_live(request: HttpRequest, club: Club, night: Night) -> HttpResponseBase:
    """The night page's results alone, for its live region: a 304 while the club's data and
    the night's matches are unchanged."""

    def answer() -> HttpResponse:
        plan = selectors.night_plan(night=night, ahead=1)
        context = {"club": club, "night": night, **_result_rows(club, night, plan)}
        return render(request, "nights/_results_live.html", context)

    return live.live_page(request, answer, scopes=night_scopes(night))


def _screen_context(club: Club, night: Night) -> dict[str, Any]:
    plan = selectors.night_plan(night=night, ahead=1)
    started = [round for round in plan.rounds if round.started]
    current = started[-1] if started else None
    tables = [(table, table.match) for table in current.tables if table.match] if current else []
    played = match_selectors.deals_played(match_ids=[match.pk for _table, match in tables])
    rows = [(table, played[match.pk]) for table, match in tables]
    results = _result_rows(club, night, plan, links=False)  # a screen to read, not to click
    out = len(current.sitting_out) if current else 0
    return {
        "club": club,
        "night": night,
        "session": night.session,
        "current": current,
        "tables": rows,
        "layout": screen_layout(
            tables=rows,
            pairs=any(not table.two_player for table, _played in rows),
            sitting_out=out,
            results=results["lines"],
        ),
        **results,
    }


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
@live.polled
def night_screen(request: HttpRequest, slug: str, day: date) -> HttpResponseBase:
    """The club screen: the night on a TV in the room, large, with no navigation: the round
    being played (each table's players, score and deals played) and the results so far. Its
    content is a live region (``?live=1``); the page and the region answer 304 while the
    club's data and the night's matches are unchanged. Readable by whoever may read the
    night page."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    return live.live_view(
        request,
        page="nights/screen.html",
        fragment="nights/_screen_live.html",
        context=lambda: _screen_context(club, night),
        scopes=night_scopes(night),
        page_etag=True,  # no navigation, no form: the whole page is answered 304 too
    )


@doors  # type: ignore[untyped-decorator, unused-ignore]  # clubs.doors not typed strictly yet
def results_export(request: HttpRequest, slug: str, day: date, fmt: str) -> HttpResponseBase:
    """The night in the format ``fmt``: as a table, every player present, ranked, with the
    prizes."""
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    night = _night(club, day)
    table = partial(selectors.night_results_export, night=night)
    return export_response(Download("night", night, table), fmt)
