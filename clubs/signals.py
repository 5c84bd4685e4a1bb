"""What the clubs services announce to the apps above them, which connect their receivers in
their ``AppConfig.ready()`` (clubs imports nothing of theirs). Each is sent inside the writing
service's transaction; a receiver that must wait for the commit uses ``on_commit`` itself."""

from django.dispatch import Signal

club_changed = Signal()
"""``club_ids``: these clubs' data changed (sent by the clubs services and admin, and by the
match services for a club's re-scoring); the API renews its read cache's generations."""

club_scoring_changed = Signal()
"""``club``, ``actor``: the club's Chicago vulnerability changed (sent by ``club_update``); the
matches app re-scores the club's Chicago matches, in the same transaction."""

seasons_changed = Signal()
"""``season_ids``: these seasons' ladders are out of date (sent by ``club_update`` and the match
services); the ladders (scoring) recalculate them once the transaction commits."""
