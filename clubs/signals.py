"""The changes the clubs services announce; the apps above connect in ``AppConfig.ready()``."""

from django.dispatch import Signal

club_changed = Signal()  # club_ids: from every write to clubs' data; api renews its generations
club_scoring_changed = Signal()  # club, actor: from club_update; matches re-scores its Chicagos
seasons_changed = Signal()  # season_ids: from club_update and matches; scoring recalculates
