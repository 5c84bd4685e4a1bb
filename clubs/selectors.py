"""Reads about clubs that more than one caller needs: who sees and who directs which club, and
the rows of the clubs a reader may see (``clubs``: a queryset of clubs the caller decided)."""

from django.db.models import Count, Prefetch, Q, QuerySet

from clubs.models import Club, Membership, Player, Role, Season, Session, Table


def _member_clubs(user, *, role: str | None = None) -> QuerySet[Membership, int]:
    memberships = Membership.objects.filter(player__user=user)
    if role is not None:
        memberships = memberships.filter(role=role)
    return memberships.values_list("club", flat=True)


def clubs_visible_to(user, *, include_public: bool = False) -> QuerySet[Club]:
    """Superuser: every club. Otherwise the clubs the user's player is a member of (any role);
    with ``include_public``, also every public club (anonymous users too)."""
    if user is not None and user.is_superuser:
        return Club.objects.all()
    condition = Q(pk__in=[])
    if user is not None and user.is_authenticated:
        condition = Q(pk__in=_member_clubs(user))
    if include_public:
        condition |= Q(public=True)
    return Club.objects.filter(condition)


def clubs_directed_by(user) -> QuerySet[Club]:
    """Superuser: every club. Otherwise the clubs where the user's player is a director."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(pk__in=_member_clubs(user, role=Role.DIRECTOR))


def can_read(user, club: Club) -> bool:
    """Whether ``user`` (anonymous too) reads the club's pages and public data: every public
    club; otherwise a member (any role) or a superuser."""
    return club.public or clubs_visible_to(user).filter(pk=club.pk).exists()


def can_direct(user, club_id: int) -> bool:
    """Whether ``user`` directs the club (writes its data): a director of it, or a
    superuser."""
    if user is None or not user.is_authenticated:
        return False
    return user.is_superuser or clubs_directed_by(user).filter(pk=club_id).exists()


def club_ids_directed_by(user) -> frozenset[int]:
    """The ids of the clubs where the (signed-in, not superuser) user's player is a
    director."""
    return frozenset(_member_clubs(user, role=Role.DIRECTOR).order_by())


def club_role(user, club: Club) -> str | None:
    """ "director", "player" or None for a user in a club. A superuser counts as a director of
    every club."""
    if user is None or not user.is_authenticated:
        return None
    if user.is_superuser:
        return Role.DIRECTOR.value
    role = (
        Membership.objects.filter(player__user=user, club=club)
        .values_list("role", flat=True)
        .first()
    )
    return role


def players_in_clubs(clubs: QuerySet[Club]) -> QuerySet[Player]:
    """Players with a membership in any of ``clubs`` (each once)."""
    return Player.objects.filter(pk__in=Membership.objects.filter(club__in=clubs).values("player"))


def players_with_memberships(*, clubs: QuerySet[Club]) -> QuerySet[Player]:
    """As ``players_in_clubs``, each with its memberships in ``clubs`` (``visible_memberships``,
    in order of creation)."""
    visible = Membership.objects.filter(club__in=clubs).order_by("id")
    return players_in_clubs(clubs).prefetch_related(
        Prefetch("memberships", queryset=visible, to_attr="visible_memberships")
    )


def seasons_of(*, clubs: QuerySet[Club]) -> QuerySet[Season]:
    return Season.objects.filter(club__in=clubs)


def sessions_of(*, clubs: QuerySet[Club]) -> QuerySet[Session]:
    """The sessions of ``clubs``, each with its number of tables (``table_count``)."""
    return Session.objects.filter(club__in=clubs).annotate(table_count=Count("tables"))


def tables_of(*, clubs: QuerySet[Club]) -> QuerySet[Table]:
    """The tables of ``clubs``' sessions, each with its session."""
    return Table.objects.filter(session__club__in=clubs).select_related("session")


def active_players_of(club: Club) -> QuerySet[Player]:
    """The players seated in a new match at ``club``: its active members (whatever other
    clubs of theirs say)."""
    return Player.objects.filter(memberships__club=club, memberships__active=True)


def is_director(user) -> bool:
    """Whether the user's player directs at least one club."""
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(player__user=user, role=Role.DIRECTOR).exists()
