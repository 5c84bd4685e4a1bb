"""The rows each client sees through the API, with everything a list serializes fetched up
front (a list runs the same queries for 1 row as for 100)."""

from django.db.models import Count, Prefetch, QuerySet

from api import access
from clubs.models import Club, Membership, Player, Season, Session, Table
from matches.models import Match


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


def matches_for(request) -> QuerySet[Match]:
    return (
        Match.objects.filter(access.public_filter(request, "table__session__club"))
        .select_related("table__session")
        .annotate(deal_count=Count("deals"))
    )


def match_with_players(queryset: QuerySet[Match]) -> QuerySet[Match]:
    return queryset.select_related("table__session__club", "north", "east", "south", "west")
