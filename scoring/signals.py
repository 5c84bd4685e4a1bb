"""What the ladders announce to the apps above them (connected in their ``AppConfig.ready()``)."""

from django.dispatch import Signal

ladders_changed = Signal()
"""``season_ids``: these seasons' stored ladders were rebuilt (sent by the standings
recalculation); the API renews its read cache's generations."""
