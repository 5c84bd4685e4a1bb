"""Writes for clubs, players, memberships, seasons, sessions and tables.

Every function is keyword-only and atomic: bad input raises ``ValidationError`` with a dict
naming the field, and nothing is written. A user whose player directs a club is made staff
and put in the "Directors" group, which holds the admin permissions a director needs; the
admin then scopes everything to the clubs they direct (``clubs.selectors.clubs_directed_by``).
"""

import datetime
from collections.abc import Iterable
from typing import Any, Literal

from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.management import create_permissions
from django.contrib.auth.models import AnonymousUser, Group, Permission, User
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max, Model, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import (
    CLUB_SETTINGS,
    LADDER_OPTIONS,
    SCORING_OPTIONS,
    Club,
    Membership,
    Player,
    Role,
    Season,
    Session,
    Table,
)
from clubs.selectors import club_ids_directed_by, club_role, is_director, season_covering
from clubs.signals import club_changed, club_scoring_changed, seasons_changed
from clubs.validators import as_date, clean_name, clean_notes, clean_origins, field_error

DIRECTORS_GROUP = "Directors"
# What a director may do in the admin (scoped to their own clubs by the admin itself).
# Computed figures are never editable: deals are entered through the match page's services.
DIRECTOR_PERMISSIONS: dict[str, dict[str, tuple[str, ...]]] = {
    "clubs": {
        "club": ("view", "add", "change"),
        "player": ("view", "add", "change"),
        "membership": ("view", "add", "change"),
        "season": ("view", "add", "change"),
        "session": ("view", "add", "change"),
        "table": ("view", "add"),
    },
    "matches": {
        "match": ("view", "add", "change"),
        "deal": ("view",),
    },
}

CLUB_FIELDS = frozenset(CLUB_SETTINGS)
PLAYER_FIELDS = frozenset({"name", "user"})
SEASON_FIELDS = frozenset({"name", "start_date", "end_date"})
Actor = User | AnonymousUser | None
"""Who makes a change: a user, signed in or not; None for an API key (an app, not a person)."""
TABLE_NUMBER_MAX = 999
"""Table numbers run from 1 to this, on every database (PostgreSQL's column would stop at
32767, SQLite's at none)."""


# --- helpers -------------------------------------------------------------------------------


def _check_fields(given: Iterable[str], allowed: frozenset[str], what: str) -> None:
    unknown = sorted(set(given) - allowed)
    if unknown:
        raise TypeError(f"{what} cannot change {', '.join(unknown)}; allowed: {sorted(allowed)}")


class _restored_on_error:
    """Put back the instance's fields if the block fails, so a refused update does not leave
    the caller's object holding values that were never saved."""

    def __init__(self, instance: Model, names: Iterable[str]) -> None:
        self.instance = instance
        self.saved = {name: getattr(instance, name) for name in names}

    def __enter__(self) -> Model:
        return self.instance

    def __exit__(
        self, kind: object, error: BaseException | None, traceback: object
    ) -> Literal[False]:
        if error is not None:
            for name, value in self.saved.items():
                setattr(self.instance, name, value)
        return False


def _full_clean(instance: Model, **kwargs: Any) -> None:
    """Model validation; raises ValidationError naming the fields."""
    instance.full_clean(**kwargs)


def _save(instance: Model, *, field: str, message: str) -> None:
    """Save in a savepoint; a constraint the database refuses (a race another request won)
    becomes a ValidationError on ``field``."""
    try:
        with transaction.atomic():
            instance.save()
    except IntegrityError:
        raise field_error(field, message, "taken") from None


def _check_active(active: object) -> bool:
    if not isinstance(active, bool):
        raise field_error("active", _("Active is true or false."), "not_boolean")
    return active


class NotPermitted(ValidationError):
    """The client may not make this change (the input itself is fine): the API answers 403
    with the fields named, a form shows the message beside the field."""


def _check_role(role: object) -> str:
    if role not in Role.values:
        raise field_error(
            "role",
            _("Role must be one of: %(roles)s.") % {"roles": ", ".join(Role.values)},
            "unknown_role",
        )
    return str(role)


# --- directors' admin access ---------------------------------------------------------------


