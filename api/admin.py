"""Club API keys in the admin: a director creates and revokes keys for the clubs they direct.

The full key is shown once, in a message right after it is created; only its hash is stored.
A revoked key stays listed (revoking cannot be undone); keys are revoked, never deleted.
"""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from rest_framework_api_key.admin import APIKeyModelAdmin
from rest_framework_api_key.models import APIKey

from api import services as api_services
from api.models import WEBHOOK_EVENT_TYPES, ClubAPIKey, Delivery, WebhookEndpoint
from clubs.selectors import clubs_directed_by

# The library's own unscoped keys are not used: every key here belongs to a club.
if admin.site.is_registered(APIKey):
    admin.site.unregister(APIKey)


def _directs_a_club(request) -> bool:
    user = request.user
    return user.is_active and user.is_staff and clubs_directed_by(user).exists()


class DirectedClubsAdmin(admin.ModelAdmin):
    """A club's records (``club``), shown and changed only for the clubs the user directs."""

    def get_queryset(self, request):
        queryset = super().get_queryset(request).select_related("club")
        return queryset.filter(club__in=clubs_directed_by(request.user))

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

    def _may(self, request, obj) -> bool:
        if not _directs_a_club(request):
            return False
        return obj is None or clubs_directed_by(request.user).filter(pk=obj.club_id).exists()


@admin.register(ClubAPIKey)
class ClubAPIKeyAdmin(DirectedClubsAdmin, APIKeyModelAdmin):
    # The base class's tuples, typed by inference as those exact lengths: lists here.
    list_display = ["name", "prefix", "club", "access", "created", "expiry_date", "revoked"]  # type: ignore[assignment]
    list_filter = ["access", "revoked"]  # type: ignore[assignment]
    search_fields = ["name", "prefix"]  # type: ignore[assignment]
    fields = ["name", "club", "access", "expiry_date", "revoked", "prefix", "created_by"]
    actions = ["revoke"]

    def get_readonly_fields(self, request, obj=None):
        readonly = ["prefix", "created_by"]
        if obj is not None:
            readonly.append("club")
            if obj.revoked:
                readonly += ["name", "access", "expiry_date", "revoked"]
        return readonly

    def has_delete_permission(self, request, obj=None):
        return False  # revoke instead: the record of the key stays

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


# --- Webhooks (issue 20) -------------------------------------------------------------------


class WebhookForm(forms.ModelForm):
    events = forms.MultipleChoiceField(
        label=capfirst(_("events")),
        choices=WEBHOOK_EVENT_TYPES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The event types sent to this address."),
    )

    class Meta:
        model = WebhookEndpoint
        fields = ["club", "url", "events"]

    def clean(self):
        data = super().clean()
        if data is None:
            return data
        try:
            data["url"] = api_services.webhook_url_checked(data.get("url"))
            data["events"] = api_services.webhook_events_checked(data.get("events"))
        except ValidationError as error:
            raise forms.ValidationError(error.message_dict) from None
        return data


@admin.register(WebhookEndpoint)
class WebhookEndpointAdmin(DirectedClubsAdmin):
    form = WebhookForm
    list_display = ["url", "club", "active", "disabled_reason", "created_at"]
    list_filter = ["active"]
    readonly_fields = [
        "active", "disabled_reason", "disabled_at", "previous_secret_expires_at", "created_by",
        "created_at", "delivery_log",
    ]  # fmt: skip
    actions = ["enable", "disable", "rotate_secret", "send_test"]

    @admin.display(description=_("deliveries"))
    def delivery_log(self, obj) -> str:
        if obj.pk is None:
            return "-"
        url = reverse("admin:api_delivery_changelist") + f"?endpoint__id__exact={obj.pk}"
        return format_html('<a href="{}">{}</a>', url, gettext("The delivery log"))

    def has_delete_permission(self, request, obj=None):
        return self._may(request, obj)

    def save_model(self, request, obj, form=None, change=False):
        """Through the services, which make the signing secret (the form checked the rest)."""
        if change:
            api_services.webhook_update(endpoint=obj, url=obj.url, events=obj.events)
            return
        created = api_services.webhook_create(
            club=obj.club, url=obj.url, events=obj.events, actor=request.user
        )
        obj.__dict__.update(created.__dict__)  # the admin goes on with obj (its log, its page)
        self._show_secret(request, obj)

    def _show_secret(self, request, endpoint) -> None:
        """The secret, once: it is not shown on the endpoint's page."""
        messages.warning(
            request,
            format_html(
                "{} <code>{}</code> {}",
                gettext("The signing secret of %(url)s is:") % {"url": endpoint.url},
                endpoint.secret,
                gettext("Copy it now: it will not be shown again."),
            ),
        )

    @admin.action(description=_("New signing secrets (the old ones sign for 24 more hours)"))
    def rotate_secret(self, request, queryset):
        for endpoint in queryset:
            self._show_secret(request, api_services.webhook_rotate_secret(endpoint=endpoint))

    @admin.action(description=_("Send a test event to the selected endpoints"))
    def send_test(self, request, queryset):
        count = 0
        for endpoint in queryset:
            api_services.webhook_test(endpoint=endpoint)
            count += 1
        messages.success(request, gettext("%(count)d test events queued.") % {"count": count})

    @admin.action(description=_("Enable the selected endpoints and send what they missed"))
    def enable(self, request, queryset):
        count = 0
        for endpoint in queryset.filter(active=False):
            api_services.webhook_update(endpoint=endpoint, active=True)
            count += 1
        messages.success(request, gettext("%(count)d endpoints enabled.") % {"count": count})

    @admin.action(description=_("Disable the selected endpoints"))
    def disable(self, request, queryset):
        count = 0
        for endpoint in queryset.filter(active=True):
            api_services.webhook_update(endpoint=endpoint, active=False)
            count += 1
        messages.success(request, gettext("%(count)d endpoints disabled.") % {"count": count})


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = [
        "id",
        "event",
        "endpoint",
        "status",
        "attempts",
        "last_attempt_at",
        "last_status_code",
        "next_attempt_at",
    ]
    list_filter = ["status"]
    list_select_related = ["event", "endpoint"]
    readonly_fields = [
        "endpoint",
        "event",
        "status",
        "attempts",
        "last_attempt_at",
        "last_status_code",
        "last_error",
        "next_attempt_at",
        "retry_until",
        "created_at",
    ]
    actions = ["send_again"]

    def get_queryset(self, request):
        queryset = super().get_queryset(request)
        return queryset.filter(endpoint__club__in=clubs_directed_by(request.user))

    def has_module_permission(self, request):
        return _directs_a_club(request)

    def has_view_permission(self, request, obj=None):
        return self._may(request, obj)

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

    def _may(self, request, obj) -> bool:
        if not _directs_a_club(request):
            return False
        return (
            obj is None or clubs_directed_by(request.user).filter(pk=obj.endpoint.club_id).exists()
        )

    @admin.action(description=_("Send the selected deliveries again"), permissions=["view"])
    def send_again(self, request, queryset):
        count = 0
        for delivery in queryset:
            api_services.delivery_send_again(delivery=delivery)
            count += 1
        messages.success(request, gettext("%(count)d deliveries queued.") % {"count": count})
