from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from api.serializers.fields import WritableClubField
from clubs.models import Season


class SeasonSerializer(serializers.ModelSerializer):
    club = WritableClubField(help_text=_("The club; set when the season is created."))

    class Meta:
        model = Season
        fields = ["id", "club", "name", "start_date", "end_date"]
        read_only_fields = ["id"]
        validators: list[
            object
        ] = []  # the service checks names and dates (and the database overlaps)

    def get_fields(self):
        fields = super().get_fields()
        if self.instance is not None:
            fields["club"].read_only = True
        return fields
