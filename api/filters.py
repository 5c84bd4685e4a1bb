"""Filtering and ordering for list endpoints, strict about their query parameters.

Every list accepts only its filters, ``ordering``, ``page`` and ``page_size``: any other
query parameter is a 400 naming it, and so is one given twice or empty (``api.middleware``,
for every endpoint) (a misspelt filter silently ignored would return the
wrong rows). A ``club`` filter accepts only a club whose rows of that list the client reads;
any other id, of a club that exists or not, is a 400 naming ``club`` (a player list filtered
by another club would tell which of the client's players belong to it). ``ordering`` takes
the view's public field names (comma-separated, ``-`` for descending) and always ends with
the primary key, so pages never overlap or skip a row.
"""

import datetime
from collections.abc import Callable

import django_filters
from django import forms
from django.db.models import QuerySet
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_filters.fields import IsoDateTimeField
from django_filters.rest_framework import DjangoFilterBackend
from drf_spectacular.utils import extend_schema_field
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.filters import BaseFilterBackend
from rest_framework.settings import api_settings

from api import access
from api.ids import MAX_ID
from clubs.models import Club, Membership, Player, Season, Session, Table
from matches.models import KindChoice, Match, MatchStatus, played_by
from nights.models import Night
from nights.movements import choices as movement_choices

ORDERING_PARAM = "ordering"


def _filters_this_action(view) -> bool:
    return getattr(view, "action", None) in getattr(view, "filtered_actions", ("list",))


def allowed_query_params(view) -> set[str]:
    allowed = {ORDERING_PARAM} if getattr(view, "ordering_fields", None) else set()
    paginator = getattr(view, "paginator", None)
    if paginator is not None:
        allowed |= {paginator.page_query_param, paginator.page_size_query_param}
    filterset_class = getattr(view, "filterset_class", None)
    if filterset_class is not None:
        allowed |= set(filterset_class.base_filters)
    if len(view.get_renderers()) > 1:  # ?format=csv (api.exports)
        allowed.add(api_settings.URL_FORMAT_OVERRIDE)
    return allowed


class StrictFilterBackend(DjangoFilterBackend):
    """django-filter's backend, refusing query parameters the list does not know."""

    def filter_queryset(self, request, queryset, view):
        if not _filters_this_action(view):
            return queryset
        allowed = allowed_query_params(view)
        unknown = sorted(set(request.query_params) - allowed)
        if unknown:
            names = ", ".join(sorted(allowed))
            message = gettext("unknown query parameter; this list accepts: %(names)s")
            raise ValidationError(
                {name: [ErrorDetail(message % {"names": names}, "unknown")] for name in unknown}
            )
        return super().filter_queryset(request, queryset, view)


class OrderingFilter(BaseFilterBackend):
    """``?ordering=name,-id``: the view's ``ordering_fields`` maps each public name to a
    queryset path; ``ordering`` (public names) is the default. The primary key breaks ties."""

    def get_ordering(self, request, view) -> list[str]:
        fields: dict[str, str] = view.ordering_fields
        # Comma-separated, or repeated (a generated client's array): the same list.
        raw = ",".join(request.query_params.getlist(ORDERING_PARAM))
        wanted = [part.strip() for part in (raw or "").split(",") if part.strip()]
        if not wanted:
            # Not given, or empty: how a client sends an empty list ("?ordering=", the
            # schema's comma-separated array).
            wanted = list(view.ordering)
        else:
            bad = [term for term in wanted if term.removeprefix("-") not in fields]
            if bad:
                message = gettext(
                    "unknown ordering %(bad)s; order by %(names)s, '-' for descending"
                )
                raise ValidationError(
                    {
                        ORDERING_PARAM: [
                            ErrorDetail(
                                message
                                % {
                                    "bad": ", ".join(repr(b) for b in bad) or repr(raw),
                                    "names": ", ".join(fields),
                                },
                                "unknown_ordering",
                            )
                        ]
                    }
                )
        ordering = []
        for term in wanted:
            descending = term.startswith("-")
            path = fields[term.removeprefix("-")]
            ordering.append(f"-{path}" if descending else path)
        if not any(term.removeprefix("-") in ("id", "pk") for term in ordering):
            ordering.append("id")
        return ordering

    def filter_queryset(self, request, queryset, view):
        if not _filters_this_action(view) or not getattr(view, "ordering_fields", None):
            return queryset
        return queryset.order_by(*self.get_ordering(request, view))

    def get_schema_operation_parameters(self, view):
        fields = getattr(view, "ordering_fields", None)
        if not fields:
            return []
        choices = [name for field in fields for name in (field, f"-{field}")]
        return [
            {
                "name": ORDERING_PARAM,
                "required": False,
                "in": "query",
                "description": gettext(
                    "Order by these fields, comma-separated or the parameter repeated, '-' for "
                    "descending (default: %(default)s); the id always breaks ties."
                )
                % {"default": ",".join(view.ordering)},
                "schema": {"type": "array", "items": {"type": "string", "enum": choices}},
                "style": "form",
                "explode": False,
            }
        ]


