"""The rows each client sees through the API, with everything a list serializes fetched up
front (a list runs the same queries for 1 row as for 100)."""

from django.db.models import Count, IntegerField, OuterRef, Prefetch, QuerySet, Subquery
from django.db.models.functions import Coalesce

from api import access
from clubs.models import Club, Membership, Player, Season, Session, Table
from matches.models import SEAT_FIELDS, Deal, Match
from scoring.engine import Seat


def clubs_for(request) -> QuerySet[Club]:
    return access.readable_clubs(request)


def players_for(request) -> QuerySet[Player]:
    clubs = access.member_clubs(request)
    visible = Membership.objects.filter(club__in=clubs).order_by("id")
    return Player.objects.filter(pk__in=visible.values("player_id")).prefetch_related(
        Prefetch("memberships", queryset=visible, to_attr="visible_memberships")
    )


def seasons_for(request) -> QuerySet[Season]:
    return Season.objects.filter(access.public_filter(request, "club"))


def sessions_for(request) -> QuerySet[Session]:
    return Session.objects.filter(club__in=access.member_clubs(request)).annotate(
        table_count=Count("tables")
    )


def tables_for(request) -> QuerySet[Table]:
    return Table.objects.filter(session__club__in=access.member_clubs(request)).select_related(
        "session"
    )


def deal_count() -> Coalesce:
    """How many deals a match has, as a subquery per row: unlike ``Count("deals")`` it needs
    no GROUP BY of the whole joined row, and a list's COUNT(*) leaves it out (and the deals)."""
    per_match = (
        Deal.objects.filter(match=OuterRef("pk"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return Coalesce(Subquery(per_match, output_field=IntegerField()), 0)


def matches_for(request) -> QuerySet[Match]:
    return (
        Match.objects.filter(access.public_filter(request, "table__session__club"))
        .select_related("table__session")
        .annotate(deal_count=deal_count())
    )


def readable_matches(request) -> QuerySet[Match]:
    """The matches the client may read, each with its table, session and club."""
    return Match.objects.filter(
        access.public_filter(request, "table__session__club")
    ).select_related("table__session__club")


def match_for_sheet(request, match_id: int) -> Match | None:
    """The match if the client may read it, with its table, session, club and players (the
    players in a query of their own: a nine-table join costs PostgreSQL more to plan than
    the two queries take), or None."""
    match = readable_matches(request).filter(pk=match_id).first()
    if match is not None:
        ids = match.seat_ids
        players = Player.objects.in_bulk(ids.values())
        for seat, pk in ids.items():
            setattr(match, SEAT_FIELDS[Seat(seat)], players[pk])
    return match


# How each kind of object reaches its club. These never change once the row exists.
_CLUB_OF = {
    "match": lambda pk: Match.objects.filter(pk=pk).values_list("table__session__club_id"),
    "season": lambda pk: Season.objects.filter(pk=pk).values_list("club_id"),
    "session": lambda pk: Session.objects.filter(pk=pk).values_list("club_id"),
    "club": lambda pk: Club.objects.filter(pk=pk).values_list("pk"),
}


def club_id_of(kind: str, pk: int) -> int | None:
    """The club of a match, season, session or club (``kind``), or None if there is none."""
    row = _CLUB_OF[kind](pk).first()
    return None if row is None else row[0]


def club_is_public(club_id: int) -> bool:
    return Club.objects.filter(pk=club_id, public=True).exists()
