from __future__ import annotations

from typing import TYPE_CHECKING

from django.apps import AppConfig

if TYPE_CHECKING:
    from clubs.models import Club
    from clubs.services import Actor


class MatchesConfig(AppConfig):
    name = "matches"

    def ready(self) -> None:
        from clubs.signals import club_scoring_changed

        club_scoring_changed.connect(_club_scoring_changed)


def _club_scoring_changed(*, club: Club, actor: Actor | str, **signal: object) -> None:
    """A club's Chicago vulnerability changed: its Chicago matches are re-scored with it, in
    ``club_update``'s transaction (which refreshes the ladders they change)."""
    from matches.services import club_matches_rescore

    club_matches_rescore(club=club, actor=actor)
