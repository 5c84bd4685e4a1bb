"""The events list and webhook endpoints (issue 20).

    GET  /api/v1/events/?since=<id>[&club=<id>][&type=<type>]   in the cursor's order
    GET|POST /api/v1/webhooks/            GET|PATCH|DELETE /api/v1/webhooks/{id}/
    GET  /api/v1/webhooks/{id}/deliveries/
    POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/send-again/
    POST /api/v1/webhooks/{id}/rotate-secret/     POST /api/v1/webhooks/{id}/test/

Events are for the club's members and API keys; endpoints for its directors and read-write
keys only. An endpoint's secret is shown once: in the answers to its creation and rotation.
"""

from datetime import timedelta

import django_filters
from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from api import access, services
from api.errors import EventsGone
from api.events import events_after, events_final
from api.filters import ClubIdFilter, IdFilter
from api.idempotency import idempotent
from api.models import WEBHOOK_EVENT_TYPES, Delivery, Event, EventType, WebhookEndpoint
from api.retention import events_gone_before
from api.serializers.webhooks import (
    DeliverySerializer,
    EventSerializer,
    WebhookCreateSerializer,
    WebhookRotateSerializer,
    WebhookSerializer,
    WebhookUpdateSerializer,
    WebhookWithSecretSerializer,
)
from api.views.base import ClubScopedViewSet, checked_id


class EventFilter(django_filters.FilterSet):
    since = IdFilter(
        method="after",
        min_value=0,  # 0: from the first event (ids start at 1), as leaving it out
        help_text=_(
            "Only the events listed after this one (the id of the last event you were shown; "
            "0 for all)."
        ),
    )
    club = ClubIdFilter(clubs=access.member_clubs, help_text=_("One club's events."))
    type = django_filters.ChoiceFilter(
        choices=WEBHOOK_EVENT_TYPES, help_text=_("One type of event.")
    )

    class Meta:
        model = Event
        fields = ["since", "club", "type"]

    def after(self, queryset, name, value):
        gone = events_gone_before()
        if 0 < value < gone:
            raise EventsGone(gone, settings.EVENTS_KEEP_DAYS)
        return events_after(queryset, value)


@extend_schema_view(
    list=extend_schema(
        summary=_("Changes to your clubs' data, oldest first"),
        description=_(
            "Every deal recorded, corrected or deleted, match completed or abandoned, ladder "
            "computed and night round started, as the API showed it then. Poll with "
            "`since` = the id of the last event listed: each event is listed once its "
            "change and every older transaction are over, after every event listed before "
            "it; webhooks send the same events. Events are kept 30 days by default "
            "(EVENTS_KEEP_DAYS): a `since` older than the newest event pruned is a 410 "
            "(`events_gone`) with the `since` to resume from after reading the data again."
        ),
    ),
)
class EventViewSet(mixins.ListModelMixin, ClubScopedViewSet):
    serializer_class = EventSerializer
    filterset_class = EventFilter
    http_method_names = ["get", "head"]
    events_cursor = True  # the schema: a 410 for a ``since`` older than what is kept
    # It grows when an older transaction ends, whichever club's it was (api.events): its
    # Last-Modified is when it was read, never a 304 by date over an event it now lists.
    clock_actions = ("list",)

    def get_queryset(self):
        # In the cursor's order, no other (no ``ordering``): api.events. A test event (ping) is
        # for one endpoint, not a change to the club's data.
        clubs = access.member_clubs(self.request)
        return events_final(Event.objects.filter(club__in=clubs).exclude(type=EventType.PING))

    def club_id_of(self, obj) -> int:
        return obj.club_id


DELIVERY_ID = OpenApiParameter(
    "delivery_id", int, OpenApiParameter.PATH, description=_("The delivery.")
)


