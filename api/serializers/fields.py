"""Related fields limited to what the requesting client can see.

An id the client cannot see is refused as if it did not exist (400 on that field, "does not
exist"), so another club's ids leak nothing. A club the client can see but does not direct is
a 403: the client may read it, not write to it.
"""

from django.db.models import Model
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers
from rest_framework.exceptions import PermissionDenied

from api import access
from clubs.models import Club, Session, Table


class _RequestScopedField(serializers.PrimaryKeyRelatedField):
    default_error_messages = {
        "does_not_exist": _("There is no %(what)s with id {pk_value} that you can use."),
        "incorrect_type": _("Expected an id (an integer), got {data_type}."),
    }
    model: type[Model]
    what: str | Promise = ""

    def __init__(self, **kwargs):
        kwargs.setdefault("queryset", self.model._default_manager.none())
        super().__init__(**kwargs)
        self.error_messages["does_not_exist"] = self.error_messages["does_not_exist"] % {
            "what": self.what
        }

    def scoped_queryset(self, request):
        raise NotImplementedError

    def get_queryset(self):
        return self.scoped_queryset(self.context["request"])

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | str):
            self.fail("incorrect_type", data_type=type(data).__name__)
        try:
            pk = int(data)
        except ValueError:
            self.fail("incorrect_type", data_type=type(data).__name__)
        if not -(2**63) <= pk < 2**63:
            self.fail("does_not_exist", pk_value=data)
        return super().to_internal_value(pk)


class WritableClubField(_RequestScopedField):
    """A club the client directs (or its read-write key's club)."""

    model = Club
    what = _("club")

    def scoped_queryset(self, request):
        return access.readable_clubs(request)

    def to_internal_value(self, data):
        club = super().to_internal_value(data)
        if not access.can_write_club(self.context["request"], club.pk):
            raise PermissionDenied(_("You do not direct this club."))
        return club


class MemberSessionField(_RequestScopedField):
    model = Session
    what = _("session")

    def scoped_queryset(self, request):
        return Session.objects.filter(club__in=access.member_clubs(request)).select_related("club")


class MemberTableField(_RequestScopedField):
    model = Table
    what = _("table")

    def scoped_queryset(self, request):
        return Table.objects.filter(session__club__in=access.member_clubs(request)).select_related(
            "session__club"
        )


class DistinctListField(serializers.ListField):
    """A list whose items are all different: the schema says ``uniqueItems`` (api.schema); a
    repeated one is still the service's 400 naming the field."""
