"""Shared places: rows already in order, ranked so that rows with equal keys share a place."""

from collections.abc import Hashable, Sequence


def shared_ranks(keys: Sequence[Hashable]) -> list[int]:
    """Each row's rank in standard competition ranking ("1224"): a row whose key equals the
    previous row's shares its rank; any other row's rank is its position (1-based)."""
    ranks: list[int] = []
    for position, key in enumerate(keys, start=1):
        tied = position > 1 and key == keys[position - 2]
        ranks.append(ranks[-1] if tied else position)
    return ranks
