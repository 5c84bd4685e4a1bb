"""Reads about clubs that more than one caller needs: who sees and who directs which club, and
the rows of the clubs a reader may see (``clubs``: a queryset of clubs the caller decided)."""

import calendar
import datetime
import re
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Prefetch, Q, QuerySet
from django.utils import translation
from django.utils.translation import gettext as _

from clubs.models import Club, Membership, Player, Role, Season, Session, Table

AnyUser = User | AnonymousUser | None
"""Whoever asks: a user, signed in or not; None for no user at all (an API key)."""


def _member_clubs(user: User, *, role: str | None = None) -> QuerySet[Membership, int]:
    memberships = Membership.objects.filter(player__user=user)
    if role is not None:
        memberships = memberships.filter(role=role)
    return memberships.values_list("club", flat=True)


def clubs_visible_to(user: AnyUser, *, include_public: bool = False) -> QuerySet[Club]:
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


def clubs_directed_by(user: AnyUser) -> QuerySet[Club]:
    """Superuser: every club. Otherwise the clubs where the user's player is a director."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if user.is_superuser:
        return Club.objects.all()
    return Club.objects.filter(pk__in=_member_clubs(user, role=Role.DIRECTOR))


def can_read(user: AnyUser, club: Club) -> bool:
    """Whether ``user`` (anonymous too) reads the club's pages and public data: every public
    club; otherwise a member (any role) or a superuser."""
    return club.public or clubs_visible_to(user).filter(pk=club.pk).exists()


def can_direct(user: AnyUser, club_id: int) -> bool:
    """Whether ``user`` directs the club (writes its data): a director of it, or a
    superuser."""
    if user is None or not user.is_authenticated:
        return False
    directors = Membership.objects.filter(club_id=club_id, role=Role.DIRECTOR)
    return user.is_superuser or directors.filter(player__user=user).exists()


def club_ids_directed_by(user: User) -> frozenset[int]:
    """The ids of the clubs where the (signed-in, not superuser) user's player is a
    director."""
    return frozenset(_member_clubs(user, role=Role.DIRECTOR).order_by())


def club_role(user: AnyUser, club: Club) -> str | None:
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


def is_director(user: AnyUser) -> bool:
    """Whether the user's player directs at least one club."""
    if user is None or not user.is_authenticated:
        return False
    return Membership.objects.filter(player__user=user, role=Role.DIRECTOR).exists()


def members_of(club: Club) -> QuerySet[Membership]:
    """The club's memberships (active or not, any role) with their players, by name."""
    return (
        Membership.objects.filter(club=club)
        .select_related("player")
        .order_by("player__name", "player_id")
    )


def season_covering(club: Club, day: datetime.date) -> Season | None:
    """The club's season whose dates include ``day`` (seasons do not overlap), or None."""
    return Season.objects.filter(club=club, start_date__lte=day, end_date__gte=day).first()


@dataclass(frozen=True)
class SeasonDraft:
    """A season suggested to a director, before it is created."""

    name: str
    start_date: datetime.date
    end_date: datetime.date


_ONE_DAY = datetime.timedelta(days=1)
_MAX_STEPS = 400
"""How many seasons ahead of the last one a suggestion looks for a date (else: a year)."""
# A year in a season's name, alone or with the next one's last two digits ("2025/26").
_YEAR = re.compile(r"(?<!\d)((?:19|20)\d\d)(?:([/-])(\d\d))?(?!\d)")
_TRAILING_NUMBER = re.compile(r"(\d+)$")


def _add_months(day: datetime.date, months: int) -> datetime.date:
    month = day.month - 1 + months
    year, month = day.year + month // 12, month % 12 + 1
    return day.replace(
        year=year, month=month, day=min(day.day, calendar.monthrange(year, month)[1])
    )


def _season_after(start: datetime.date, end: datetime.date) -> tuple[datetime.date, datetime.date]:
    """The dates of the season after one from ``start`` to ``end``: from the day after it, as
    long (as many whole months when it ran whole months, else as many days)."""
    after = end + _ONE_DAY
    months = (after.year - start.year) * 12 + after.month - start.month
    if months > 0 and _add_months(start, months) == after:
        return after, _add_months(after, months) - _ONE_DAY
    return after, after + (end - start)


def _name_after(name: str, *, years: int, steps: int) -> str | None:
    """``name`` continued: its years moved on by ``years`` ("2025/26" -> "2026/27"), or, with
    no year in it, its closing number by ``steps`` ("Season 7" -> "Season 8"); None when
    neither continues it."""
    if _YEAR.search(name):
        if years == 0:
            return None

        def moved(found: re.Match[str]) -> str:
            text = str(int(found[1]) + years)
            if found[2]:
                text += f"{found[2]}{(int(found[3]) + years) % 100:02d}"
            return text

        return _YEAR.sub(moved, name)
    number = _TRAILING_NUMBER.search(name)
    if number is None:
        return None
    return name[: number.start()] + str(int(number[1]) + steps)


def _following(last: Season, covering: datetime.date | None) -> SeasonDraft | None:
    """The season after ``last`` (with ``covering``: the first of those after it, each as long
    as the one before, that includes that date), named by continuing ``last``'s name (""
    when that is not simple); None when it is too far ahead."""
    start, end = last.start_date, last.end_date
    for steps in range(1, _MAX_STEPS + 1):
        try:
            start, end = _season_after(start, end)
        except (OverflowError, ValueError):  # past the year 9999
            return None
        if covering is None or covering <= end:
            years = start.year - last.start_date.year
            return SeasonDraft(_name_after(last.name, years=years, steps=steps) or "", start, end)
    return None


def _calendar_year(club: Club, day: datetime.date) -> SeasonDraft:
    """``day``'s calendar year, shortened to fit between the club's seasons around it."""
    start, end = datetime.date(day.year, 1, 1), datetime.date(day.year, 12, 31)
    before = club.seasons.filter(end_date__lt=day).order_by("-end_date").first()
    later = club.seasons.filter(start_date__gt=day).order_by("start_date").first()
    if before is not None:
        start = max(start, before.end_date + _ONE_DAY)
    if later is not None:
        end = min(end, later.start_date - _ONE_DAY)
    return SeasonDraft("", start, end)


def season_suggestion(club: Club, *, covering: datetime.date | None = None) -> SeasonDraft:
    """The season a director would most likely create next: after the club's last season,
    starting the day after it ended and as long, its name continuing the last one's when that
    is simple, else "<year> season". With ``covering``, a date no season includes: the first
    such season that includes it; before or between the seasons (or for a club with none),
    that date's calendar year, shortened to fit between its neighbours."""
    if covering is not None and season_covering(club, covering) is not None:
        covering = None
    last = club.seasons.order_by("-start_date").first()
    draft = None
    if last is not None and (covering is None or covering > last.end_date):
        draft = _following(last, covering)
    if draft is None:
        draft = _calendar_year(club, covering or club.today())
    taken = set(club.seasons.values_list("name", flat=True))
    with translation.override(club.language):
        plain = _("%(year)s season") % {"year": draft.start_date.year}
    for name in (draft.name, plain, f"{plain} ({draft.start_date.isoformat()})"):
        if name and name not in taken:
            break
    return SeasonDraft(name, draft.start_date, draft.end_date)