@extend_schema_view(
    list=extend_schema(summary=_("Webhook endpoints of the clubs you direct")),
    retrieve=extend_schema(summary=_("A webhook endpoint")),
    create=extend_schema(
        summary=_("Register a webhook endpoint (directors); the answer shows its secret, once"),
        request=WebhookCreateSerializer,
        responses={201: WebhookWithSecretSerializer},
    ),
    partial_update=extend_schema(
        summary=_("Change, disable or enable a webhook endpoint (directors)"),
        request=WebhookUpdateSerializer,
        responses={200: WebhookSerializer},
    ),
    destroy=extend_schema(summary=_("Remove a webhook endpoint (directors)")),
)
class WebhookViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet):
    serializer_class = WebhookSerializer
    ordering_fields = {"id": "id", "club": "club_id"}
    ordering = ["id"]
    http_method_names = ["get", "post", "patch", "delete", "head"]

    def get_queryset(self):
        return WebhookEndpoint.objects.filter(club__in=access.writable_clubs(self.request))

    def club_id_of(self, obj) -> int:
        return obj.club_id

    @idempotent
    def create(self, request):
        serializer = WebhookCreateSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        endpoint = services.webhook_create(
            **serializer.validated_data, actor=access.signed_in_user(request)
        )
        return Response(WebhookWithSecretSerializer(endpoint).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        endpoint = self.get_object()
        serializer = WebhookUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        endpoint = services.webhook_update(endpoint=endpoint, **serializer.validated_data)
        return Response(self.get_serializer(endpoint).data)

    def destroy(self, request, pk=None):
        services.webhook_delete(endpoint=self.get_object())
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary=_("The endpoint's deliveries, newest first"),
        responses={200: DeliverySerializer(many=True)},
    )
    @action(detail=True, methods=["get"])
    def deliveries(self, request, pk=None):
        endpoint = self.get_object()
        deliveries = endpoint.deliveries.select_related("event").order_by("-id")
        page = self.paginate_queryset(deliveries)
        return self.get_paginated_response(DeliverySerializer(page, many=True).data)

    @extend_schema(
        summary=_("Send a delivery again (directors)"),
        request=None,
        parameters=[DELIVERY_ID],
        responses={202: DeliverySerializer},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"deliveries/(?P<delivery_id>[0-9]+)/send-again",
        url_name="delivery-send-again",
    )
    def send_again(self, request, pk=None, delivery_id=None):
        endpoint = self.get_object()
        delivery = get_object_or_404(
            Delivery.objects.select_related("event"),
            pk=checked_id(delivery_id),
            endpoint=endpoint,
        )
        delivery = services.delivery_send_again(delivery=delivery)
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        summary=_("Give the endpoint a new signing secret (directors); shown once"),
        description=_(
            "The answer holds the new secret. The current one goes on signing next to it (a "
            "second `v1=` in Partscore-Signature) for `grace_period` seconds, while the "
            "receiver moves to the new one."
        ),
        request=WebhookRotateSerializer,
        responses={200: WebhookWithSecretSerializer},
    )
    @action(detail=True, methods=["post"], url_path="rotate-secret", url_name="rotate-secret")
    @idempotent
    def rotate_secret(self, request, pk=None):
        endpoint = self.get_object()
        serializer = WebhookRotateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        endpoint = services.webhook_rotate_secret(
            endpoint=endpoint,
            grace_period=timedelta(seconds=serializer.validated_data["grace_period"]),
        )
        return Response(WebhookWithSecretSerializer(endpoint).data)

    @extend_schema(
        summary=_("Send a test event to the endpoint (directors)"),
        description=_(
            'An event of type `ping` (`data`: `{"webhook": <id>}`), sent to this endpoint '
            "only, even a disabled one; the answer is its delivery, in the endpoint's log."
        ),
        request=None,
        responses={202: DeliverySerializer},
    )
    @action(detail=True, methods=["post"], url_path="test", url_name="test")
    @idempotent
    def test(self, request, pk=None):
        delivery = services.webhook_test(endpoint=self.get_object())
        return Response(DeliverySerializer(delivery).data, status=status.HTTP_202_ACCEPTED)
