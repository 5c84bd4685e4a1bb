"""Club pages: the list of clubs, a club's page and the session sheet of one evening.

A club's pages are open to anyone when the club is public, else to its members (and
superusers); the entry pages (``matches.views``) only to its directors. ``club_for_reader``
and ``club_for_director`` are the two doors every page view goes through.
"""

from collections import defaultdict
from datetime import date

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from clubs import selectors as club_selectors
from clubs.models import Club, Session
from scoring.engine import Seat, side_net


class LoginRequired(Exception):
    """Raised by the doors below for an anonymous reader of a page that needs a login."""


def can_read(user, club: Club) -> bool:
    if club.public:
        return True
    return club_selectors.clubs_visible_to(user).filter(pk=club.pk).exists()


def can_direct(user, club: Club) -> bool:
    if not user.is_authenticated:
        return False
    return club_selectors.clubs_directed_by(user).filter(pk=club.pk).exists()


def club_for_reader(request, club: Club) -> Club:
    """``club`` if the request may read its pages; else LoginRequired (anonymous) or
    PermissionDenied."""
    if can_read(request.user, club):
        return club
    if not request.user.is_authenticated:
        raise LoginRequired
    raise PermissionDenied


def club_for_director(request, club: Club) -> Club:
    """``club`` if the request comes from one of its directors (or a superuser)."""
    if not request.user.is_authenticated:
        raise LoginRequired
    if can_direct(request.user, club):
        return club
    raise PermissionDenied


def doors(view):
    """Turn LoginRequired into the login page, coming back here afterwards."""

    def wrapped(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except LoginRequired:
            return redirect_to_login(request.get_full_path(), login_url=reverse("clubs:login"))

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def home(request):
    """The clubs this visitor can read: every public club, and their own."""
    clubs = club_selectors.clubs_visible_to(request.user, include_public=True)
    return render(request, "clubs/home.html", {"clubs": clubs.order_by("name", "id")})


@doors
def club_detail(request, slug: str):
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    seasons = list(club.seasons.order_by("-start_date"))
    sessions = club.sessions.select_related("season").order_by("-date")[:30]
    return render(
        request,
        "clubs/club_detail.html",
        {
            "club": club,
            "seasons": seasons,
            "sessions": sessions,
            "is_director": can_direct(request.user, club),
        },
    )


def session_results(session: Session) -> tuple[list, list]:
    """The tables of one session with their matches, and each player's net result over the
    complete matches (their side's total minus the other side's), best first."""
    from matches.models import Match

    matches = (
        Match.objects.filter(table__session=session)
        .select_related("table", "north", "east", "south", "west")
        .order_by("table__number", "created_at", "id")
    )
    tables: dict = {}
    for table in session.tables.order_by("number"):
        tables[table.pk] = {"table": table, "matches": []}
    net: dict = defaultdict(lambda: {"player": None, "net": 0, "matches": 0, "open": 0})
    for match in matches:
        tables.setdefault(match.table_id, {"table": match.table, "matches": []})
        tables[match.table_id]["matches"].append(match)
        for seat, player in match.seats.items():
            line = net[player.pk]
            line["player"] = player
            if match.status != "complete":
                line["open"] += 1
                continue
            line["net"] += side_net(match.total_ns, match.total_ew, Seat(seat).side)
            line["matches"] += 1
    players = sorted(net.values(), key=lambda line: (-line["net"], line["player"].name))
    return list(tables.values()), players


@doors
def session_sheet(request, slug: str, day: date):
    club = club_for_reader(request, get_object_or_404(Club, slug=slug))
    session = get_object_or_404(Session.objects.select_related("season"), club=club, date=day)
    tables, players = session_results(session)
    return render(
        request,
        "clubs/session_sheet.html",
        {
            "club": club,
            "session": session,
            "tables": tables,
            "players": players,
            "is_director": can_direct(request.user, club),
        },
    )