def directors_group() -> Group:
    """The "Directors" group, with exactly the permissions in ``DIRECTOR_PERMISSIONS``.
    Created on first use (and kept current), so a fresh or flushed database needs nothing."""
    group, _created = Group.objects.get_or_create(name=DIRECTORS_GROUP)
    wanted = Q(pk__in=[])
    count = 0
    for app_label, models in DIRECTOR_PERMISSIONS.items():
        for model, actions in models.items():
            for action in actions:
                wanted |= Q(content_type__app_label=app_label, codename=f"{action}_{model}")
                count += 1
    permissions = list(Permission.objects.filter(wanted))
    if len(permissions) != count:  # permissions not created yet (e.g. right after a flush)
        for app_label in DIRECTOR_PERMISSIONS:
            create_permissions(apps.get_app_config(app_label), verbosity=0)
        permissions = list(Permission.objects.filter(wanted))
    group.permissions.set(permissions)
    return group


def _sync_director_access(user: User | None) -> None:
    """A user whose player directs any club is staff and in the Directors group; a user who
    no longer directs any club leaves the group (``is_staff`` is left as it was)."""
    if user is None:
        return
    group = directors_group()
    if is_director(user):
        user.groups.add(group)
        if not user.is_staff:
            user.is_staff = True
            user.save(update_fields=["is_staff"])
    else:
        user.groups.remove(group)


# --- clubs ---------------------------------------------------------------------------------


def _best_matches(value: Any) -> Any:
    """``ladder_best_matches`` as stored: empty (None or "") is 0, every match counts; any
    other value is the model's to check."""
    return 0 if value is None or value == "" else value


@transaction.atomic
def club_create(
    *,
    creator: Actor,
    name: str,
    slug: str,
    country: str,
    language: str = "en",
    timezone: str = "UTC",
    public: bool = False,
    chicago_vulnerability: str = "dealer",
    par_scoring: bool = False,
    par_table: dict[str, list[int]] | None = None,
    ladder_min_matches: int = 0,
    ladder_rounding: str = "none",
    ladder_ranking: str = "net",
    ladder_points_win: int = 3,
    ladder_points_draw: int = 1,
    ladder_points_loss: int = 0,
    ladder_best_matches: int | None = 0,
    night_ranking: str = "total",
    night_min_matches: int = 0,
    night_rank_by: str = "net",
    handicap_strength: int = 0,
    handicap_cap: int = 300,
    handicap_prizes: bool = False,
    api_origins: list[str] | None = None,
) -> Club:
    """Create a club; the creator becomes its director (their player, linked to the user
    account, is created if they have none) and gets the directors' admin access."""
    if creator is None or not getattr(creator, "is_authenticated", False) or creator.pk is None:
        raise field_error("creator", _("A club is created by a signed-in user."), "not_signed_in")
    club = Club(
        name=clean_name(name, field="name"),
        slug=slug,
        country=country.strip().upper() if isinstance(country, str) else country,
        language=language,
        timezone=timezone,
        public=public,
        chicago_vulnerability=chicago_vulnerability,
        par_scoring=par_scoring,
        par_table=par_table,
        ladder_min_matches=ladder_min_matches,
        ladder_rounding=ladder_rounding,
        ladder_ranking=ladder_ranking,
        ladder_points_win=ladder_points_win,
        ladder_points_draw=ladder_points_draw,
        ladder_points_loss=ladder_points_loss,
        ladder_best_matches=_best_matches(ladder_best_matches),
        night_ranking=night_ranking,
        night_min_matches=night_min_matches,
        night_rank_by=night_rank_by,
        handicap_strength=handicap_strength,
        handicap_cap=handicap_cap,
        handicap_prizes=handicap_prizes,
        api_origins=clean_origins(api_origins, field="api_origins"),
    )
    _full_clean(club)
    _save(club, field="slug", message=_("A club with this slug already exists."))
    player = Player.objects.filter(user=creator).first()
    if player is None:
        try:
            player_name = clean_name(creator.get_full_name(), field="name")
        except ValidationError:  # the account's name may not be a player's: its username is
            player_name = ""
        player = Player.objects.create(name=player_name or creator.get_username(), user=creator)
    Membership.objects.create(player=player, club=club, role=Role.DIRECTOR)
    _sync_director_access(creator)
    club_changed.send(sender=Club, club_ids=[club.pk])
    return club


