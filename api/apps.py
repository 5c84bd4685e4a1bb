from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self):
        from api import schema  # noqa: F401  (registers the API key's OpenAPI scheme)
        from api.generations import (
            club_generation_bump,
            ladder_generation_bump,
            match_generation_bump,
        )
        from clubs.signals import club_changed
        from matches.signals import match_changed
        from scoring.signals import ladders_changed

        # The read cache's generations follow every write the services announce.
        club_changed.connect(club_generation_bump)
        match_changed.connect(match_generation_bump)
        ladders_changed.connect(ladder_generation_bump)
