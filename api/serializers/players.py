"""Players. A player belongs to one or more clubs (memberships, each with a role and an
active flag of that club's own); ``club`` is the first of its clubs that the client can see
(the club it was created in, usually), and ``role`` and ``active`` the player's membership
there. Creating a player with ``club`` makes it a member of it."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.common import StrictInput
from api.serializers.fields import WritableClubField
from clubs.models import Player, Role


class MembershipSerializer(serializers.Serializer):
    club = serializers.IntegerField(source="club_id")
    role = serializers.ChoiceField(choices=Role.choices)
    active = serializers.BooleanField()


class PlayerSerializer(serializers.ModelSerializer):
    """Reading a player. ``memberships`` lists only clubs the client can see."""

    club = serializers.SerializerMethodField()
    role = serializers.SerializerMethodField()
    active = serializers.SerializerMethodField()
    memberships = serializers.SerializerMethodField()

    class Meta:
        model = Player
        fields = [
            "id",
            "club",
            "name",
            "role",
            "active",
            "memberships",
            "created_at",
            "updated_at",
        ]
        read_only_fields = fields

    def _visible(self, player):
        # Prefetched by the view as `visible_memberships` (the client's clubs only).
        return getattr(player, "visible_memberships", None) or []

    @extend_schema_field(serializers.IntegerField(allow_null=True))
    def get_club(self, player) -> int | None:
        memberships = self._visible(player)
        return memberships[0].club_id if memberships else None

    @extend_schema_field(serializers.ChoiceField(choices=Role.choices, allow_null=True))
    def get_role(self, player) -> str | None:
        memberships = self._visible(player)
        return memberships[0].role if memberships else None

    @extend_schema_field(serializers.BooleanField(allow_null=True))
    def get_active(self, player) -> bool | None:
        memberships = self._visible(player)
        return memberships[0].active if memberships else None

    @extend_schema_field(MembershipSerializer(many=True))
    def get_memberships(self, player):
        return MembershipSerializer(self._visible(player), many=True).data


class PlayerCreateSerializer(StrictInput, serializers.Serializer):
    club = WritableClubField(help_text=_("The club the new player joins."))
    name = serializers.CharField(max_length=100)
    role = serializers.ChoiceField(choices=Role.choices, default=Role.PLAYER)
    active = serializers.BooleanField(default=True)


class PlayerUpdateSerializer(StrictInput, serializers.Serializer):
    """Change a player's name (shared by all their clubs); ``role`` and ``active`` (with
    ``club``, by default the player's ``club``) set their membership of a club the client
    writes."""

    name = serializers.CharField(max_length=100, required=False)
    active = serializers.BooleanField(required=False)
    role = serializers.ChoiceField(choices=Role.choices, required=False)
    club = WritableClubField(
        required=False,
        help_text=_("The club whose role or active flag is set; only with role or active."),
    )

    def validate(self, attrs):
        if "club" in attrs and "role" not in attrs and "active" not in attrs:
            raise serializers.ValidationError(
                {"club": [_("club is only given with role or active.")]}
            )
        return attrs
