from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = _("API")

    def ready(self):
        from corsheaders.signals import check_request_enabled
        from django.db.models.signals import post_delete, post_save

        from api import (
            cors,
            events,
            schema,  # noqa: F401  (the API key's OpenAPI scheme)
            webhooks,
        )
        from api.models import WebhookEndpoint
        from clubs import generations
        from clubs.signals import club_changed
        from matches.signals import changes_batched, deal_changed, match_changed, match_ended
        from nights.signals import round_started
        from scoring.signals import ladders_changed

        # The read cache's generations follow every write the services announce.
        club_changed.connect(generations.club_generation_bump)
        match_changed.connect(generations.match_generation_bump)
        ladders_changed.connect(generations.ladder_generation_bump)

        # CORS: the origins the clubs list (api.cors).
        check_request_enabled.connect(cors.request_allowed)
        club_changed.connect(cors.forget_origins)

        # Events (the events list and webhooks), written in the change's transaction.
        changes_batched.connect(events.on_changes_batched)
        deal_changed.connect(events.on_deal_changed)
        match_ended.connect(events.on_match_ended)
        ladders_changed.connect(events.on_ladders_changed)
        round_started.connect(events.on_round_started)
        # Which clubs' events look for webhook endpoints (api.webhooks).
        for changed in (post_save, post_delete):
            changed.connect(webhooks.forget_endpoint_clubs, sender=WebhookEndpoint)
