"""The changes the nights services announce; the apps above connect in ``AppConfig.ready()``."""

from django.dispatch import Signal

# round_started: night (the Night), round (the Round started, its matches set), club_id; sent
# by night_round_start inside its transaction.
round_started = Signal()
