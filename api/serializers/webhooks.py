"""Events (``GET /api/v1/events/``) and webhook endpoints with their deliveries."""

from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.models import Delivery, DeliveryStatus, Event, EventType, WebhookEndpoint
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
    child = serializers.ChoiceField(choices=EventType.choices)

    def __init__(self, **kwargs):
        kwargs.setdefault("allow_empty", False)
        kwargs.setdefault("min_length", 1)  # the same, as the schema states it (minItems)
        kwargs.setdefault("max_length", len(EventType.values))
        super().__init__(**kwargs)


class WebhookSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="club_id", read_only=True)
    events = EventTypesField(help_text=_("The event types sent to this address."))
    secret = serializers.CharField(
        read_only=True,
        help_text=_(
            "Signs each delivery: Partscore-Signature: t=<unix time>,v1=<hex HMAC-SHA256 of "
            '"<t>.<body>">.'
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
            "secret",
            "created_at",
        ]
        read_only_fields = ["id", "club", "disabled_reason", "secret", "created_at"]


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
