from django.apps import AppConfig


class ScoringConfig(AppConfig):
    name = "scoring"

    def ready(self) -> None:
        from clubs.hooks import ratings_reader_set
        from clubs.signals import seasons_changed
        from scoring.selectors import player_ratings
        from scoring.tasks import seasons_refresh_on_commit

        seasons_changed.connect(seasons_refresh_on_commit)
        ratings_reader_set(player_ratings)
