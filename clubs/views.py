"""Club pages: the list of clubs and a club's page (its session sheets: ``matches.views``).

A club's pages are open to anyone when the club is public, else to its members (and
superusers); the entry pages (``matches.views``) only to its directors. ``club_for_reader``
and ``club_for_director`` are the two doors every page view goes through.
"""

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from clubs import selectors as club_selectors
from clubs.models import Club


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
