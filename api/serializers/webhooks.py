"""Events (``GET /api/v1/events/``) and webhook endpoints with their deliveries."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.models import (
    WEBHOOK_EVENT_TYPES,
    Delivery,
    DeliveryStatus,
    Event,
    EventType,
    WebhookEndpoint,
)
from api.serializers.common import StrictInput
from api.serializers.fields import WritableClubField


class EventSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="club_id", read_only=True)
    type = serializers.ChoiceField(choices=EventType.choices, read_only=True)

    class Meta:
        model = Event
        fields = ["id", "type", "created_at", "club", "data"]
        read_only_fields = fields
        extra_kwargs = {
            "id": {
                "help_text": _(
                    "Unique, not always increasing along the list: pass the last event's as "
                    "`since`."
                )
            },
            "data": {
                "help_text": _(
                    "The object as the API showed it when the event happened: a deal, a match, "
                    "a round of a night; for a deleted deal its match, sequence and what was "
                    "entered; for a ladder its season and where to read it."
                )
            },
        }


class EventTypesField(serializers.ListField):
    child = serializers.ChoiceField(choices=WEBHOOK_EVENT_TYPES)

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_empty", False)
        kwargs.setdefault("min_length", 1)  # the same, as the schema states it (minItems)
        kwargs.setdefault("max_length", len(WEBHOOK_EVENT_TYPES))
        super().__init__(**kwargs)


SIGNATURE_HELP = _(
    "Signs each delivery: Partscore-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "
    '"<t>.<body>">; during a rotation\'s grace period a second v1= signs with the previous '
    "secret. Shown only here: keep it."
)


class WebhookSerializer(serializers.ModelSerializer):
    """An endpoint without its secret (shown once: at creation and at rotation)."""

    club = serializers.IntegerField(source="club_id", read_only=True)
    events = EventTypesField(help_text=_("The event types sent to this address."))
    previous_secret_expires_at = serializers.DateTimeField(
        source="previous_secret_signs_until",
        read_only=True,
        allow_null=True,
        help_text=_(
            "Until then the secret before the last rotation signs too (a second v1=); null "
            "when only the current secret signs."
        ),
    )

    class Meta:
        model = WebhookEndpoint
        fields = [
            "id",
            "club",
            "url",
            "events",
            "active",
            "disabled_reason",
            "previous_secret_expires_at",
            "created_at",
        ]
        read_only_fields = ["id", "club", "disabled_reason", "created_at"]


class WebhookWithSecretSerializer(WebhookSerializer):
    """The answer to a creation or a rotation: the endpoint and its new secret, once."""

    secret = serializers.CharField(read_only=True, help_text=SIGNATURE_HELP)

    class Meta(WebhookSerializer.Meta):
        fields = [*WebhookSerializer.Meta.fields, "secret"]


class WebhookRotateSerializer(StrictInput, serializers.Serializer):
    grace_period = serializers.IntegerField(
        required=False,
        default=24 * 3600,
        min_value=0,
        max_value=7 * 24 * 3600,
        help_text=_(
            "Seconds during which the current secret goes on signing next to the new one "
            "(default 86400, a day; 0 stops it at once; at most a week)."
        ),
    )


class WebhookCreateSerializer(StrictInput, serializers.Serializer):
    club = WritableClubField(help_text=_("The club whose events are sent."))
    url = serializers.CharField(max_length=500, help_text=_("An https:// address."))
    events = EventTypesField(help_text=_("The event types to send."))


class WebhookUpdateSerializer(StrictInput, serializers.Serializer):
    url = serializers.CharField(max_length=500, required=False)
    events = EventTypesField(required=False)
    active = serializers.BooleanField(
        required=False,
        help_text=_("false stops deliveries; true sends the undelivered ones again."),
    )


class DeliverySerializer(serializers.ModelSerializer):
    event = serializers.IntegerField(source="event_id", read_only=True)
    event_type = serializers.CharField(source="event.type", read_only=True)
    status = serializers.ChoiceField(choices=DeliveryStatus.choices, read_only=True)

    class Meta:
        model = Delivery
        fields = [
            "id",
            "event",
            "event_type",
            "status",
            "attempts",
            "last_attempt_at",
            "last_status_code",
            "last_error",
            "next_attempt_at",
            "retry_until",
            "created_at",
        ]
        read_only_fields = fields
