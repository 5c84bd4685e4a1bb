"""The generations live in ``clubs.generations`` (the pages read them too, and they are below
the API); the API's read cache and its signal receivers import them from there."""

from clubs.generations import (
    Scope,
    club_generation_bump,
    generations,
    ladder_generation_bump,
    match_generation_bump,
)

__all__ = [
    "Scope",
    "club_generation_bump",
    "generations",
    "ladder_generation_bump",
    "match_generation_bump",
]
