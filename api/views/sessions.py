from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied
from rest_framework.response import Response

from api import access
from api.exports import ExportsMixin, exportable
from api.filters import SessionFilter, TableFilter
from api.idempotency import idempotent
from api.ids import whole_id
from api.serializers.sessions import SessionResultsSerializer, SessionSerializer, TableSerializer
from api.views.base import ClubScopedViewSet
from clubs import selectors, services
from matches import selectors as match_selectors


@extend_schema_view(
    list=extend_schema(summary=_("Sessions (club evenings) of your clubs")),
    retrieve=extend_schema(summary=_("A session")),
    create=extend_schema(
        summary=_("The club's session on a date, created if needed (directors)"),
        description=_("A date no season of the club covers is a 400 on `date`."),
        responses={
            201: OpenApiResponse(SessionSerializer, description=_("Created.")),
            200: OpenApiResponse(SessionSerializer, description=_("It existed already.")),
        },
    ),
    partial_update=extend_schema(summary=_("Change a session's notes (directors)")),
)
class SessionViewSet(
    ExportsMixin, mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet
):
    serializer_class = SessionSerializer
    poll_kind = "session"
    filterset_class = SessionFilter
    ordering_fields = {"date": "date", "club": "club_id", "updated_at": "updated_at", "id": "id"}
    ordering = ["-date"]
    service_error_fields = {"played_on": "date"}

    def get_queryset(self):
        return selectors.sessions_of(clubs=access.member_clubs(self.request))

    def club_id_of(self, obj) -> int:
        return obj.club_id

    def _fresh(self, session):
        return self.get_queryset().get(pk=session.pk)

    def poll_scopes(self, request):
        scopes = super().poll_scopes(request)
        session_id = whole_id(self.kwargs.get("pk"))
        if self.action == "results" and session_id is not None:
            scopes.append(("session-matches", session_id))  # the results are its matches'
        return scopes

    @idempotent
    def create(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session, created = services.session_ensure(**serializer.validated_data)
        code = status.HTTP_201_CREATED if created else status.HTTP_200_OK
        return Response(self.get_serializer(self._fresh(session)).data, status=code)

    def partial_update(self, request, pk=None):
        session = self.get_object()
        serializer = self.get_serializer(session, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        if "notes" in serializer.validated_data:
            session = services.session_update(
                session=session, notes=serializer.validated_data["notes"]
            )
        return Response(self.get_serializer(self._fresh(session)).data)

    @extend_schema(
        summary=_("The night's results: each player's net, ranked"),
        responses={200: SessionResultsSerializer},
    )
    @action(detail=True, methods=["get"])
    @exportable(
        "session",
        lambda view, request, **kwargs: view.get_object(),
        lambda view, request, session: match_selectors.session_results_export(session=session),
    )
    def results(self, request, pk=None):
        session = self.get_object()
        _tables, players = match_selectors.session_results(session_id=session.pk)
        return Response(SessionResultsSerializer({"session": session.pk, "players": players}).data)


@extend_schema_view(
    list=extend_schema(summary=_("Tables of your clubs' sessions")),
    retrieve=extend_schema(summary=_("A table")),
    create=extend_schema(
        summary=_("Add a table to a session (directors)"),
        description=_("A number the session's tables already have is a 400 on `number`."),
    ),
)
class TableViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet):
    serializer_class = TableSerializer
    filterset_class = TableFilter
    ordering_fields = {
        "session": "session_id",
        "number": "number",
        "updated_at": "updated_at",
        "id": "id",
    }
    ordering = ["session", "number"]
    http_method_names = ["get", "post", "head"]

    def get_queryset(self):
        return selectors.tables_of(clubs=access.member_clubs(self.request))

    def club_id_of(self, obj) -> int:
        return obj.session.club_id

    @idempotent
    def create(self, request):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        session = serializer.validated_data["session"]
        if not access.can_write_club(request, session.club_id):
            raise PermissionDenied(gettext("You do not direct this club."))
        table = services.table_create(
            session=session,
            number=serializer.validated_data.get("number"),
            seats=serializer.validated_data["seats"],
        )
        table = self.get_queryset().get(pk=table.pk)
        return Response(self.get_serializer(table).data, status=status.HTTP_201_CREATED)