@transaction.atomic
def club_update(*, club: Club, actor: Actor = None, **fields: object) -> Club:
    """Change a club's name, slug, country, language, time zone, ``public`` or options.

    Changing a scoring option (one that changes ``Club.rules``) re-scores every Chicago match
    of the club under the new rules, so the stored figures always equal what the engine
    computes; changing a ladder option recalculates the club's ladders once the change commits.
    """
    _check_fields(fields, CLUB_FIELDS, "club_update")
    before = Club.objects.filter(pk=club.pk).values(*SCORING_OPTIONS, *LADDER_OPTIONS).get()
    with _restored_on_error(club, CLUB_FIELDS):
        for name, value in fields.items():
            if name == "country" and isinstance(value, str):
                value = value.strip().upper()
            elif name == "name":
                value = clean_name(value, field="name")
            elif name == "ladder_best_matches":
                value = _best_matches(value)
            elif name == "api_origins":
                value = clean_origins(value, field="api_origins")
            setattr(club, name, value)
        _full_clean(club)
        _save(club, field="slug", message=_("A club with this slug already exists."))
    club_changed.send(sender=Club, club_ids=[club.pk])
    if club.rules() != Club(**{name: before[name] for name in SCORING_OPTIONS}).rules():
        club_scoring_changed.send(sender=Club, club=club, actor=actor)  # its matches re-scored
    if any(getattr(club, name) != before[name] for name in LADDER_OPTIONS):
        seasons_changed.send(sender=Club, season_ids=set(club.seasons.values_list("id", flat=True)))
    return club


# --- players and memberships ---------------------------------------------------------------


def _check_may_set_roles(*, actor: Actor, club: Club) -> None:
    """Roles are set by a person: a signed-in director of ``club`` or a superuser. An API key
    (no ``actor``) is an app's credential, not a person: it never makes a director nor changes
    a role, so nothing a key did grants access once it is revoked."""
    if club_role(actor, club) != Role.DIRECTOR:
        raise NotPermitted(
            {
                "role": [
                    _("Only a signed-in director of %(club)s sets roles there, not an API key.")
                    % {"club": club}
                ]
            }
        )


def _check_keeps_a_director(club_ids: Iterable[int], *, field: str) -> None:
    """Each club still has a director who can sign in (a player linked to an active user
    account); run after a change, in its transaction, which the error rolls back."""
    able = Membership.objects.filter(role=Role.DIRECTOR, player__user__is_active=True)
    club = Club.objects.filter(pk__in=club_ids).exclude(pk__in=able.values("club_id")).first()
    if club is not None:
        raise field_error(
            field,
            _(
                "%(club)s needs at least one director who can sign in "
                "(linked to an active user account)."
            )
            % {"club": club},
            "last_director",
        )


def _check_may_rename(player: Player, *, name: str, actor: Actor, club: Club | None) -> None:
    """A player's name is shown by every club they belong to, so it is changed only by a client
    that writes all of them: a superuser, a director of each, or (``club``, the one club the
    caller checked the client writes, e.g. an API key's) a client of their only club. ``name``:
    the player's name before the change, which a refusal names."""
    allowed = {club.pk} if club is not None else set()
    if actor is not None and actor.is_authenticated:
        if actor.is_superuser:
            return
        allowed |= club_ids_directed_by(actor)
    if not set(player.memberships.values_list("club_id", flat=True)) <= allowed:
        raise NotPermitted(
            {
                "name": [
                    _(
                        "%(player)s also belongs to a club you do not direct, which shows the "
                        "same name: only a director of all their clubs can rename them."
                    )
                    % {"player": name}
                ]
            }
        )


@transaction.atomic
def player_create(
    *,
    club: Club,
    name: str,
    user: User | None = None,
    role: str = "player",
    active: bool = True,
    actor: Actor = None,
) -> Player:
    """Create a player and their membership of ``club`` with ``role`` and ``active``. Making a
    director takes ``actor``, a signed-in director of the club (or a superuser)."""
    role, active = _check_role(role), _check_active(active)
    if role == Role.DIRECTOR:
        _check_may_set_roles(actor=actor, club=club)
    player = Player(name=clean_name(name, field="name"), user=user)
    _full_clean(player)
    _save(player, field="user", message=_("This user account is already linked to a player."))
    Membership.objects.create(player=player, club=club, role=role, active=active)
    club_changed.send(sender=Club, club_ids=[club.pk])
    if user is not None and role == Role.DIRECTOR:
        _sync_director_access(user)
    return player