# --- Filter sets ----------------------------------------------------------------------------


@extend_schema_field({"type": "integer", "minimum": 1, "maximum": MAX_ID})
class IdFilter(django_filters.Filter):
    """An id: a whole number from 1 that fits a database key (a larger one is a 400, never a
    database error)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 1)
        kwargs.setdefault("max_value", MAX_ID)
        super().__init__(*args, **kwargs)


class ClubIdFilter(IdFilter):
    """A club's id, refused (a 400 naming the filter) unless it is one of ``clubs(request)``:
    the clubs whose rows of this list the client reads."""

    def __init__(self, *args, clubs: Callable[..., QuerySet[Club]], **kwargs):
        super().__init__(*args, **kwargs)
        self.clubs = clubs

    @property
    def field(self):
        # As django-filter's own request-dependent filters do: set before the field is made.
        self.extra["validators"] = [self.visible_to(getattr(self.parent, "request", None))]
        return super().field

    def visible_to(self, request) -> Callable[[int], None]:
        def check(club_id: int) -> None:
            if request is None or not self.clubs(request).filter(pk=club_id).exists():
                message = gettext("There is no club with id %(id)s that this list can show you.")
                raise forms.ValidationError(message % {"id": club_id}, code="invalid_choice")

        return check


@extend_schema_field({"type": "string", "minLength": 1, "pattern": r"^[^\u0000]*$"})
class TextFilter(django_filters.CharFilter):
    """A text, never empty: ``?search=`` is a 400 naming it (``api.middleware``), as the
    schema's ``minLength`` says; nor with a NUL character (a 400 too, from Django's form
    field), as its ``pattern`` says."""


@extend_schema_field({"type": "boolean"})
class BoolFilter(django_filters.TypedChoiceFilter):
    """true or false; anything else is a 400 (django-filter's BooleanFilter ignores it)."""

    def __init__(self, *args, **kwargs):
        kwargs["choices"] = [("true", "true"), ("false", "false")]
        kwargs["coerce"] = lambda value: value == "true"
        super().__init__(*args, **kwargs)


class _UTCDateTimeField(IsoDateTimeField):
    """An ISO 8601 date-time; one without an offset is UTC (not the server's time zone)."""

    def to_python(self, value):
        with timezone.override(datetime.UTC):
            return super().to_python(value)


@extend_schema_field({"type": "string", "format": "date-time"})
class UpdatedSinceFilter(django_filters.IsoDateTimeFilter):
    """``updated_since``: the rows whose ``updated_at`` is at or after an ISO 8601 date-time
    (``2026-03-14T19:30:00Z``; without an offset, UTC). At, not only after: a client that
    polls with the newest ``updated_at`` it has seen gets that row again rather than miss one
    changed in the same instant. Anything else is a 400 naming it."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("field_name", "updated_at")
        kwargs.setdefault("lookup_expr", "gte")
        kwargs.setdefault(
            "help_text",
            _(
                "Only what changed at or after this time (ISO 8601 date-time, e.g. "
                "2026-03-14T19:30:00Z; UTC without an offset): send the newest updated_at "
                "you have seen."
            ),
        )
        super().__init__(*args, **kwargs)

    field_class = _UTCDateTimeField


class ClubFilter(django_filters.FilterSet):
    slug = TextFilter(help_text=_("The club with this slug."))
    public = BoolFilter(help_text=_("Public clubs only, or private only."))
    search = TextFilter(
        field_name="name", lookup_expr="icontains", help_text=_("Part of the name, any case.")
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Club
        fields = ["slug", "public", "search", "updated_since"]


class PlayerFilter(django_filters.FilterSet):
    """``club`` and ``active`` select memberships together: ``?club=1&active=false`` is the
    players inactive in club 1, whatever their other clubs say."""

    club = ClubIdFilter(
        method="filter_membership",
        clubs=access.member_clubs,
        help_text=_("A club the player belongs to."),
    )
    search = TextFilter(method="filter_search", help_text=_("Part of the player's name, any case."))
    active = BoolFilter(
        method="filter_membership",
        help_text=_("Players active (or inactive) in club, or in any of your clubs without it."),
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Player
        fields = ["club", "search", "active", "updated_since"]

    def filter_search(self, queryset, name, value):
        return queryset.filter(name__icontains=value) if value else queryset

    def filter_membership(self, queryset, name, value):
        return queryset  # both are applied at once, in filter_queryset

    def filter_queryset(self, queryset):
        queryset = super().filter_queryset(queryset)
        data = self.form.cleaned_data
        wanted = {
            field: data[name]
            for name, field in (("club", "club_id"), ("active", "active"))
            if data.get(name) not in (None, "")
        }
        if not wanted:
            return queryset
        memberships = Membership.objects.filter(club__in=access.member_clubs(self.request))
        return queryset.filter(pk__in=memberships.filter(**wanted).values("player_id"))


class SeasonFilter(django_filters.FilterSet):
    club = ClubIdFilter(
        field_name="club_id", clubs=access.readable_clubs, help_text=_("The club's id.")
    )
    date = django_filters.DateFilter(
        method="filter_date", help_text=_("Only the season covering this date.")
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Season
        fields = ["club", "date", "updated_since"]

    def filter_date(self, queryset, name, value):
        return queryset.filter(start_date__lte=value, end_date__gte=value)


class SessionFilter(django_filters.FilterSet):
    club = ClubIdFilter(
        field_name="club_id", clubs=access.member_clubs, help_text=_("The club's id.")
    )
    season = IdFilter(field_name="season_id", help_text=_("The season's id."))
    date = django_filters.DateFilter(field_name="date", help_text=_("Sessions on this date."))
    date_after = django_filters.DateFilter(
        field_name="date", lookup_expr="gte", help_text=_("Sessions on or after this date.")
    )
    date_before = django_filters.DateFilter(
        field_name="date", lookup_expr="lte", help_text=_("Sessions on or before this date.")
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Session
        fields = ["club", "season", "date", "date_after", "date_before", "updated_since"]


class TableFilter(django_filters.FilterSet):
    club = ClubIdFilter(
        field_name="session__club_id", clubs=access.member_clubs, help_text=_("The club's id.")
    )
    session = IdFilter(field_name="session_id", help_text=_("The session's id."))
    seats = django_filters.TypedChoiceFilter(
        choices=[(2, "2"), (4, "4")], coerce=int, help_text=_("Tables of 2 or of 4.")
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Table
        fields = ["club", "session", "seats", "updated_since"]


class MatchFilter(django_filters.FilterSet):
    club = ClubIdFilter(
        field_name="table__session__club_id",
        clubs=access.readable_clubs,
        help_text=_("The club's id."),
    )
    season = IdFilter(field_name="season_id", help_text=_("The season's id."))
    session = IdFilter(field_name="table__session_id", help_text=_("The session's id."))
    player = IdFilter(
        method="filter_player", help_text=_("Matches this player played in, in any seat.")
    )
    kind = django_filters.ChoiceFilter(choices=KindChoice.choices)
    status = django_filters.ChoiceFilter(choices=MatchStatus.choices)
    played_on = django_filters.DateFilter(
        field_name="table__session__date", help_text=_("Matches played on this date.")
    )
    played_after = django_filters.DateFilter(
        field_name="table__session__date",
        lookup_expr="gte",
        help_text=_("Matches played on or after this date."),
    )
    played_before = django_filters.DateFilter(
        field_name="table__session__date",
        lookup_expr="lte",
        help_text=_("Matches played on or before this date."),
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Match
        fields = [
            "club",
            "season",
            "session",
            "player",
            "kind",
            "status",
            "played_on",
            "played_after",
            "played_before",
            "updated_since",
        ]

    def filter_player(self, queryset, name, value):
        return queryset.filter(played_by(value))


class NightFilter(django_filters.FilterSet):
    club = ClubIdFilter(
        field_name="session__club_id", clubs=access.member_clubs, help_text=_("The club's id.")
    )
    season = IdFilter(field_name="session__season_id", help_text=_("The season's id."))
    movement = django_filters.ChoiceFilter(
        choices=movement_choices(), help_text=_("Nights of this movement.")
    )
    date = django_filters.DateFilter(
        field_name="session__date", help_text=_("Nights on this date.")
    )
    date_after = django_filters.DateFilter(
        field_name="session__date", lookup_expr="gte", help_text=_("Nights on or after this date.")
    )
    date_before = django_filters.DateFilter(
        field_name="session__date",
        lookup_expr="lte",
        help_text=_("Nights on or before this date."),
    )

    updated_since = UpdatedSinceFilter()

    class Meta:
        model = Night
        fields = [
            "club",
            "season",
            "movement",
            "date",
            "date_after",
            "date_before",
            "updated_since",
        ]
