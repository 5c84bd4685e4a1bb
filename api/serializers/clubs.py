from rest_framework import serializers

from clubs.models import Club


class ClubSerializer(serializers.ModelSerializer):
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
            "created_at",
        ]
        read_only_fields = ["id", "created_at"]
