"""What the match services announce to the apps above them (connected in their
``AppConfig.ready()``); a season's change goes through ``clubs.signals.seasons_changed``."""

from django.dispatch import Signal

match_changed = Signal()
"""``match_id``, ``club_id``, ``season_id``, ``session_id``, ``player_ids``: a match or its deals
changed (sent by every match service); the API renews its read cache's generations."""
