"""The Django admin for clubs, players, memberships, seasons, sessions and tables.

A director (a staff user whose player has a director membership, in the "Directors" group
that ``clubs.services`` maintains) sees and changes only the clubs they direct; superusers see
everything. Querysets, foreign-key choices and object permissions are all scoped, and every
add or change goes through ``clubs.services`` (the forms call the service once they are
valid, so its errors show beside the fields).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, cast

from django import forms
from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters, InlineModelAdmin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Field, ForeignKey, Model, Prefetch, QuerySet
from django.db.models.fields.related import RelatedField
from django.http import HttpRequest
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from clubs.forms import ParTableField
from clubs.models import (
    CLUB_SETTINGS,
    Club,
    Membership,
    Player,
    Role,
    Season,
    Session,
    Table,
    TableSeats,
)
from clubs.selectors import club_ids_directed_by, clubs_directed_by, players_in_clubs
from clubs.services import (
    club_create,
    club_update,
    membership_set,
    player_create,
    player_update,
    season_create,
    season_update,
    session_get_or_create,
    session_update,
    table_create,
)
from clubs.signals import club_changed

if TYPE_CHECKING:
    from django.contrib.admin.options import _FieldGroups as FieldGroups
    from django.utils.functional import _StrOrPromise as StrOrPromise
    from django_stubs_ext import WithAnnotations

_ModelT = TypeVar("_ModelT", bound=Model)


def scoped_choices(model: type[Model], user: User | AnonymousUser) -> QuerySet[Any] | None:
    """The rows of ``model`` a user may pick in a form: those of the clubs they direct (through
    the model's ``ClubScopedAdmin``, of any app). None for a superuser (everything) or a model
    that is not club data."""
    if user.is_superuser:
        return None
    clubs = clubs_directed_by(user)
    if model is Club:
        return clubs
    if model is Player:
        return players_in_clubs(clubs)
    if model is get_user_model():
        return model.objects.filter(player__memberships__club__in=clubs).distinct()
    model_admin = admin.site.get_model_admin(model) if admin.site.is_registered(model) else None
    if isinstance(model_admin, ClubScopedAdmin):
        return model._default_manager.filter(**{f"{model_admin.club_lookup}__in": clubs})
    return None


def in_directed_clubs(queryset: QuerySet[_ModelT], user: User | AnonymousUser) -> QuerySet[_ModelT]:
    """``queryset`` (of rows with a ``club``) narrowed to the clubs ``user`` directs (all
    for a superuser)."""
    if user.is_superuser:
        return queryset
    return queryset.filter(club__in=clubs_directed_by(user))


class ClubListFilter(admin.RelatedFieldListFilter):
    """A list filter on a club: it offers the clubs the user directs (every club to a
    superuser). Another club given in the address is a bad filter value, never applied (a
    director must not learn which of their players belong to another club): the admin
    answers as for any bad filter, with the unfiltered list (``?e=1``)."""

    def __init__(
        self,
        field: Field[Any, Any],
        request: HttpRequest,
        params: dict[str, list[str]],
        model: type[Model],
        model_admin: admin.ModelAdmin[Any],
        field_path: str,
    ) -> None:
        super().__init__(field, request, params, model, model_admin, field_path)
        if self.lookup_val and not request.user.is_superuser:
            # The admin lets only signed-in staff users in.
            directed = {str(pk) for pk in club_ids_directed_by(cast(User, request.user))}
            if not set(self.lookup_val) <= directed:
                raise IncorrectLookupParameters

    def field_choices(
        self,
        field: RelatedField[Any, Any],
        request: HttpRequest,
        model_admin: admin.ModelAdmin[Any],
    ) -> list[tuple[str, StrOrPromise]]:
        ordering = self.field_admin_ordering(field, request, model_admin)
        limit = {"pk__in": clubs_directed_by(request.user)}
        # django-stubs types get_choices wider than the list of pairs it is here.
        return field.get_choices(  # type: ignore[return-value]
            include_blank=False, limit_choices_to=limit, ordering=ordering
        )


class ServiceForm(forms.ModelForm[_ModelT]):
    """A model form whose saving is a service call.

    Once every field is valid, ``save_through_service`` runs (in a savepoint) and returns the
    saved object; its ``ValidationError`` is shown beside the fields it names. The admin then
    only logs and redirects (``ClubScopedAdmin.save_model`` writes nothing itself).
    """

    request: Any = None  # the HttpRequest, bound by ClubScopedAdmin.get_form

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if (
                isinstance(field, forms.ModelChoiceField)
                and field.queryset is not None
                and self.request is not None
            ):
                scoped = scoped_choices(field.queryset.model, self.request.user)
                if scoped is not None:
                    field.queryset = scoped

    @property
    def adding(self) -> bool:
        return self.instance.pk is None

    def changed(self, names: Iterable[str]) -> dict[str, Any]:
        """The cleaned values of the fields among ``names`` that changed."""
        return {name: self.cleaned_data[name] for name in names if name in self.changed_data}

    def save_through_service(self) -> _ModelT:
        raise NotImplementedError

    def _post_clean(self) -> None:
        # The service validates and saves; the model is not validated twice.
        if self.errors:
            return
        try:
            with transaction.atomic():
                self.instance = self.save_through_service()
        except ValidationError as error:
            self.add_service_error(error)

    def add_service_error(self, error: ValidationError) -> None:
        if not hasattr(error, "error_dict"):
            self.add_error(None, error)
            return
        for field, errors in error.error_dict.items():
            self.add_error(field if field in self.fields else None, errors)


class ClubScopedAdmin(admin.ModelAdmin[_ModelT]):
    """Everything a director sees or picks belongs to a club they direct.

    The inlines (a player's memberships, a session's tables) are read-only: Django saves their
    formsets as usual, which writes nothing and lets the admin's log describe the change.
    """

    club_lookup = "club"  # the path from this model to its club
    add_form: type[ServiceForm[_ModelT]] | None = None  # the form on the add page, if not ``form``

    def get_queryset(self, request: HttpRequest) -> QuerySet[_ModelT]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        clubs = clubs_directed_by(request.user)
        in_scope = self.model._default_manager.filter(**{f"{self.club_lookup}__in": clubs})
        return queryset.filter(pk__in=in_scope.values("pk"))

    def in_scope(self, request: HttpRequest, obj: _ModelT | None) -> bool:
        if obj is None or request.user.is_superuser:
            return True
        return self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_view_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return super().has_view_permission(request, obj) and self.in_scope(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return super().has_change_permission(request, obj) and self.in_scope(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: _ModelT | None = None) -> bool:
        return super().has_delete_permission(request, obj) and self.in_scope(request, obj)

    def formfield_for_foreignkey(
        self, db_field: ForeignKey[Any, Any], request: HttpRequest, **kwargs: Any
    ) -> forms.ModelChoiceField[Any] | None:
        scoped = scoped_choices(db_field.related_model, request.user)
        if scoped is not None:
            kwargs["queryset"] = scoped
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def get_form(
        self, request: HttpRequest, obj: _ModelT | None = None, change: bool = False, **kwargs: Any
    ) -> type[forms.ModelForm[_ModelT]]:
        if obj is None and self.add_form is not None:
            kwargs.setdefault("form", self.add_form)
        form = super().get_form(request, obj, change=change, **kwargs)
        return cast(
            "type[forms.ModelForm[_ModelT]]", type(form.__name__, (form,), {"request": request})
        )

    def save_model(
        self, request: HttpRequest, obj: _ModelT, form: forms.ModelForm[_ModelT], change: bool
    ) -> None:
        """The form's service has saved the object already."""

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[_ModelT]) -> None:
        """Deleting (superusers only) also tells the read cache that the clubs changed."""
        club_ids = set(queryset.values_list(self.club_lookup, flat=True))
        super().delete_queryset(request, queryset)
        club_changed.send(sender=Club, club_ids=club_ids - {None})

    def delete_model(self, request: HttpRequest, obj: _ModelT) -> None:
        self.delete_queryset(request, self.model._default_manager.filter(pk=obj.pk))


