"""The night's results (NIGHTS.md): each player's net over the complete matches of a club
night, ranked with ties (equal nets share a place: 1, 2, 2, 4), best net first and then by
name. Pure: it ranks the lines it is given."""

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class NightMatch:
    """One player's part in one match of the night: their side's net (their total minus the
    other side's), and whether the match is complete (an unfinished one counts for nothing)."""

    player_id: int
    name: str
    net: int
    complete: bool


@dataclass(frozen=True)
class NightLine:
    """A player's night: place (shared on equal nets), net over the complete matches, how
    many complete matches, their best single net (None before a complete one), unfinished."""

    rank: int
    player_id: int
    name: str
    net: int
    matches: int
    best: int | None
    open: int


def rank_night(parts: Iterable[NightMatch]) -> list[NightLine]:
    """The night's lines, by rank then name (then player, for two of one name)."""
    totals: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    bests: dict[int, int | None] = {}
    for part in parts:
        names.setdefault(part.player_id, part.name)
        line = totals.setdefault(part.player_id, [0, 0, 0])
        bests.setdefault(part.player_id, None)
        if not part.complete:
            line[2] += 1
            continue
        line[0] += part.net
        line[1] += 1
        best = bests[part.player_id]
        bests[part.player_id] = part.net if best is None else max(best, part.net)
    order = sorted(totals, key=lambda pk: (-totals[pk][0], names[pk], pk))
    ranked: list[NightLine] = []
    for position, pk in enumerate(order, start=1):
        net, matches, unfinished = totals[pk]
        tied = bool(ranked) and ranked[-1].net == net
        rank = ranked[-1].rank if tied else position
        ranked.append(NightLine(rank, pk, names[pk], net, matches, bests[pk], unfinished))
    return ranked
