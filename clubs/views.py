"""Club pages: the list of clubs and a club's page (its session sheets: ``matches.views``;
who may read them: ``clubs.doors``)."""

from django.shortcuts import get_object_or_404, render

from clubs import selectors as club_selectors
from clubs.doors import club_for_reader, doors
from clubs.models import Club


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
            "is_director": club_selectors.can_direct(request.user, club.pk),
        },
    )
