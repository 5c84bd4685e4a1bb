from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers.common import StrictInput
from clubs.models import CLUB_SETTINGS, Club
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
        fields = ["id", *CLUB_SETTINGS, "created_at", "updated_at"]
        read_only_fields = ["id", "created_at", "updated_at"]
        extra_kwargs = {
            "ladder_best_matches": {"allow_null": True},
        }
