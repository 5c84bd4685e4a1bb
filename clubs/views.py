"""Club pages: the list of clubs, a club's page and the session sheet of one evening (who
may read them: ``clubs.doors``)."""

from collections import defaultdict
from datetime import date

from django.shortcuts import get_object_or_404, render

from clubs import selectors as club_selectors
from clubs.doors import club_for_reader, doors
from clubs.models import Club, Session
from scoring.engine import Seat, side_net


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


def session_results(session: Session) -> tuple[list, list]:
    """The tables of one session with their matches, and each player's net result over the
    complete matches (their side's total minus the other side's), best first."""
    from matches.models import SEAT_FIELDS, Match

    matches = (
        Match.objects.filter(table__session=session)
        .select_related("table", *SEAT_FIELDS.values())
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
            "is_director": club_selectors.can_direct(request.user, club.pk),
        },
    )