@transaction.atomic
def player_update(
    *, player: Player, actor: Actor = None, club: Club | None = None, **fields: object
) -> Player:
    """Change a player's name or linked user account.

    The name is shared by all the player's clubs: ``actor`` (the signed-in user) must direct
    every one of them, or be a superuser; ``club`` is a club the caller has checked the client
    writes (an API key's), enough for a player of that club alone. Relinking the account moves
    the directors' admin access with it; each club the player directs keeps a director who can
    sign in.
    """
    _check_fields(fields, PLAYER_FIELDS, "player_update")
    before = Player.objects.filter(pk=player.pk).values("name", "user_id").get()
    with _restored_on_error(player, PLAYER_FIELDS):
        for name, value in fields.items():
            if name == "name":
                value = clean_name(value, field="name")
            setattr(player, name, value)
        if player.name != before["name"]:
            _check_may_rename(player, name=before["name"], actor=actor, club=club)
        _full_clean(player)
        _save(player, field="user", message=_("This user account is already linked to a player."))
        if player.user_id != before["user_id"]:
            directed = player.memberships.filter(role=Role.DIRECTOR).values_list("club_id")
            _check_keeps_a_director([row[0] for row in directed], field="user")
    club_changed.send(sender=Club, club_ids=player.memberships.values_list("club_id", flat=True))
    if player.user_id != before["user_id"]:
        if before["user_id"] is not None:
            _sync_director_access(get_user_model().objects.get(pk=before["user_id"]))
        _sync_director_access(player.user)
    return player


@transaction.atomic
def membership_set(
    *, club: Club, player: Player, actor: Actor, role: str | None = None, active: bool | None = None
) -> Membership:
    """Make ``player`` a member of ``club``, or change their membership there: ``role`` and
    ``active`` (None: unchanged; a new membership is an active player's). Only this club's
    membership changes: another club of the player sees nothing of it.

    Making a director or changing a role takes ``actor``, a signed-in director of the club (or
    a superuser); the club keeps a director who can sign in.
    """
    if role is not None:
        role = _check_role(role)
    if active is not None:
        active = _check_active(active)
    Club.objects.select_for_update().filter(pk=club.pk).first()  # one change per club at once
    membership = Membership.objects.filter(club=club, player=player).first()
    was_director = membership is not None and membership.role == Role.DIRECTOR
    if membership is None:
        membership = Membership(club=club, player=player)  # an active player's, by default
        changes_role = role == Role.DIRECTOR
    else:
        changes_role = role is not None and role != membership.role
    if changes_role:
        _check_may_set_roles(actor=actor, club=club)
    if role is not None:
        membership.role = role
    if active is not None:
        membership.active = active
    membership.save()
    # The membership shows on the player (``role``, ``active``, ``memberships``): the player
    # changed, for whoever polls it (``updated_at``; a QuerySet update runs no auto_now).
    Player.objects.filter(pk=player.pk).update(updated_at=timezone.now())
    if was_director and membership.role != Role.DIRECTOR:
        _check_keeps_a_director([club.pk], field="role")
    club_changed.send(sender=Club, club_ids=[club.pk])
    if changes_role and player.user_id is not None:
        _sync_director_access(player.user)
    return membership


@transaction.atomic
def player_membership_update(
    *, player: Player, club: Club | None = None, actor: Any = None, **fields: Any
) -> Player:
    """Change a player (``player_update``: name, user) and their membership of ``club``
    (``membership_set``: role, active) in one transaction."""
    membership = {name: fields.pop(name) for name in ("role", "active") if name in fields}
    if fields:
        player = player_update(player=player, actor=actor, club=club, **fields)
    if membership:
        if club is None:
            raise field_error("club", _("Choose a club."), "required")
        membership_set(club=club, player=player, actor=actor, **membership)
    return player


# --- seasons -------------------------------------------------------------------------------


def _check_season(season: Season) -> None:
    _full_clean(season, validate_constraints=False)
    if season.end_date < season.start_date:
        raise field_error("end_date", _("The season ends before it starts."), "ends_before_start")
    others = Season.objects.filter(club_id=season.club_id).exclude(pk=season.pk)
    if others.filter(name=season.name).exists():
        raise field_error(
            "name",
            _("The club already has a season named %(name)s.") % {"name": season.name},
            "name_taken",
        )
    overlapping = (
        others.filter(start_date__lte=season.end_date, end_date__gte=season.start_date)
        .order_by("start_date")
        .first()
    )
    if overlapping is not None:
        field = (
            "start_date"
            if overlapping.start_date <= season.start_date <= overlapping.end_date
            else "end_date"
        )
        raise field_error(
            field,
            _("The season overlaps %(name)s (%(start)s to %(end)s).")
            % {
                "name": overlapping.name,
                "start": overlapping.start_date.isoformat(),
                "end": overlapping.end_date.isoformat(),
            },
            "season_overlap",
        )
    if season.pk is not None:
        sessions = Session.objects.filter(season=season)
        for field, outside in (
            ("start_date", sessions.filter(date__lt=season.start_date)),
            ("end_date", sessions.filter(date__gt=season.end_date)),
        ):
            first = outside.order_by("date").first()
            if first is not None:
                raise field_error(
                    field,
                    _("The season has a session on %(date)s outside these dates.")
                    % {"date": first.date.isoformat()},
                    "sessions_outside",
                )


