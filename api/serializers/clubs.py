from rest_framework import serializers

from api.serializers.common import StrictInput
from clubs.models import Club


class ClubSerializer(StrictInput, serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = [
            "id",
            "name",
            "slug",
            "country",
            "language",
            "timezone",
            "public",
            "chicago_vulnerability",
            "ladder_min_matches",
            "ladder_rounding",
            "ladder_ranking",
            "ladder_points_win",
            "ladder_points_draw",
            "ladder_points_loss",
            "ladder_best_matches",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {
            "ladder_best_matches": {"allow_null": True},
        }
