"""Club pages: the list of clubs and a club's page (its session sheets: ``matches.views``;
who may read them: ``clubs.doors``), and the directors' pages for the club's players and
seasons (the writes are ``clubs.services``')."""

from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods

from clubs import selectors as club_selectors
from clubs import services
from clubs.doors import club_for_director, club_for_reader, doors
from clubs.forms import MemberForm, PlayerForm, SeasonForm
from clubs.models import Club, Membership
from clubs.validators import as_date


def home(request: HttpRequest) -> HttpResponse:
    """The clubs this visitor can read: every public club, and their own."""
    clubs = club_selectors.clubs_visible_to(request.user, include_public=True)
    return render(request, "clubs/home.html", {"clubs": clubs.order_by("name", "id")})


@doors
def club_detail(request: HttpRequest, slug: str) -> HttpResponse:
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    seasons = list(club.seasons.order_by("-start_date"))
    # "night": the session's club night, if it is one (a reverse relation: no import of nights).
    sessions = club.sessions.select_related("season", "night").order_by("-date")[:30]
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "seasons": seasons,
            "sessions": sessions,
            "is_director": club_selectors.can_direct(request.user, club.pk),
        },
    )


@doors
@require_http_methods(["GET", "POST"])
def players(request: HttpRequest, slug: str) -> HttpResponse:
    """A director's list of the club's players (active or not), and a form to add one."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    form = PlayerForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.player_create(
                    club=club, name=form.cleaned_data["name"], actor=request.user
                )
            except ValidationError as error:
                form.add_service_error(error)
            else:
                return redirect("clubs:players", slug=club.slug)
        status = 400
    context = {"club": club, "form": form, "memberships": club_selectors.members_of(club)}
    return render(request, "clubs/players.html", context, status=status)


@doors
@require_http_methods(["GET", "POST"])
def player_edit(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """A director changes a player's name, role and whether they are active at the club."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    membership = get_object_or_404(
        Membership.objects.select_related("player"), club=club, player_id=player_id
    )
    initial = {
        "name": membership.player.name,
        "role": membership.role,
        "active": membership.active,
    }
    form = MemberForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.player_membership_update(
                    player=membership.player, club=club, actor=request.user, **form.cleaned_data
                )
            except ValidationError as error:
                form.add_service_error(error)
            else:
                return redirect("clubs:players", slug=club.slug)
        status = 400
    context = {"club": club, "player": membership.player, "form": form}
    return render(request, "clubs/player_edit.html", context, status=status)


@doors
@require_http_methods(["GET", "POST"])
def season_new(request: HttpRequest, slug: str) -> HttpResponse:
    """A director creates a season, the next one suggested (``?date=`` one covering that date);
    then back to ``?next=`` (a page of this site), else to the club's page."""
    club = club_for_director(request, get_object_or_404(Club, slug=slug))
    try:
        covering = as_date(request.GET.get("date"), field="date")
    except ValidationError:
        covering = None
    draft = club_selectors.season_suggestion(club, covering=covering)
    initial = {"name": draft.name, "start_date": draft.start_date, "end_date": draft.end_date}
    form = SeasonForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.season_create(club=club, **form.cleaned_data)
            except ValidationError as error:
                form.add_service_error(error)
            else:
                after = request.GET.get("next", "")
                if url_has_allowed_host_and_scheme(
                    after, allowed_hosts={request.get_host()}, require_https=request.is_secure()
                ):
                    return redirect(after)
                return redirect("clubs:detail", slug=club.slug)
        status = 400
    seasons = club.seasons.order_by("-start_date")
    context = {"club": club, "form": form, "seasons": seasons}
    return render(request, "clubs/season_new.html", context, status=status)