# --- clubs ---------------------------------------------------------------------------------


class OriginsField(forms.CharField):
    """A club's API origins typed one per line (the service checks each)."""

    widget = forms.Textarea(attrs={"rows": 3, "cols": 60})

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            return "\n".join(value)
        return value

    def to_python(self, value: Any) -> list[str]:  # type: ignore[override]  # lines, not a str
        text = super().to_python(value) or ""
        return [line.strip() for line in text.splitlines() if line.strip()]

    def has_changed(self, initial: Any, data: Any) -> bool:
        return list(initial or []) != self.to_python(data)


class ClubForm(ServiceForm[Club]):
    par_table = ParTableField(
        label=_("Par table"),
        help_text=_(
            "The expected score of the side with more high-card points, for 20 to 40 HCP. "
            "Read only when par scoring is on; a change re-reads the season's par results."
        ),
    )
    api_origins = OriginsField(
        label=_("API origins"),
        required=False,
        help_text=format_lazy(
            "{} {}",
            _("One per line."),
            Club._meta.get_field("api_origins").help_text,
        ),
    )

    class Meta:
        model = Club
        fields = CLUB_SETTINGS

    def save_through_service(self) -> Club:
        if self.adding:
            return club_create(creator=self.request.user, **self.cleaned_data)
        return club_update(
            club=self.instance, actor=self.request.user, **self.changed(CLUB_SETTINGS)
        )


