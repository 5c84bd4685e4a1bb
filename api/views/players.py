from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from api import access
from api.filters import PlayerFilter
from api.idempotency import idempotent
from api.serializers.players import (
    PlayerCreateSerializer,
    PlayerSerializer,
    PlayerUpdateSerializer,
)
from api.views.base import ClubScopedViewSet
from clubs import selectors, services
from clubs.models import Club


@extend_schema_view(
    list=extend_schema(summary=_("Players of your clubs")),
    retrieve=extend_schema(summary=_("A player")),
    create=extend_schema(
        summary=_("Add a player to a club (directors)"),
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer},
    ),
    partial_update=extend_schema(
        summary=_("Rename a player, or set their role or active flag in a club (directors)"),
        request=PlayerUpdateSerializer,
        responses={200: PlayerSerializer},
    ),
)
class PlayerViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet):
    serializer_class = PlayerSerializer
    filterset_class = PlayerFilter
    ordering_fields = {
        "name": "name",
        "created_at": "created_at",
        "updated_at": "updated_at",
        "id": "id",
    }
    ordering = ["name"]

    def get_queryset(self):
        return selectors.players_with_memberships(clubs=access.member_clubs(self.request))

    def can_write(self, request, obj) -> bool:
        return any(access.can_write_club(request, m.club_id) for m in obj.visible_memberships)

    def _fresh(self, player):
        return self.get_queryset().get(pk=player.pk)

    @idempotent
    def create(self, request):
        serializer = PlayerCreateSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        # Roles and shared names are decided by who the person is: a key acts as nobody here.
        player = services.player_create(**serializer.validated_data, actor=self.person)
        return Response(
            self.get_serializer(self._fresh(player)).data, status=status.HTTP_201_CREATED
        )

    def partial_update(self, request, pk=None):
        player = self.get_object()
        serializer = PlayerUpdateSerializer(
            data=request.data, context=self.get_serializer_context()
        )
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        club = data.pop("club", None) or self._shown_club_if_writable(player)
        if club is None and data.keys() & {"role", "active"}:
            raise PermissionDenied(gettext("You do not direct this club."))
        player = services.player_membership_update(
            player=player, club=club, actor=self.person, **data
        )
        return Response(self.get_serializer(self._fresh(player)).data)

    @property
    def person(self):
        """The signed-in user; None for an API key, which is an app's credential, not a person
        (the player services record no history, and a key never sets a role)."""
        return access.signed_in_user(self.request)

    def _shown_club_if_writable(self, player) -> Club | None:
        """The player's ``club`` (the first the client sees), if the client writes it."""
        club_id = player.visible_memberships[0].club_id
        if not access.can_write_club(self.request, club_id):
            return None
        return access.writable_clubs(self.request).get(pk=club_id)
