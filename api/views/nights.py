from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.response import Response

from api import access
from api.cache import cached_read, path_owner
from api.exports import ExportsMixin, exportable
from api.filters import NightFilter
from api.idempotency import idempotent
from api.ids import whole_id
from api.serializers.nights import (
    ClubNightResultsSerializer,
    NightCreateSerializer,
    NightListSerializer,
    NightPlayerAddSerializer,
    NightRoundSerializer,
    NightSerializer,
    NightUpdateSerializer,
    RoundStartSerializer,
    SeatSwapSerializer,
)
from api.serializers.tables import EmptyBodySerializer
from api.views.base import ClubScopedViewSet
from api.views.tables import NightTablesMixin
from nights import selectors, services
from nights.models import Night

PLAYER_ID = OpenApiParameter(
    "player_id", int, OpenApiParameter.PATH, description=_("The player's id.")
)
ROUND_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description=_("The round's number.")
)


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
    http_method_names = ["get", "post", "patch", "delete", "head"]  # delete: a round only
    service_error_fields = {"played_on": "date"}

    def get_queryset(self):
        return selectors.nights_of(clubs=access.member_clubs(self.request))

    def club_id_of(self, obj) -> int:
        return obj.session.club_id

    def created_location(self, data) -> str | None:
        """A round is seen in its night; a table's new code on the night's board."""
        if self.action in ("rounds", "players"):
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
        plan = selectors.night_plan(night=night, ahead=1)
        round = next(round for round in plan.rounds if round.number == started.number)
        return Response(NightRoundSerializer(round).data, status=status.HTTP_201_CREATED)

    @extend_schema(
        summary=_("Add a late arrival: they play from the next round (directors)"),
        description=_(
            "`player` (an active member's id) or `guest` (a new guest's name), and `group`, "
            "their prize group (optional). They play from the next round not started; the "
            "rounds already started stay as they were, the rounds to come are planned again "
            "(the answer: the night, with its new plan). A player who left comes back. A "
            "closed night, a night whose every round has started, a player already playing "
            "or a 61st player: 400 on `player`."
        ),
        request=NightPlayerAddSerializer,
        responses={201: NightSerializer},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def players(self, request, pk=None):
        night = self.get_object()
        serializer = NightPlayerAddSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        services.night_player_add(
            night=night,
            player=data.get("player"),
            guest=data.get("guest", ""),
            group=data.get("group", ""),
            actor=self.actor,
        )
        return self._detail(self._fresh(night), status.HTTP_201_CREATED)

    @extend_schema(
        summary=_("A player leaves the night from the next round (directors)"),
        description=_(
            "No body, or `{}`. The player finishes the round they play and plays no round "
            "from the next one not started (their `left_round`); the rounds to come are "
            "planned again without them (the answer: the night, with its new plan). A late "
            "arrival who has not played yet is no longer at the night. A closed night, a "
            "player not playing the next round, or fewer than 4 players left: 400 on "
            "`player`."
        ),
        parameters=[PLAYER_ID],
        request=EmptyBodySerializer,
        responses={200: NightSerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"players/(?P<player_id>[0-9]{1,19})/leave")
    @idempotent
    def leave(self, request, pk=None, player_id=None):
        night = self.get_object()
        EmptyBodySerializer(data=request.data or {}).is_valid(raise_exception=True)
        player = whole_id(player_id)
        if player is None:
            raise Http404
        services.night_player_leave(night=night, player=player)
        return self._detail(self._fresh(night))

    @extend_schema(
        summary=_("Take back the night's last round, started by mistake (directors)"),
        description=_(
            "While none of its tables has a deal recorded or waiting for the opponents: its "
            "matches, and the tables and codes it made, are removed, and the round is to "
            "start again as before. A closed night, a round that is not the last started, "
            "or a deal entered: 400 on `round`. The matches had no deal, so no event named "
            "them: none is written."
        ),
        parameters=[ROUND_NUMBER],
        request=None,
        responses={204: None},
    )
    @action(
        detail=True,
        methods=["delete"],
        url_path=r"rounds/(?P<number>[0-9]{1,4})",
        url_name="round",
    )
    def round_undo(self, request, pk=None, number=None):
        night = self.get_object()
        services.night_round_undo(night=night, number=int(number or 0), actor=self.actor)
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(
        summary=_("Put a wrong seat right in the last round started (directors)"),
        description=_(
            "`player` and `other` change places: both seated (at one table or two), or one "
            "seated and the other sitting the round out, who then takes the seat. Only "
            "before the first deal at each table changed (a deal recorded or waiting: 400 "
            "on `player` or `other`); a closed night or a round that is not the last: 400 "
            "on `round`. Answers the round as it is now."
        ),
        parameters=[ROUND_NUMBER],
        request=SeatSwapSerializer,
        responses={200: NightRoundSerializer},
    )
    @action(
        detail=True,
        methods=["post"],
        url_path=r"rounds/(?P<number>[0-9]{1,4})/swap",
        url_name="round-swap",
    )
    @idempotent
    def round_swap(self, request, pk=None, number=None):
        night = self.get_object()
        serializer = SeatSwapSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        round = services.night_seats_swap(
            night=night, number=int(number or 0), actor=self.actor, **serializer.validated_data
        )
        plan = selectors.night_plan(night=self._fresh(night))
        shown = next(known for known in plan.rounds if known.number == round.number)
        return Response(NightRoundSerializer(shown).data)

    @extend_schema(
        summary=_("The night's results: each player's net, ranked, with the prizes"),
        responses={200: ClubNightResultsSerializer},
    )
    @action(detail=True, methods=["get"])
    @exportable(
        "night",
        lambda view, request, **kwargs: view.get_object(),
        lambda view, request, night: selectors.night_results_export(night=night),
    )
    @cached_night_read
    def results(self, request, pk=None):
        night = self.get_object()
        results = selectors.night_results(night=night)
        return Response(ClubNightResultsSerializer((night, results)).data)