@admin.register(Club)
class ClubAdmin(ClubScopedAdmin[Club]):
    club_lookup = "pk"
    form = ClubForm
    fields = CLUB_SETTINGS
    list_display = ["name", "slug", "country", "public", "chicago_vulnerability"]
    list_filter = ["public", "country"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}


# --- players and memberships ---------------------------------------------------------------


class MembershipInline(admin.TabularInline[Membership, Player]):
    """A player's clubs, shown read-only on the player page (changed through memberships)."""

    model = Membership
    extra = 0
    fields = ["club", "role", "active"]
    readonly_fields = ["club", "role", "active"]
    can_delete = False

    def get_queryset(self, request: HttpRequest) -> QuerySet[Membership]:
        return in_directed_clubs(super().get_queryset(request), request.user)

    def has_add_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return False


class PlayerAddForm(ServiceForm[Player]):
    club = forms.ModelChoiceField(label=_("Club"), queryset=Club.objects.all())
    role = forms.ChoiceField(label=_("Role"), choices=Role.choices, initial=Role.PLAYER)
    active = forms.BooleanField(
        label=_("Active"), required=False, initial=True, help_text=Membership.active.field.help_text
    )

    class Meta:
        model = Player
        fields = ["name", "user"]

    def save_through_service(self) -> Player:
        data = self.cleaned_data
        return player_create(
            club=data["club"],
            name=data["name"],
            user=data.get("user"),
            role=data["role"],
            active=data["active"],
            actor=self.request.user,
        )


class PlayerChangeForm(ServiceForm[Player]):
    class Meta:
        model = Player
        fields = ["name", "user"]

    def save_through_service(self) -> Player:
        return player_update(
            player=self.instance, actor=self.request.user, **self.changed(["name", "user"])
        )


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin[Player]):
    club_lookup = "memberships__club"
    form = PlayerChangeForm
    add_form = PlayerAddForm
    inlines = [MembershipInline]
    list_display = ["name", "club_names"]
    list_filter = [("memberships__club", ClubListFilter)]
    search_fields = ["name"]

    def get_fields(self, request: HttpRequest, obj: Player | None = None) -> FieldGroups:
        return ["club", "role", "name", "active", "user"] if obj is None else ["name", "user"]

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> list[str]:
        # Only a superuser links a player to a user account (it grants a director admin access).
        return [] if request.user.is_superuser else ["user"]

    def get_inline_instances(
        self, request: HttpRequest, obj: Player | None = None
    ) -> list[InlineModelAdmin[Any, Any]]:
        return [] if obj is None else super().get_inline_instances(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        memberships = in_directed_clubs(Membership.objects.select_related("club"), request.user)
        return (
            super()
            .get_queryset(request)
            .prefetch_related(Prefetch("memberships", memberships, to_attr="directed"))
        )

    @admin.display(description=_("clubs"))
    def club_names(self, player: Player) -> str:
        """The player's clubs among those the user directs."""
        # The prefetch's to_attr (get_queryset), which django-stubs cannot see.
        directed: list[Membership] = player.directed  # type: ignore[attr-defined]
        return ", ".join(sorted(m.club.name for m in directed))


class MembershipForm(ServiceForm[Membership]):
    class Meta:
        model = Membership
        fields = ["club", "player", "role", "active"]

    def save_through_service(self) -> Membership:
        # Adding, both fields are required; changing, they may be read-only.
        club = self.cleaned_data.get("club") or self.instance.club
        player = self.cleaned_data.get("player") or self.instance.player
        return membership_set(
            club=club,
            player=player,
            role=self.cleaned_data["role"],
            active=self.cleaned_data["active"],
            actor=self.request.user,
        )


@admin.register(Membership)
class MembershipAdmin(ClubScopedAdmin[Membership]):
    form = MembershipForm
    list_display = ["player", "club", "role", "active"]
    list_filter = [("club", ClubListFilter), "role", "active"]
    search_fields = ["player__name"]
    list_select_related = ["player", "club"]

    def get_fields(self, request: HttpRequest, obj: Membership | None = None) -> FieldGroups:
        return ["club", "player", "role", "active"]

    def get_readonly_fields(self, request: HttpRequest, obj: Membership | None = None) -> list[str]:
        return [] if obj is None else ["club", "player"]


# --- seasons, sessions and tables ----------------------------------------------------------


class SeasonForm(ServiceForm[Season]):
    class Meta:
        model = Season
        fields = ["club", "name", "start_date", "end_date"]

    def save_through_service(self) -> Season:
        if self.adding:
            return season_create(**self.cleaned_data)
        return season_update(
            season=self.instance, **self.changed(["name", "start_date", "end_date"])
        )


@admin.register(Season)
class SeasonAdmin(ClubScopedAdmin[Season]):
    form = SeasonForm
    list_display = ["name", "club", "start_date", "end_date"]
    list_filter = [("club", ClubListFilter)]
    search_fields = ["name", "club__name"]
    list_select_related = ["club"]

    def get_fields(self, request: HttpRequest, obj: Season | None = None) -> FieldGroups:
        return ["club", "name", "start_date", "end_date"]

    def get_readonly_fields(self, request: HttpRequest, obj: Season | None = None) -> list[str]:
        return [] if obj is None else ["club"]


class SessionForm(ServiceForm[Session]):
    class Meta:
        model = Session
        fields = ["club", "date", "notes"]

    def save_through_service(self) -> Session:
        if self.adding:
            club, date = self.cleaned_data["club"], self.cleaned_data["date"]
            if Session.objects.filter(club=club, date=date).exists():
                raise ValidationError({"date": [_("The club already has a session that day.")]})
            session = session_get_or_create(club=club, date=date)
        else:
            session = self.instance
        return session_update(session=session, notes=self.cleaned_data.get("notes", ""))


class TableInline(admin.TabularInline[Table, Session]):
    model = Table
    extra = 0
    fields = ["number", "seats"]
    readonly_fields = ["number", "seats"]
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request: HttpRequest, obj: Session | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Session | None = None) -> bool:
        return False


