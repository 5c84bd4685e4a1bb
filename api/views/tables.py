"""Deals entered at the tables (issue 18), for the director's tools: a night's board and
what waits for the director, settling an entry, renewing a table's code, closing the night
and reopening it.

The board and the waiting list are for the club's members and keys (as every night read);
a table's short code is shown only to a client that directs the club. They are not kept in
the read cache: they change with the clock (a wait becomes long) and with who asks (the
codes), and the director's screen polls them."""

from django.http import Http404
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.response import Response

from api import access
from api.idempotency import idempotent
from api.serializers.tables import (
    EmptyBodySerializer,
    NightBoardSerializer,
    TableCodeSerializer,
    TableEntryResolvedSerializer,
    TableEntryResolveSerializer,
    WaitingSerializer,
)
from api.views.base import ClubScopedViewSet
from clubs.services import TABLE_NUMBER_MAX
from nights import services, table_selectors
from nights.models import TableEntry

TABLE_NUMBER = OpenApiParameter(
    "number", int, OpenApiParameter.PATH, description=_("The table's number.")
)


class NightTablesMixin:
    """The night's tables' own entry, on ``NightViewSet`` (``get_object``: a night of the
    client's member clubs, and for a POST one it directs). The board and the waiting list
    change with the clock (a wait becomes long): their Last-Modified is when they were read
    (``api.polling``); their ETag, the body's, is exact."""

    clock_actions: tuple[str, ...] = ("board", "waiting")

    def _board(self, request):
        night = self.get_object()  # type: ignore[attr-defined]
        directs = access.can_write_club(request, night.session.club_id)
        return night, table_selectors.night_board(night=night), directs

    @extend_schema(
        summary=_("The director's board: every table's code, match and deals not counted"),
        description=_(
            "For the club's members and keys; a table's `code` only for its directors and "
            "read-write keys. Not cached: poll it."
        ),
        responses={200: NightBoardSerializer},
    )
    @action(detail=True, methods=["get"])
    def board(self, request, pk=None):
        night, tables, directs = self._board(request)
        data = NightBoardSerializer((night, tables), context={"directs": directs}).data
        return Response(data)

    @extend_schema(
        summary=_("What waits for the director: disputed deals and long waits"),
        responses={200: WaitingSerializer},
    )
    @action(detail=True, methods=["get"])
    def waiting(self, request, pk=None):
        night, tables, _directs = self._board(request)
        flagged = sorted(
            (p for table in tables for p in table.unsettled if p.flagged),
            key=lambda p: (p.entry.created_at, p.entry.pk),
        )
        return Response(WaitingSerializer({"night": night.pk, "entries": flagged}).data)

    @extend_schema(
        summary=_("Close the night: no table code works any more (directors)"),
        description=_("Closing a closed night changes nothing. No body, or `{}`."),
        request=EmptyBodySerializer,
        responses={200: NightBoardSerializer},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def close(self, request, pk=None):
        night = self.get_object()  # type: ignore[attr-defined]
        EmptyBodySerializer(data=request.data or {}).is_valid(raise_exception=True)
        night = services.night_close(night=night)
        tables = table_selectors.night_board(night=night)
        return Response(NightBoardSerializer((night, tables), context={"directs": True}).data)

    @extend_schema(
        summary=_("Reopen a closed night: new codes for the round's tables (directors)"),
        description=_(
            "The tables of the round being played get new codes (the old ones stay revoked) "
            "and rounds start again. Reopening an open night changes nothing. No body, or "
            "`{}`."
        ),
        request=EmptyBodySerializer,
        responses={200: NightBoardSerializer},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def reopen(self, request, pk=None):
        night = self.get_object()  # type: ignore[attr-defined]
        EmptyBodySerializer(data=request.data or {}).is_valid(raise_exception=True)
        night = services.night_reopen(night=night)
        tables = table_selectors.night_board(night=night)
        return Response(NightBoardSerializer((night, tables), context={"directs": True}).data)

    @extend_schema(
        summary=_("Give a table a new code; the old one stops working at once (directors)"),
        description=_("No body, or `{}`. A night that is closed, or has no such table: 400."),
        parameters=[TABLE_NUMBER],
        request=EmptyBodySerializer,
        responses={201: TableCodeSerializer},
    )
    @action(detail=True, methods=["post"], url_path=r"tables/(?P<number>[0-9]{1,4})/code")
    @idempotent
    def code(self, request, pk=None, number=None):
        night = self.get_object()  # type: ignore[attr-defined]
        table = int(number or 0)
        if not 1 <= table <= TABLE_NUMBER_MAX:
            raise Http404
        EmptyBodySerializer(data=request.data or {}).is_valid(raise_exception=True)
        code = services.table_code_renew(night=night, table_number=table)
        return Response(TableCodeSerializer(code).data, status=status.HTTP_201_CREATED)


@extend_schema_view(
    resolve=extend_schema(
        summary=_("Settle a deal entered at a table: count it as entered, or set it aside"),
        description=_(
            "For a deal the opponents rejected or left waiting (directors and read-write "
            "keys). An entry already answered: 409."
        ),
        request=TableEntryResolveSerializer,
        responses={200: TableEntryResolvedSerializer},
    )
)
class TableEntryViewSet(ClubScopedViewSet):
    """Deals entered at the tables, addressed by the entry's id (from the board)."""

    http_method_names = ["post"]
    queryset = TableEntry.objects.none()  # for the schema

    def get_queryset(self):
        return TableEntry.objects.select_related("code__night__session").filter(
            code__night__session__club__in=access.member_clubs(self.request)
        )

    def club_id_of(self, obj) -> int:
        return obj.code.night.session.club_id

    @action(detail=True, methods=["post"])
    @idempotent
    def resolve(self, request, pk=None):
        entry = self.get_object()
        serializer = TableEntryResolveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        settled = services.table_entry_resolve(
            entry=entry, accept=serializer.validated_data["accept"], actor=self.actor
        )
        settled = TableEntry.objects.select_related("code").get(pk=settled.pk)
        return Response(TableEntryResolvedSerializer(settled).data)
