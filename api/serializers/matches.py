"""Matches: reading one, and the body that starts one."""

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import SidePointsSerializer, side_points
from api.serializers.fields import MemberSessionField, MemberTableField, WritableClubField
from clubs.models import Player
from matches.models import KindChoice, Match, SeatChoice, WinnerChoice
from scoring.engine import Kind

SEAT_FIELDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


class SeatsSerializer(serializers.Serializer):
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
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    @extend_schema_field(SeatsSerializer)
    def get_seats(self, match):
        ids = {seat: getattr(match, f"{field}_id") for seat, field in SEAT_FIELDS.items()}
        return {seat: pk for seat, pk in ids.items() if pk is not None}

    @extend_schema_field(SidePointsSerializer)
    def get_totals(self, match):
        return side_points(match.total_ns, match.total_ew)

    @extend_schema_field(serializers.ChoiceField(choices=WinnerChoice.choices, allow_null=True))
    def get_winner(self, match) -> str | None:
        return match.winner or None


class MatchCreateSerializer(serializers.Serializer):
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

    def validate(self, attrs):
        club = attrs["club"]
        kind = attrs["kind"]
        seats: dict = attrs["seats"]
        errors: dict[str, list[str]] = {}
        wanted = ["N", "E"] if kind == Kind.TWO_PLAYER else list(SEAT_FIELDS)
        for seat in SEAT_FIELDS:
            if seat in wanted and seat not in seats:
                errors[f"seats.{seat}"] = [
                    gettext("a %(kind)s match needs a player in seat %(seat)s")
                    % {"kind": kind, "seat": seat}
                ]
            elif seat not in wanted and seat in seats:
                errors[f"seats.{seat}"] = [gettext("a two-player match has seats N and E only")]
        if kind == Kind.TWO_PLAYER and attrs.get("first_dealer", "N") not in ("N", "E"):
            errors["first_dealer"] = [gettext("at a two-player match N or E deals first")]
        ids = list(seats.values())
        members = set(
            Player.objects.filter(pk__in=ids, memberships__club=club).values_list("pk", flat=True)
        )
        for seat, pk in seats.items():
            if pk not in members:
                errors.setdefault(f"seats.{seat}", []).append(
                    gettext("there is no player %(id)s in this club") % {"id": pk}
                )
        if len(set(ids)) != len(ids) and not errors:
            errors["seats"] = [gettext("a player can sit in one seat only")]
        session, table = attrs.get("session"), attrs.get("table")
        if session is not None and session.club_id != club.pk:
            errors["session"] = [gettext("this session is not the club's")]
        if table is not None:
            if table.session.club_id != club.pk:
                errors["table"] = [gettext("this table is not the club's")]
            elif session is not None and table.session_id != session.pk:
                errors["table"] = [gettext("this table is not in the session")]
        played_on = attrs.get("played_on")
        if played_on is not None:
            where = table.session if table is not None else session
            if where is not None and where.date != played_on and "session" not in errors:
                errors["played_on"] = [
                    gettext("the session is on %(date)s") % {"date": where.date.isoformat()}
                ]
        if errors:
            raise serializers.ValidationError(errors)
        return attrs

    def service_arguments(self) -> dict:
        data = dict(self.validated_data)
        players = {p.pk: p for p in Player.objects.filter(pk__in=data["seats"].values())}
        data["seats"] = {seat: players[pk] for seat, pk in data["seats"].items()}
        return data
