"""The one hook by which the club nights read the players' ratings, which the ladders keep:
``nights`` and ``scoring`` stand apart (neither imports the other), so ``scoring`` hands its
reader in here from ``AppConfig.ready()``, and ``nights`` asks through ``player_ratings``."""

from collections.abc import Callable, Collection

RatingsReader = Callable[[int, Collection[int]], dict[int, float]]
"""(season id, player ids) -> each player's rating, for those the ladders know."""

_reader: RatingsReader | None = None


def ratings_reader_set(reader: RatingsReader) -> None:
    """Where ``player_ratings`` reads the ratings (``scoring`` sets it once, at start-up)."""
    global _reader
    _reader = reader


def player_ratings(*, season_id: int, player_ids: Collection[int]) -> dict[int, float]:
    """Each player's rating as the ladders know it before a night of the season; a player
    they do not know (or with no ladders installed) is left out: the average, to the caller."""
    if _reader is None or not player_ids:
        return {}
    return _reader(season_id, player_ids)
