"""Club nights in the Django admin: read-only, for looking things up (a night is started and
run from its pages or the API, through ``nights.services``). Scoped as in ``clubs.admin``."""

from django.contrib import admin

from clubs.admin import ClubScopedAdmin
from nights.models import Night, NightPlayer, Round


class NightPlayerInline(admin.TabularInline):
    model = NightPlayer
    fields = ("position", "player", "group")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


class RoundInline(admin.TabularInline):
    model = Round
    fields = ("number", "sitting_out", "started_at")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Night)
class NightAdmin(ClubScopedAdmin):
    club_lookup = "session__club"
    list_display = ("session", "movement", "rounds", "prizes")
    list_select_related = ("session__club",)
    readonly_fields = ("session", "movement", "remainder", "rounds", "tie_rule", "prizes")
    inlines = (NightPlayerInline, RoundInline)

    def has_add_permission(self, request):
        return False
