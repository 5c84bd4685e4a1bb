import hashlib

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_view,
)
from rest_framework import mixins, status
from rest_framework.decorators import action
from rest_framework.exceptions import ErrorDetail, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.response import Response

from api import access, idempotency
from api.errors import PayloadTooLarge, error_body
from api.filters import SeasonFilter
from api.idempotency import idempotent
from api.parsers import CSVParser
from api.serializers.seasons import (
    HistoryFileSerializer,
    HistoryImportSerializer,
    HistoryRefusedSerializer,
    SeasonSerializer,
)
from api.views.base import ClubScopedViewSet
from clubs import selectors, services
from matches import season_csv
from matches.history_import import HistoryRefused, season_history_import

DRY_RUN = OpenApiParameter(
    "dry_run",
    bool,
    OpenApiParameter.QUERY,
    description=_("true: check the file and answer what would be written; nothing is written."),
)
TRUE, FALSE = ("true", "1", "yes"), ("false", "0", "no", "")


def _dry_run(request) -> bool:
    value = request.query_params.get("dry_run", "").strip().lower()
    if value not in TRUE + FALSE:
        raise ValidationError({"dry_run": [gettext("dry_run is true or false.")]})
    return value in TRUE


def _csv_of(request) -> bytes:
    """The file sent: a multipart form's ``file``, or a ``text/csv`` body. One over the file
    limit is a 413, as is a body over DATA_UPLOAD_MAX_MEMORY_SIZE (refused before it is read:
    a multipart form's file parts are no part of that limit)."""
    try:
        length = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        length = 0
    if length > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
        detail = gettext("The request body is larger than %(limit)d bytes, the most accepted.")
        raise PayloadTooLarge(detail % {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE})
    if isinstance(request.data, bytes):
        data = request.data
    else:
        unknown = sorted(set(request.data) - {"file"})
        if unknown:  # as a JSON body's (api.serializers.common.StrictInput)
            message = gettext("Unknown field; this body accepts: %(fields)s.") % {"fields": "file"}
            raise ValidationError(
                {name: [ErrorDetail(message, "unknown_field")] for name in unknown}
            )
        upload = request.FILES.get("file")
        if upload is None:
            message = gettext("Send the CSV file as the form's field file, or as a text/csv body.")
            raise ValidationError({"file": [message]})
        data = upload.read(season_csv.MAX_BYTES + 1)
    if len(data) > season_csv.MAX_BYTES:
        detail = gettext("The file is larger than %(size)s MB; import the season in several files.")
        raise PayloadTooLarge(detail % {"size": f"{season_csv.MAX_BYTES / 1_000_000:g}"})
    return data


# A 400 naming the field (clubs.services), rules no schema states.
SEASON_RULES = _(
    "A 400 names the field when the club already has a season of that name (`name`), when "
    "the dates overlap another season of the club or end before they start (`end_date`)."
)


@extend_schema_view(
    list=extend_schema(summary=_("Seasons of your clubs and of public clubs")),
    retrieve=extend_schema(summary=_("A season")),
    create=extend_schema(
        summary=_("Add a season to a club (directors)"),
        description=SEASON_RULES,
    ),
    partial_update=extend_schema(
        summary=_("Rename a season or change its dates (directors)"),
        description=SEASON_RULES,
    ),
)
class SeasonViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, ClubScopedViewSet):
    """Seasons. Season-level reports (the ladder, issue 6) are added here as actions."""

    serializer_class = SeasonSerializer
    poll_kind = "season"
    public_read = True
    filterset_class = SeasonFilter
    ordering_fields = {
        "start_date": "start_date",
        "end_date": "end_date",
        "name": "name",
        "club": "club_id",
        "updated_at": "updated_at",
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

    @extend_schema(
        summary=_("Import a season's history from CSV (directors)"),
        description=_(
            "One row per deal: date, table, kind, north, east, south, west, contract, declarer, "
            "tricks (the README's *Importing a season's history*), as the multipart field "
            "`file` or a `text/csv` body. With `?dry_run=true`: 200 with what would be written "
            "and every error, nothing written. Otherwise: 201 with what was written, or 400 "
            "with every error by line and column (`lines`) and nothing written."
        ),
        parameters=[DRY_RUN],
        request={
            "multipart/form-data": HistoryFileSerializer,
            "text/csv": OpenApiTypes.BINARY,
        },
        responses={
            200: HistoryImportSerializer,
            201: HistoryImportSerializer,
            400: HistoryRefusedSerializer,
        },
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="import",
        parser_classes=[MultiPartParser, CSVParser],
    )
    def import_history(self, request, pk=None):
        season = self.get_object()
        dry_run = _dry_run(request)
        data = _csv_of(request)
        digest = hashlib.sha256(data + (b"\0dry" if dry_run else b"")).hexdigest()
        return idempotency.run(request, lambda: self._import(season, data, dry_run), digest=digest)

    def created_location(self, data) -> str | None:
        """What an import wrote: the season's deals."""
        if self.action == "import_history":
            return reverse("api:season-deals", kwargs={"season_id": self.kwargs["pk"]})
        return super().created_location(data)

    def _import(self, season, data: bytes, dry_run: bool) -> Response:
        try:
            report = season_history_import(
                season=season, data=data, actor=self.actor, dry_run=dry_run
            )
        except HistoryRefused as refused:
            body = error_body(ValidationError(refused.message_dict))
            body["lines"] = [error.as_dict() for error in refused.report.errors]
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        code = status.HTTP_200_OK if dry_run else status.HTTP_201_CREATED
        return Response(HistoryImportSerializer(report).data, status=code)

    def partial_update(self, request, pk=None):
        season = self.get_object()
        serializer = self.get_serializer(season, data=request.data, partial=True)
        serializer.is_valid(raise_exception=True)
        season = services.season_update(season=season, **serializer.validated_data)
        return Response(self.get_serializer(season).data)
