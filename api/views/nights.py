from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from api import access
from api.cache import cached_read, path_owner
from api.exports import ExportsMixin, exportable
from api.filters import NightFilter
from api.idempotency import idempotent
from api.serializers.nights import (
    ClubNightResultsSerializer,
    NightCreateSerializer,
    NightListSerializer,
    NightRoundSerializer,
    NightSerializer,
    NightUpdateSerializer,
    RoundStartSerializer,
)
from api.views.base import ClubScopedViewSet
from api.views.tables import NightTablesMixin
from nights import selectors, services
from nights.models import Night


def cached_night_read(method):
    """A night's answers show its rounds' matches (its session's) and the club's players, for
    the club's members only."""
    return cached_read(path_owner("night", "pk"), depends=("night",), members_only=True)(method)


@extend_schema_view(
    list=extend_schema(summary=_("Club nights of your clubs")),
    retrieve=extend_schema(
        summary=_("A club night: its players, every round known and the next round"),
        responses={200: NightSerializer},
    ),
    create=extend_schema(
        summary=_("Start a club night with the players present (directors)"),
        description=_(
            "The night is played in the club's session on `date` (created if needed); the "
            "rounds are started one at a time with `POST /nights/{id}/rounds/`."
        ),
        request=NightCreateSerializer,
        responses={201: NightSerializer},
    ),
    partial_update=extend_schema(
        summary=_("Change a night's rounds, prizes, prize groups or ranking (directors)"),
        request=NightUpdateSerializer,
        responses={200: NightSerializer},
    ),
)
class NightViewSet(ExportsMixin, NightTablesMixin, mixins.ListModelMixin, ClubScopedViewSet):
    serializer_class = NightListSerializer
    poll_kind = "night"
    filterset_class = NightFilter
    ordering_fields = {
        "date": "session__date",
        "club": "session__club_id",
        "updated_at": "updated_at",
        "id": "id",
    }
    ordering = ["-date"]
    service_error_fields = {"played_on": "date"}
    export_actions = ("results",)

    def get_queryset(self):
        return selectors.nights_of(clubs=access.member_clubs(self.request))

    def club_id_of(self, obj) -> int:
        return obj.session.club_id

    def created_location(self, data) -> str | None:
        """A round is seen in its night; a table's new code on the night's board."""
        if self.action == "rounds":
            return reverse("api:night-detail", kwargs={"pk": self.kwargs["pk"]})
        if self.action == "code":
            return reverse("api:night-board", kwargs={"pk": self.kwargs["pk"]})
        return super().created_location(data)

    def _detail(self, night: Night, code=status.HTTP_200_OK) -> Response:
        return Response(NightSerializer(selectors.night_plan(night=night)).data, status=code)

    def _fresh(self, night: Night) -> Night:
        return self.get_queryset().get(pk=night.pk)

    @cached_night_read
    def retrieve(self, request, pk=None):
        return self._detail(self.get_object())

    @idempotent
    def create(self, request):
        serializer = NightCreateSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        night = services.night_start(**serializer.validated_data)
        return self._detail(self._fresh(night), status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        night = self.get_object()
        serializer = NightUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.night_update(night=night, **serializer.validated_data)
        return self._detail(self._fresh(night))

    @extend_schema(
        summary=_("Start the night's next round (directors)"),
        description=_(
            "Round-robin and winners move seat the round themselves: send no body (or `{}`). "
            "A fixed night's director seats every table: `tables`. The last round must be "
            "finished first (a 400 on `round`)."
        ),
        request=RoundStartSerializer,
        responses={201: NightRoundSerializer},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def rounds(self, request, pk=None):
        night = self.get_object()
        serializer = RoundStartSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        started = services.night_round_start(
            night=night, seating=serializer.seating(), actor=self.actor
        )
        plan = selectors.night_plan(night=night)
        round = next(round for round in plan.rounds if round.number == started.number)
        return Response(NightRoundSerializer(round).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary=_("The night's results: each player's net, ranked, with the prizes"),
        responses={200: ClubNightResultsSerializer},
    )
    @action(detail=True, methods=["get"])
    @exportable(
        lambda view, request, **kwargs: selectors.night_results_export(night=view.get_object())
    )
    @cached_night_read
    def results(self, request, pk=None):
        night = self.get_object()
        results = selectors.night_results(night=night)
        return Response(ClubNightResultsSerializer((night, results)).data)
