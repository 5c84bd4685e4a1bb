from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.response import Response

from api import access
from api.filters import ClubFilter
from api.idempotency import idempotent
from api.permissions import ClubPermission, SignedInUserForCreate
from api.serializers.clubs import ClubSerializer
from api.views.base import ClubScopedViewSet
from clubs import services


@extend_schema_view(
    list=extend_schema(summary=_("Clubs you belong to, and public clubs")),
    retrieve=extend_schema(summary=_("A club")),
    create=extend_schema(
        summary=_("Create a club; you become its director"),
        description=_("A slug another club has is a 400 on `slug`."),
    ),
    partial_update=extend_schema(summary=_("Change a club's name or options (directors)")),
)
class ClubViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    ClubScopedViewSet,
):
    serializer_class = ClubSerializer
    poll_kind = "club"
    permission_classes = [SignedInUserForCreate, ClubPermission]
    public_read = True
    filterset_class = ClubFilter
    ordering_fields = {
        "name": "name",
        "slug": "slug",
        "created_at": "created_at",
        "updated_at": "updated_at",
        "id": "id",
    }
    ordering = ["name"]

    def get_queryset(self):
        return access.readable_clubs(self.request)

    def club_id_of(self, obj) -> int:
        return obj.pk

    @idempotent
    def create(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        club = services.club_create(creator=request.user, **serializer.validated_data)
        return Response(self.get_serializer(club).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        club = self.get_object()
        serializer = self.get_serializer(club, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        club = services.club_update(club=club, actor=self.actor, **serializer.validated_data)
        return Response(self.get_serializer(club).data)