class TablesCount(TypedDict):
    """The annotation of ``SessionAdmin.get_queryset``'s sessions."""

    tables_count: int


@admin.register(Session)
class SessionAdmin(ClubScopedAdmin[Session]):
    form = SessionForm
    inlines = [TableInline]
    list_display = ["date", "club", "season", "table_count"]
    list_filter = [
        ("club", ClubListFilter),
        ("season", admin.RelatedOnlyFieldListFilter),
    ]
    date_hierarchy = "date"
    search_fields = ["club__name", "notes"]
    list_select_related = ["club", "season"]

    def get_fields(self, request: HttpRequest, obj: Session | None = None) -> FieldGroups:
        return ["club", "date", "notes"] if obj is None else ["club", "season", "date", "notes"]

    def get_readonly_fields(self, request: HttpRequest, obj: Session | None = None) -> list[str]:
        return [] if obj is None else ["club", "season", "date"]

    def get_inline_instances(
        self, request: HttpRequest, obj: Session | None = None
    ) -> list[InlineModelAdmin[Any, Any]]:
        return [] if obj is None else super().get_inline_instances(request, obj)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Session]:
        return super().get_queryset(request).annotate(tables_count=Count("tables"))

    @admin.display(description=_("tables"), ordering="tables_count")
    def table_count(self, session: WithAnnotations[Session, TablesCount]) -> int:
        return session.tables_count


class TableForm(ServiceForm[Table]):
    number = forms.IntegerField(
        label=_("Number"),
        required=False,
        min_value=1,
        help_text=_("Leave empty for the next free number."),
    )
    seats = forms.TypedChoiceField(
        label=_("Seats"), choices=TableSeats.choices, coerce=int, initial=TableSeats.FOUR
    )

    class Meta:
        model = Table
        fields = ["session", "number", "seats"]

    def save_through_service(self) -> Table:
        data = self.cleaned_data
        return table_create(session=data["session"], number=data["number"], seats=data["seats"])


@admin.register(Table)
class TableAdmin(ClubScopedAdmin[Table]):
    club_lookup = "session__club"
    add_form = TableForm
    list_display = ["__str__", "session", "number", "seats"]
    list_filter = [("session__club", ClubListFilter), "seats"]
    search_fields = ["session__club__name"]
    list_select_related = ["session__club"]

    def get_fields(self, request: HttpRequest, obj: Table | None = None) -> FieldGroups:
        return ["session", "number", "seats"]

    def get_readonly_fields(self, request: HttpRequest, obj: Table | None = None) -> list[str]:
        # A table's number and seats are fixed once it exists (its matches depend on them).
        return [] if obj is None else ["session", "number", "seats"]
