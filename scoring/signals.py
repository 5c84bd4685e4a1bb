"""The changes the ladders announce; the apps above connect in ``AppConfig.ready()``."""

from django.dispatch import Signal

ladders_changed = Signal()  # season_ids: from the recalculation; api renews its generations
