"""Club nights in the Django admin: read-only, for looking things up (a night is started and
run from its pages or the API, through ``nights.services``). Scoped as in ``clubs.admin``."""

from django.contrib import admin

from clubs.admin import ClubScopedAdmin
from nights.models import Night, NightPlayer, Round


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_add_permission(self, request, obj=None):
        return False


class NightPlayerInline(ReadOnlyInline):
    model = NightPlayer
    fields = ("position", "player", "group")


class RoundInline(ReadOnlyInline):
    model = Round
    fields = ("number", "sitting_out", "started_at")


@admin.register(Night)
class NightAdmin(ClubScopedAdmin):
    club_lookup = "session__club"
    list_display = ("session", "movement", "rounds", "prizes")
    list_select_related = ("session__club",)
    readonly_fields = ("session", "movement", "remainder", "rounds", "tie_rule", "prizes")
    inlines = (NightPlayerInline, RoundInline)

    def has_add_permission(self, request):
        return False
