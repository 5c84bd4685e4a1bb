"""The changes the match services announce; the apps above connect in ``AppConfig.ready()``."""

from django.dispatch import Signal

# match_id, club_id, season_id, session_id, player_ids: from every match service; api renews
# its read cache's generations (a season's ladder hears of it through clubs' seasons_changed).
match_changed = Signal()
