from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.response import Response

from api import access
from api.filters import SeasonFilter
from api.idempotency import idempotent
from api.serializers.seasons import SeasonSerializer
from api.views.base import ClubScopedViewSet
from clubs import selectors, services


@extend_schema_view(
    list=extend_schema(summary=_("Seasons of your clubs and of public clubs")),
    retrieve=extend_schema(summary=_("A season")),
    create=extend_schema(summary=_("Add a season to a club (directors)")),
    partial_update=extend_schema(summary=_("Rename a season or change its dates (directors)")),
)
class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet):
    """Seasons. Season-level reports (the ladder, issue 6) are added here as actions."""

    serializer_class = SeasonSerializer
    public_read = True
    filterset_class = SeasonFilter
    ordering_fields = {
        "start_date": "start_date",
        "end_date": "end_date",
        "name": "name",
        "club": "club_id",
        "id": "id",
    }
    ordering = ["-start_date"]

    def get_queryset(self):
        return selectors.seasons_of(clubs=access.readable_clubs(self.request))

    def club_id_of(self, obj) -> int:
        return obj.club_id

    @idempotent
    def create(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        season = services.season_create(**serializer.validated_data)
        return Response(self.get_serializer(season).data, status=status.HTTP_201_CREATED)

    def partial_update(self, request, pk=None):
        season = self.get_object()
        serializer = self.get_serializer(season, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        season = services.season_update(season=season, **serializer.validated_data)
        return Response(self.get_serializer(season).data)
