"""Club nights in the Django admin: read-only, for looking things up (a night is started and
run from its pages or the API, through ``nights.services``). Scoped as in ``clubs.admin``."""

from typing import TYPE_CHECKING, ClassVar, TypeVar

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _

from clubs.admin import ClubScopedAdmin
from nights.models import Night, NightPlayer, Round, TableCode, TableEntry
from nights.movements import MOVEMENTS

if TYPE_CHECKING:  # generic to the type checker only: Django's classes take no arguments
    NightInline = admin.TabularInline[Model, Night]
else:
    NightInline = admin.TabularInline


class ReadOnlyInline(NightInline):
    extra = 0
    can_delete = False
    fields: ClassVar[tuple[str, ...]]  # each inline's, flat

    def get_readonly_fields(
        self, request: HttpRequest, obj: Night | None = None
    ) -> tuple[str, ...]:
        return self.fields

    def has_add_permission(self, request: HttpRequest, obj: Night | None = None) -> bool:
        return False


class NightPlayerInline(ReadOnlyInline):
    model = NightPlayer
    fields = ("position", "player", "group")


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "sitting_out", "started_at")


@admin.register(Night)
class NightAdmin(ClubScopedAdmin[Night]):
    club_lookup = "session__club"
    list_display = ("session", "movement_label", "rounds", "prizes")
    list_select_related = ("session__club",)
    readonly_fields = ("session", "movement_label", "remainder", "rounds", "tie_rule", "prizes")
    exclude = ("movement",)
    inlines = (NightPlayerInline, RoundInline)

    @admin.display(description=_("movement"), ordering="movement")
    def movement_label(self, night: Night) -> str:
        return str(MOVEMENTS[night.movement].label)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


_Viewed = TypeVar("_Viewed", TableCode, TableEntry)


class ViewOnlyAdmin(ClubScopedAdmin[_Viewed]):
    """Looked up, never changed here: codes and entries change through ``nights.services``
    (the director's board, the players' pages, the API)."""

    fields: ClassVar[tuple[str, ...]]  # each admin's, flat

    def get_readonly_fields(
        self, request: HttpRequest, obj: Model | None = None
    ) -> tuple[str, ...]:
        return self.fields or ()

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(TableCode)
class TableCodeAdmin(ViewOnlyAdmin[TableCode]):
    """A table's code: the short code shown, the link's token never (it opens the table)."""

    club_lookup = "night__session__club"
    list_display = ("night", "table_number", "short_code", "created_at", "revoked_at")
    list_select_related = ("night__session__club",)
    list_filter = ("revoked_at",)
    fields = ("night", "table_number", "short_code", "token_hidden", "created_at", "revoked_at")

    @admin.display(description=_("link token"))
    def token_hidden(self, obj: TableCode) -> str:
        return obj.token[:4] + "…" if obj.token else ""


@admin.register(TableEntry)
class TableEntryAdmin(ViewOnlyAdmin[TableEntry]):
    club_lookup = "code__night__session__club"
    list_display = ("match", "sequence", "contract", "declarer", "tricks", "state", "created_at")
    list_select_related = ("match__table__session__club",)
    list_filter = ("state",)
    fields = (
        "code",
        "match",
        "sequence",
        "correction",
        "passed_out",
        "contract",
        "declarer",
        "tricks",
        "side",
        "entered_by",
        "state",
        "decided_by",
        "resolved_by",
        "deal",
        "created_at",
        "decided_at",
    )
