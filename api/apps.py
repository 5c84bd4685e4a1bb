from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self):
        from api import schema  # noqa: F401  (the API key's OpenAPI scheme)
        from clubs import generations
        from clubs.signals import club_changed
        from matches.signals import match_changed
        from scoring.signals import ladders_changed

        # The read cache's generations follow every write the services announce.
        club_changed.connect(generations.club_generation_bump)
        match_changed.connect(generations.match_generation_bump)
        ladders_changed.connect(generations.ladder_generation_bump)

        # CORS: the origins the clubs list (api.cors).
        from corsheaders.signals import check_request_enabled

        from api import cors

        check_request_enabled.connect(cors.request_allowed)
        club_changed.connect(cors.forget_origins)
