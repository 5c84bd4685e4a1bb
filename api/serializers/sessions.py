from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers.common import StrictInput
from api.serializers.fields import MemberSessionField, WritableClubField
from clubs.models import Session, Table, TableSeats
from clubs.services import TABLE_NUMBER_MAX


class SessionSerializer(StrictInput, serializers.ModelSerializer):
    """A club's evening on a date, in the club's season covering the date."""

    club = WritableClubField(help_text=_("The club; set when the session is created."))
    tables = serializers.IntegerField(
        source="table_count", read_only=True, help_text=_("How many tables it has.")
    )

    class Meta:
        model = Session
        fields = ["id", "club", "season", "date", "notes", "tables", "updated_at"]
        read_only_fields = ["id", "season", "updated_at"]
        validators: list[
            object
        ] = []  # one session per club and date: creating returns the existing one

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:
            fields["club"].read_only = True
            fields["date"].read_only = True
        return fields


class TableSerializer(StrictInput, serializers.ModelSerializer):
    session = MemberSessionField(help_text=_("The session the table is in."))
    club = serializers.IntegerField(source="session.club_id", read_only=True)
    number = serializers.IntegerField(
        min_value=1,
        max_value=TABLE_NUMBER_MAX,
        required=False,
        help_text=_("Table number in the session; the next free number if not given."),
    )
    seats = serializers.ChoiceField(choices=TableSeats.choices, default=TableSeats.FOUR)

    class Meta:
        model = Table
        fields = ["id", "club", "session", "number", "seats", "updated_at"]
        read_only_fields = ["id", "club", "updated_at"]
        validators: list[object] = []  # the service numbers tables; a taken number is its error


class SessionResultLineSerializer(serializers.Serializer):
    """A player's line of a session's results (the session sheet's)."""

    rank = serializers.IntegerField(help_text=_("Place; equal net points share a place."))
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    net = serializers.IntegerField(help_text=_("Net points over the complete matches."))
    matches = serializers.IntegerField(help_text=_("Complete matches played."))
    best = serializers.IntegerField(
        allow_null=True, help_text=_("The best net of a single complete match; null if none.")
    )
    unfinished = serializers.IntegerField(source="open", help_text=_("Unfinished matches."))


class SessionResultsSerializer(serializers.Serializer):
    session = serializers.IntegerField()
    players = SessionResultLineSerializer(many=True, help_text=_("By rank, then name."))
