"""The changes the match services announce; the apps above connect in ``AppConfig.ready()``."""

from django.dispatch import Signal

# match_id, club_id, season_id, session_id, table_number, player_ids: from every match service;
# api renews its read cache's generations (a season's ladder hears of it through clubs'
# seasons_changed).
match_changed = Signal()

# What exactly changed, for the events list and webhooks (api), sent inside the service's
# transaction after ``match_changed``:
# deal_changed: action ("recorded", "corrected" or "deleted"), match (the Match, totals
# stored), club_id, deal (the Deal; for "deleted" the row as it was, no longer stored), row
# (the engine's DealRow as scored; None for "deleted"). A correction also sends "corrected" for
# each later deal whose row it changed (re-scored, entered as it was), with ``updated_at``: the
# corrected deal's (a deal's updated_at as shown is the newest of its own and the earlier ones').
deal_changed = Signal()
# match_ended: action ("completed" or "abandoned"), match (the Match, totals stored, with its
# table and session: ``match.table.session``), club_id, deals (how many it has).
match_ended = Signal()
# changes_batched: phase ("start", "end" or "abort"), from ``season_changes_batched`` (bulk
# loads: a season's history import, the demo), so that the apps above may collect what the
# block announces and write it at once at its end (still inside its transaction).
changes_batched = Signal()
