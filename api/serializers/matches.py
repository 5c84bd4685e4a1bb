"""Matches: reading one, and the body that starts one."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import SidePointsSerializer, StrictInput, side_points
from api.serializers.fields import MemberSessionField, MemberTableField, WritableClubField
from api.serializers.tables import PendingField
from matches.models import KindChoice, Match, SeatChoice, WinnerChoice


class SeatsSerializer(StrictInput, serializers.Serializer):
    """Player ids by seat: N, E, S and W; a two-player match has N and E only."""

    N = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    E = serializers.IntegerField(min_value=1, max_value=2**63 - 1)
    S = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False)
    W = serializers.IntegerField(min_value=1, max_value=2**63 - 1, required=False)


class MatchSerializer(serializers.ModelSerializer):
    club = serializers.IntegerField(source="table.session.club_id", read_only=True)
    season = serializers.IntegerField(source="season_id", read_only=True)
    session = serializers.IntegerField(source="table.session_id", read_only=True)
    table = serializers.IntegerField(source="table_id", read_only=True)
    table_number = serializers.IntegerField(source="table.number", read_only=True)
    played_on = serializers.DateField(source="table.session.date", read_only=True)
    seats = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    winner = serializers.SerializerMethodField()
    deals = serializers.IntegerField(
        source="deal_count",
        read_only=True,
        help_text=_("How many deals are recorded, passed-out deals included."),
    )
    pending = PendingField(
        help_text=_(
            "Deals entered at the table that do not count yet: waiting for the other side "
            "to confirm them, or rejected by it (the director settles those). Oldest first."
        )
    )

    class Meta:
        model = Match
        fields = [
            "id",
            "club",
            "season",
            "session",
            "table",
            "table_number",
            "played_on",
            "kind",
            "status",
            "first_dealer",
            "seats",
            "totals",
            "winner",
            "finished_early",
            "deals",
            "pending",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(SeatsSerializer)
    def get_seats(self, match):
        return match.seat_ids

    @extend_schema_field(SidePointsSerializer)
    def get_totals(self, match):
        return side_points(match.total_ns, match.total_ew)

    @extend_schema_field(serializers.ChoiceField(choices=WinnerChoice.choices, allow_null=True))
    def get_winner(self, match) -> str | None:
        return match.winner or None


class MatchCreateSerializer(StrictInput, serializers.Serializer):
    club = WritableClubField(help_text=_("The club the match is played at."))
    kind = serializers.ChoiceField(choices=KindChoice.choices)
    played_on = serializers.DateField(
        required=False,
        help_text=_("The date played; today in the club's time zone if not given."),
    )
    seats = SeatsSerializer()
    first_dealer = serializers.ChoiceField(choices=SeatChoice.choices, default="N")
    session = MemberSessionField(
        required=False, help_text=_("A session of the club; that date's session if not given.")
    )
    table = MemberTableField(
        required=False, help_text=_("A table of the session; a new table if not given.")
    )

    def service_arguments(self) -> dict:
        """The arguments of ``matches.services.match_create``, which checks the lineup."""
        return dict(self.validated_data)
