"""The night's results (NIGHTS.md): each player's net over the complete matches of a club
night, ranked with ties (equal nets share a place: 1, 2, 2, 4), best net first and then by
name. Pure: it ranks the lines it is given."""

from collections.abc import Iterable
from dataclasses import dataclass

from .ranks import shared_ranks


@dataclass(frozen=True)
class NightMatch:
    """One player's part in one match of the night: their side's net (their total minus the
    other side's), whether the match is complete (an unfinished one counts for nothing), and
    the round it was played in (None outside a night's rounds)."""

    player_id: int
    name: str
    net: int
    complete: bool
    round: int | None = None


@dataclass(frozen=True)
class NightLine:
    """A player's night: place (shared on equal nets), net over the complete matches, how
    many complete matches, their best single net (None before a complete one) and the round
    of it (the first such round; None outside rounds), unfinished."""

    rank: int
    player_id: int
    name: str
    net: int
    matches: int
    best: int | None
    open: int
    best_round: int | None = None


def rank_night(
    parts: Iterable[NightMatch], present: Iterable[tuple[int, str]] = ()
) -> list[NightLine]:
    """The night's lines, by rank then name (then player, for two of one name). Each player
    ``present`` (id, name) has a line even before their first match: nothing played, net 0."""
    totals: dict[int, list[int]] = {}
    names: dict[int, str] = {}
    bests: dict[int, int | None] = {}
    best_rounds: dict[int, int | None] = {}
    for pk, name in present:
        names[pk], totals[pk], bests[pk] = name, [0, 0, 0], None
    for part in parts:
        names.setdefault(part.player_id, part.name)
        line = totals.setdefault(part.player_id, [0, 0, 0])
        bests.setdefault(part.player_id, None)
        if not part.complete:
            line[2] += 1
            continue
        line[0] += part.net
        line[1] += 1
        best, best_round = bests[part.player_id], best_rounds.get(part.player_id)
        earlier = part.round is not None and (best_round is None or part.round < best_round)
        if best is None or part.net > best or (part.net == best and earlier):
            bests[part.player_id] = part.net
            best_rounds[part.player_id] = part.round
    order = sorted(totals, key=lambda pk: (-totals[pk][0], names[pk], pk))
    ranks = shared_ranks([totals[pk][0] for pk in order])
    ranked: list[NightLine] = []
    for rank, pk in zip(ranks, order, strict=True):
        net, matches, unfinished = totals[pk]
        ranked.append(
            NightLine(rank, pk, names[pk], net, matches, bests[pk], unfinished, best_rounds.get(pk))
        )
    return ranked
