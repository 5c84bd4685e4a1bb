"""Club API keys in the admin: a director creates and revokes keys for the clubs they direct.

The full key is shown once, in a message right after it is created; only its hash is stored.
A revoked key stays listed (revoking cannot be undone); keys are revoked, never deleted.
"""

from django.contrib import admin, messages
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework_api_key.admin import APIKeyModelAdmin
from rest_framework_api_key.models import APIKey

from api.models import ClubAPIKey
from clubs.selectors import clubs_directed_by

# The library's own unscoped keys are not used: every key here belongs to a club.
if admin.site.is_registered(APIKey):
    admin.site.unregister(APIKey)


def _directs_a_club(request) -> bool:
    user = request.user
    return user.is_active and user.is_staff and clubs_directed_by(user).exists()


@admin.register(ClubAPIKey)
class ClubAPIKeyAdmin(APIKeyModelAdmin):
    # The base class's tuples, typed by inference as those exact lengths: lists here.
    list_display = ["name", "prefix", "club", "access", "created", "expiry_date", "revoked"]  # type: ignore[assignment]
    list_filter = ["access", "revoked"]  # type: ignore[assignment]
    search_fields = ["name", "prefix"]  # type: ignore[assignment]
    fields = ["name", "club", "access", "expiry_date", "revoked", "prefix", "created_by"]
    actions = ["revoke"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("club")
        return queryset.filter(club__in=clubs_directed_by(request.user))

    def get_readonly_fields(self, request, obj=None):
        readonly = ["prefix", "created_by"]
        if obj is not None:
            readonly.append("club")
            if obj.revoked:
                readonly += ["name", "access", "expiry_date", "revoked"]
        return readonly

    def formfield_for_foreignkey(self, db_field, request, **kwargs):
        if db_field.name == "club":
            kwargs["queryset"] = clubs_directed_by(request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request):
        return _directs_a_club(request)

    def has_view_permission(self, request, obj=None):
        return self._may(request, obj)

    def has_add_permission(self, request):
        return _directs_a_club(request)

    def has_change_permission(self, request, obj=None):
        return self._may(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False  # revoke instead: the record of the key stays

    def _may(self, request, obj) -> bool:
        if not _directs_a_club(request):
            return False
        return obj is None or clubs_directed_by(request.user).filter(pk=obj.club_id).exists()

    def save_model(self, request, obj, form=None, change=False):
        if change:
            obj.save()
            return
        obj.created_by = request.user
        key = ClubAPIKey.objects.assign_key(obj)
        obj.save()
        messages.warning(
            request,
            format_html(
                "{} <code>{}</code> {}",
                gettext("The API key %(name)s for %(club)s is:")
                % {"name": obj.name, "club": obj.club},
                key,
                gettext("Copy it now: it is stored hashed and will not be shown again."),
            ),
        )

    @admin.action(description=_("Revoke the selected keys"))
    def revoke(self, request, queryset):
        count = queryset.filter(revoked=False).update(revoked=True)
        messages.success(request, gettext("%(count)d keys revoked.") % {"count": count})
