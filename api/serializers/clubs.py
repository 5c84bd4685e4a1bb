from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers.common import StrictInput
from clubs.models import Club
from clubs.validators import MAX_API_ORIGINS, MAX_ORIGIN_LENGTH


class ClubSerializer(StrictInput, serializers.ModelSerializer):
    api_origins = serializers.ListField(
        child=serializers.CharField(max_length=MAX_ORIGIN_LENGTH),
        max_length=MAX_API_ORIGINS,
        required=False,
        help_text=_(
            "The origins of the club's browser apps (https://host[:port], no path), which may "
            "call the API from a web page (CORS); the app still needs an API key or a token."
        ),
    )

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
            "night_ranking",
            "night_min_matches",
            "api_origins",
            "created_at",
            "updated_at",
        ]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {
            "ladder_best_matches": {"allow_null": True},
        }
