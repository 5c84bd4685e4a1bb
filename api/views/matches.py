from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.response import Response

from api import access, events, preconditions
from api.cache import cached_read, filter_owner, path_owner
from api.exports import ExportsMixin, exportable
from api.filters import MatchFilter
from api.idempotency import idempotent
from api.pagination import PageNumberPagination
from api.polling import deal_etag
from api.serializers.deals import (
    CONTRACT_PARTS,
    DealCreateSerializer,
    DealInputSerializer,
    DealSerializer,
    ScoreSheetSerializer,
)
from api.serializers.matches import MatchCreateSerializer, MatchSerializer
from api.views.base import ClubScopedViewSet, checked_id
from clubs.transactions import retried
from matches import selectors, services
from matches.models import Deal, Match
from nights.table_selectors import pending_prefetch


@extend_schema_view(
    list=extend_schema(summary=_("Matches of your clubs and of public clubs")),
    retrieve=extend_schema(summary=_("A match")),
    create=extend_schema(
        summary=_("Start a match (directors)"),
        description=_(
            "Without `table` and `session` the match is filed under the club's session on "
            "`played_on` (created if needed) at a new table; the season follows from the date."
        ),
        request=MatchCreateSerializer,
        responses={201: MatchSerializer},
    ),
)
class MatchViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet):
    serializer_class = MatchSerializer
    poll_kind = "match"
    public_read = True
    filterset_class = MatchFilter
    ordering_fields = {
        "played_on": "table__session__date",
        "created_at": "created_at",
        "updated_at": "updated_at",
        "table": "table__number",
        "id": "id",
    }
    ordering = ["-played_on", "-created_at"]
    http_method_names = ["get", "post", "head"]
    service_error_fields = {"date": "played_on"}

    def get_queryset(self):
        matches = selectors.matches_counted(clubs=access.readable_clubs(self.request))
        return matches.prefetch_related(pending_prefetch())

    def club_id_of(self, obj) -> int:
        return obj.table.session.club_id

    def poll_scopes(self, request):
        """A list about no one club (api.polling): its clubs' data and their matches."""
        clubs = super().poll_scopes(request)
        return [*clubs, *(("matches", club_id) for _kind, club_id in clubs)]

    def _fresh(self, match) -> Match:
        return self.get_queryset().get(pk=match.pk)

    @cached_read(filter_owner("session", "season", "club"), depends=("matches",))
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)

    @cached_read(path_owner("match", "pk"), depends=("match",))
    def retrieve(self, request, *args, **kwargs):
        return super().retrieve(request, *args, **kwargs)

    @idempotent
    def create(self, request):
        serializer = MatchCreateSerializer(data=request.data, context=self.get_serializer_context())
        serializer.is_valid(raise_exception=True)
        match = services.match_create(**serializer.service_arguments(), actor=self.actor)
        return Response(
            self.get_serializer(self._fresh(match)).data, status=status.HTTP_201_CREATED
        )

    def _end(self, service) -> Response:
        match = service(match=self.get_object(), actor=self.actor)
        return Response(self.get_serializer(self._fresh(match)).data)

    @extend_schema(
        summary=_("End an unfinished rubber, scored by the Laws (directors)"),
        description=_("A Chicago is a 400 on `kind`: only a rubber (two-player too) ends early."),
        request=None,
        responses={200: MatchSerializer},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def finish(self, request, pk=None):
        return self._end(services.match_finish)

    @extend_schema(
        summary=_("Abandon a match: it stays on record, unfinished (directors)"),
        request=None,
        responses={200: MatchSerializer},
    )
    @action(detail=True, methods=["post"])
    @idempotent
    def abandon(self, request, pk=None):
        return self._end(services.match_abandon)

    @extend_schema(summary=_("The match's score sheet"), responses={200: ScoreSheetSerializer})
    @action(detail=True, methods=["get"], url_path="score-sheet")
    @cached_read(path_owner("match", "pk"), depends=("match",))
    def score_sheet(self, request, pk=None):
        match = selectors.match_with_players(
            match_id=checked_id(pk), clubs=access.readable_clubs(request)
        )
        if match is None:
            raise NotFound()
        sheet = selectors.match_sheet(match=match)
        return Response(ScoreSheetSerializer((match, sheet)).data)


SEQUENCE = OpenApiParameter(
    "sequence", int, OpenApiParameter.PATH, description=_("The deal's sequence in the match.")
)
MATCH_ID = OpenApiParameter("match_id", int, OpenApiParameter.PATH, description=_("The match."))
PARTIAL_CHANGES = _(
    'Only the fields given change: `{"tricks": 9}` keeps the contract and declarer; '
    '`{"passed_out": true}` makes it a passed-out deal.'
)


@extend_schema_view(
    list=extend_schema(
        summary=_("The match's deals as scored"), parameters=[MATCH_ID], responses=DealSerializer
    ),
    create=extend_schema(
        summary=_("Record the next deal (directors)"),
        parameters=[MATCH_ID],
        request=DealCreateSerializer,
        responses={201: DealSerializer},
    ),
    retrieve=extend_schema(
        summary=_("One deal as scored"), parameters=[MATCH_ID, SEQUENCE], responses=DealSerializer
    ),
    update=extend_schema(
        summary=_("Correct a deal; later deals are scored again (directors)"),
        parameters=[MATCH_ID, SEQUENCE],
        request=DealInputSerializer,
        responses=DealSerializer,
    ),
    partial_update=extend_schema(
        summary=_("Correct part of a deal; later deals are scored again (directors)"),
        description=PARTIAL_CHANGES,
        parameters=[MATCH_ID, SEQUENCE],
        request=DealInputSerializer,
        responses=DealSerializer,
    ),
    destroy=extend_schema(
        summary=_("Remove the last deal (directors)"),
        description=_("Only the match's last deal can be removed; any other is a 409."),
        parameters=[MATCH_ID, SEQUENCE],
        responses={204: None},
    ),
)
class DealViewSet(ExportsMixin, ClubScopedViewSet):
    """A match's deals, addressed by their sequence (order of entry)."""

    serializer_class = DealSerializer
    public_read = True
    pagination_class = PageNumberPagination
    paginated_action = True
    http_method_names = ["get", "post", "put", "patch", "delete", "head"]
    service_error_fields = CONTRACT_PARTS
    if_match = True  # the schema: If-Match and 412 on PUT, PATCH and DELETE (api.schema)
    queryset = Match.objects.none()  # for the schema: the rows are deals of one match

    def get_match(self) -> Match:
        """The match with its table, session and club: a 404 unless the client may read it."""
        pk = checked_id(self.kwargs["match_id"])
        match = (
            selectors.matches_of(clubs=access.readable_clubs(self.request)).filter(pk=pk).first()
        )
        if match is None:
            raise NotFound()
        return match

    def writable_match_id(self) -> int:
        """The id of the match a write names: a 404 unless the client may read it, a 403
        unless it directs its club. It asks first whether the client writes the match's club
        (who writes a club reads it), and only when not whether it reads it; the service then
        locks and reads the match itself, so the match is not read here (bench/api_load.py)."""
        pk = checked_id(self.kwargs["match_id"])
        club_id = selectors.club_of_match(match_id=pk)
        if club_id is None:
            raise NotFound()
        if not access.can_write_club(self.request, club_id):
            if not access.readable_clubs(self.request).filter(pk=club_id).exists():
                raise NotFound()
            raise PermissionDenied(gettext("You do not direct this club."))
        return pk

    def created_location(self, data) -> str | None:
        return reverse(
            "api:match-deal",
            kwargs={"match_id": self.kwargs["match_id"], "sequence": data["sequence"]},
        )

    def _deal_response(
        self, match, row, code=status.HTTP_200_OK, deal=None, shown=None
    ) -> Response:
        """The deal's answer; after a write (``deal``: the deal just saved) with its new ETag,
        the one a GET now gives, for the next write's If-Match. ``shown``: the deal as its
        event showed it (``events.deals_shown``), the same data, not rendered again."""
        data = shown
        if data is None:
            context: dict[str, Any] = {"match": match}
            if deal is not None:  # just saved: the newest of the deals up to it
                context["updated"] = {deal.sequence: deal.updated_at}
            data = DealSerializer(row, context=context).data
        headers = {"ETag": deal_etag(data)} if deal is not None else None
        return Response(data, status=code, headers=headers)

    @exportable(
        "match",
        lambda view, request, **kwargs: view.get_match(),
        lambda view, request, match: selectors.match_deals_export(match=match),
    )
    @cached_read(path_owner("match", "match_id"), depends=("match",))
    def list(self, request, match_id=None):
        match = self.get_match()
        sheet = selectors.match_sheet(match=match)
        rows = self.paginate_queryset(list(sheet.rows))
        data = DealSerializer(rows, many=True, context={"match": match}).data
        return self.get_paginated_response(data)

    @cached_read(path_owner("match", "match_id"), depends=("match",), etag_of=deal_etag)
    def retrieve(self, request, match_id=None, sequence=None):
        match = self.get_match()
        rows, number = selectors.match_sheet(match=match).rows, checked_id(sequence)
        if not 1 <= number <= len(rows):
            raise NotFound(gettext("This match has no deal %(sequence)s.") % {"sequence": number})
        return self._deal_response(match, rows[number - 1])

    @idempotent
    def create(self, request, match_id=None):
        match_id = self.writable_match_id()
        serializer = DealCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        with events.deals_shown() as shown:
            scored = services.deal_record(
                match=match_id,
                result=serializer.result(),
                expected_sequence=serializer.validated_data.get("expected_sequence"),
                actor=self.actor,
            )
        return self._deal_response(
            scored.deal.match,
            scored.row,
            status.HTTP_201_CREATED,
            scored.deal,
            shown.get(scored.deal.pk),
        )

    def _stale(self, request, match_id, sequence) -> Response | None:
        """The 412 for an ``If-Match`` that is not the deal's current ETag (api.preconditions).
        With the header, the match is locked first (the caller's transaction holds it to the
        write), so no other write comes between the comparison and this one."""
        if preconditions.HEADER in request.headers:
            Match.objects.select_for_update().filter(pk=checked_id(match_id)).exists()
        return preconditions.refused(
            request, lambda: self.retrieve(request, match_id=match_id, sequence=sequence)
        )

    @retried  # the whole transaction again after a deadlock (clubs.transactions)
    @transaction.atomic
    def update(self, request, match_id=None, sequence=None, partial=False):
        match_id = self.writable_match_id()
        if stale := self._stale(request, match_id, sequence):
            return stale
        deal = self._stored_deal(match_id, sequence)
        serializer = DealInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = serializer.result(kept=deal.result if partial else None)
        scored = services.deal_correct(
            match=match_id, sequence=deal.sequence, result=result, actor=self.actor
        )
        return self._deal_response(scored.deal.match, scored.row, deal=scored.deal)

    def partial_update(self, request, match_id=None, sequence=None):
        return self.update(request, match_id=match_id, sequence=sequence, partial=True)

    @retried
    @transaction.atomic
    def destroy(self, request, match_id=None, sequence=None):
        match_id = self.writable_match_id()
        if stale := self._stale(request, match_id, sequence):
            return stale
        deal = self._stored_deal(match_id, sequence)
        # The service refuses (409) unless this is still the last deal when the match is locked.
        services.deal_delete_last(match=match_id, sequence=deal.sequence, actor=self.actor)
        return Response(status=status.HTTP_204_NO_CONTENT)

    def _stored_deal(self, match_id: int, sequence) -> Deal:
        deal = Deal.objects.filter(match_id=match_id, sequence=checked_id(sequence)).first()
        if deal is None:
            raise NotFound(gettext("This match has no deal %(sequence)s.") % {"sequence": sequence})
        return deal