@transaction.atomic
def season_create(
    *, club: Club, name: str, start_date: datetime.date | str, end_date: datetime.date | str
) -> Season:
    """A new season of ``club``; it may not overlap another season of the club."""
    season = Season(
        club=club,
        name=clean_name(name, field="name"),
        start_date=as_date(start_date, field="start_date"),
        end_date=as_date(end_date, field="end_date"),
    )
    _check_season(season)
    _save(season, field="start_date", message=_("The season overlaps another season."))
    club_changed.send(sender=Club, club_ids=[season.club_id])
    return season


@transaction.atomic
def season_update(*, season: Season, **fields: object) -> Season:
    """Rename a season or move its dates (never past one of its sessions, never into another
    season of the club)."""
    _check_fields(fields, SEASON_FIELDS, "season_update")
    with _restored_on_error(season, SEASON_FIELDS):
        for name, value in fields.items():
            if name in ("start_date", "end_date"):
                value = as_date(value, field=name)
            elif name == "name":
                value = clean_name(value, field="name")
            setattr(season, name, value)
        _check_season(season)
        _save(season, field="start_date", message=_("The season overlaps another season."))
    club_changed.send(sender=Club, club_ids=[season.club_id])
    return season


# --- sessions and tables -------------------------------------------------------------------


def session_get_or_create(*, club: Club, date: datetime.date | str) -> Session:
    """The club's session on ``date``, created in the club's season covering that date."""
    return session_ensure(club=club, date=date)[0]


@transaction.atomic
def session_ensure(
    *, club: Club, date: datetime.date | str, notes: str | None = None
) -> tuple[Session, bool]:
    """The club's session on ``date``, created if needed in the club's season covering that
    date, with ``notes`` when given; and whether it was created."""
    date = as_date(date, field="date")
    session = Session.objects.filter(club=club, date=date).first()
    created = session is None
    if session is None:
        season = season_covering(club, date)
        if season is None:
            raise field_error(
                "date",
                _("No season of %(club)s covers %(date)s: create a season first.")
                % {"club": club, "date": date.isoformat()},
                "no_season",
            )
        try:
            with transaction.atomic():
                session = Session.objects.create(club=club, season=season, date=date)
        except IntegrityError:  # created by a concurrent request a moment ago
            session, created = Session.objects.get(club=club, date=date), False
        else:
            club_changed.send(sender=Club, club_ids=[club.pk])
    if notes is not None:
        session = session_update(session=session, notes=notes)
    return session, created


@transaction.atomic
def session_update(*, session: Session, notes: str) -> Session:
    if not isinstance(notes, str):
        raise field_error("notes", _("Notes must be text."), "not_text")
    session.notes = clean_notes(notes, field="notes")
    session.save(update_fields=["notes", "updated_at"])
    club_changed.send(sender=Club, club_ids=[session.club_id])
    return session


@transaction.atomic
def table_create(*, session: Session, number: int | None = None, seats: int = 4) -> Table:
    """A new table in ``session``: ``number`` None takes the next free number."""
    if isinstance(seats, bool) or not isinstance(seats, int) or int(seats) not in (2, 4):
        raise field_error("seats", _("A table has four seats or two."), "invalid_seats")
    # Lock the session so that two tables created at once get different numbers: its row
    # alone (its ordering joins the club, whose row a plain FOR UPDATE would lock too, and
    # the foreign-key checks of every insert that names the club would wait for it).
    Session.objects.select_for_update(of=("self",)).filter(pk=session.pk).order_by().first()
    tables = Table.objects.filter(session=session)
    if number is None:
        number = (tables.aggregate(top=Max("number"))["top"] or 0) + 1
    if (
        isinstance(number, bool)
        or not isinstance(number, int)
        or not 0 < number <= TABLE_NUMBER_MAX
    ):
        message = _("A table number is a whole number from 1 to %(max)d.")
        raise field_error("number", message % {"max": TABLE_NUMBER_MAX}, "out_of_range")
    if tables.filter(number=number).exists():
        raise field_error(
            "number",
            _("Table %(number)s already exists in this session.") % {"number": number},
            "number_taken",
        )
    table = Table(session=session, number=number, seats=int(seats))
    _save(table, field="number", message=_("This table number is taken."))
    # The session shows how many tables it has: it changed (``updated_at``; no auto_now here).
    Session.objects.filter(pk=session.pk).update(updated_at=timezone.now())
    club_changed.send(sender=Club, club_ids=[session.club_id])
    return table
