from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers.common import ErrorSerializer, StrictInput
from api.serializers.fields import WritableClubField
from clubs.models import Season


class SeasonSerializer(StrictInput, serializers.ModelSerializer):
    club = WritableClubField(help_text=_("The club; set when the season is created."))

    class Meta:
        model = Season
        fields = ["id", "club", "name", "start_date", "end_date", "updated_at"]
        read_only_fields = ["id", "updated_at"]
        validators: list[
            object
        ] = []  # the service checks names and dates (and the database overlaps)

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:
            fields["club"].read_only = True
        return fields


class ImportLineSerializer(serializers.Serializer):
    line = serializers.IntegerField(
        help_text=_("The file's line (the header is line 1; 0: the file).")
    )
    field = serializers.CharField(help_text=_("The column's key (e.g. tricks), or file."))
    message = serializers.CharField()


class HistoryFileSerializer(StrictInput, serializers.Serializer):
    """A season's history sent as a multipart form: the file, and no other field (the view
    refuses any other, as ``StrictInput`` does a JSON body's)."""

    file = serializers.FileField()


class HistoryImportSerializer(serializers.Serializer):
    """What an import read and wrote (``matches.history_import.HistoryImport``)."""

    season = serializers.IntegerField(source="season.pk")
    dry_run = serializers.BooleanField()
    rows = serializers.IntegerField(help_text=_("Deals read (rows after the header)."))
    matches = serializers.IntegerField(help_text=_("Matches written, or that would be."))
    deals = serializers.IntegerField(help_text=_("Deals written, or that would be."))
    players_created = serializers.ListField(
        source="players_new",
        child=serializers.CharField(),
        help_text=_("Names not found among the club's members, created as its players."),
    )
    notes = ImportLineSerializer(
        many=True,
        help_text=_(
            "What is recorded although the file does not say it: an unfinished rubber finished "
            "by the Laws' scoring, an unfinished Chicago abandoned, a new player whose name is "
            "close to a member's."
        ),
    )
    errors = ImportLineSerializer(  # type: ignore[assignment]  # the field, not Serializer.errors
        many=True, help_text=_("Every problem (a dry run only).")
    )
    match_ids = serializers.ListField(
        child=serializers.IntegerField(), help_text=_("The matches written (none in a dry run).")
    )


class HistoryRefusedSerializer(ErrorSerializer):
    """A refused import: the API's error shape (``errors`` keyed ``lines.<line>.<column>``),
    and every problem as a line."""

    lines = ImportLineSerializer(
        many=True,
        required=False,
        help_text=_("Every problem of the file, by line and column (when a file was sent)."),
    )
