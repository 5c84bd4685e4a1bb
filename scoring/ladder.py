"""Season ladders: from a season's counted match results, in playing order, to ladder rows.

Pure Python, no Django and no I/O, like the engine: ``scoring.services`` reads the counted
matches of a season (their stored totals and winner, which the engine computed) and writes the
rows this module returns. The rules are the README's "Season ladders" section:

- A player's result in a match is their side's total minus the other side's (net points);
  with ``rounding="nearest_100"`` each match's net is first rounded to the nearest hundred,
  50 away from zero. Best and worst are the best and worst (rounded) match nets.
- Wins, draws and losses follow the match's winner: a Chicago and a finished unfinished rubber
  go to the side with more points (equal: a draw); a rubber to the side that won two games,
  even with fewer points.
- Order: net points, then average net per match, then fewer matches, then name. Players with
  fewer than ``min_matches`` matches come after all qualified players, in the same order among
  themselves, and are marked not qualified. Rows equal on all of (qualified, net, average,
  matches) share a rank (1, 2, 2, 4); ``position`` numbers the rows 1..n in display order.
- Rating (Elo for rotating partnerships), replayed in playing order from ``RATING_START`` for
  every player at the start of the season:

      side rating  R = mean of its players' ratings (a table of two: the one player's)
      expected     E_ns = 1 / (1 + 10 ** ((R_ew - R_ns) / RATING_SCALE)),  E_ew = 1 - E_ns
      result       S = 1 win, 0.5 draw, 0 loss
      change       every player of a side gains  K * (S - E)  for that side

  so the two sides' changes are opposite and ratings are conserved within a match.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

RATING_START = 1500.0
"""Every player's rating at the start of a season."""
RATING_K = 20.0
"""K: the most a player's rating can move in one match (a certain result that went the other
way). Each player of a side moves by K times (result minus expected result)."""
RATING_SCALE = 400.0
"""A side rated this much higher is expected to score 10 times as much as the other."""

ROUNDING_NONE = "none"
ROUNDING_NEAREST_100 = "nearest_100"
ROUNDINGS = (ROUNDING_NONE, ROUNDING_NEAREST_100)

WIN, DRAW, LOSS = "win", "draw", "loss"
# The stored match winner ("NS", "EW" or "tie") -> North-South's result score.
_NS_SCORE = {"NS": 1.0, "EW": 0.0, "tie": 0.5}


class CountedMatch(NamedTuple):
    """One counted (complete) match, as stored: player ids by seat (``south``/``west`` are
    None at a table of two, where North plays East), the sides' totals and the winner
    ("NS", "EW" or "tie"). The field order is the order ``scoring.services`` reads them in."""

    north: int
    east: int
    south: int | None
    west: int | None
    total_ns: int
    total_ew: int
    winner: str


@dataclass(frozen=True, slots=True)
class LadderRow:
    """One player's line on a season ladder."""

    position: int
    rank: int
    player_id: int
    name: str
    qualified: bool
    matches: int
    wins: int
    draws: int
    losses: int
    net_points: int
    average: float
    best: int
    worst: int
    rating: float


def round_net(net: int) -> int:
    """``net`` to the nearest hundred, 50 away from zero: 49 -> 0, 50 -> 100, -150 -> -200."""
    hundreds, rest = divmod(abs(net), 100)
    if rest >= 50:
        hundreds += 1
    return hundreds * 100 if net >= 0 else -hundreds * 100


def net_rounder(rounding: str) -> Callable[[int], int] | None:
    """The function a match's net goes through before summing, None for no rounding."""
    if rounding == ROUNDING_NONE:
        return None
    if rounding == ROUNDING_NEAREST_100:
        return round_net
    raise ValueError(f"rounding must be one of {', '.join(ROUNDINGS)}, got {rounding!r}")


def result_for(winner: str, *, north_south: bool) -> str:
    """ "win", "draw" or "loss" for one side of a match with that stored winner."""
    score = _NS_SCORE[winner]
    if not north_south:
        score = 1.0 - score
    return WIN if score == 1.0 else LOSS if score == 0.0 else DRAW


# Indexes into a player's running tally (a list, updated in place: this loop is the hot path).
_MATCHES, _WINS, _DRAWS, _LOSSES, _NET, _BEST, _WORST, _RATING = range(8)


def compute_ladder(
    matches: Iterable[CountedMatch | tuple],
    *,
    names: Mapping[int, str],
    min_matches: int = 0,
    rounding: str = ROUNDING_NONE,
    k: float = RATING_K,
    start: float = RATING_START,
    scale: float = RATING_SCALE,
) -> list[LadderRow]:
    """The ladder of one season from its counted matches in playing order.

    ``matches`` are ``CountedMatch`` values or plain tuples in the same field order (rows
    straight from the database); only complete matches belong here. ``names`` maps every
    player id that appears to the name the ladder sorts by. Players without a counted match
    are not on the ladder. Returns the rows in ladder order.
    """
    rounder = net_rounder(rounding)
    if min_matches < 0:
        raise ValueError(f"min_matches must not be negative, got {min_matches!r}")
    tallies: dict[int, list] = {}
    ns_score = _NS_SCORE

    def tally(player: int) -> list:
        row = tallies.get(player)
        if row is None:
            row = tallies[player] = [0, 0, 0, 0, 0, None, None, start]
        return row

    for north, east, south, west, total_ns, total_ew, winner in matches:
        net = total_ns - total_ew
        if rounder is not None:
            net = rounder(net)
        score = ns_score[winner]
        if south is None:  # a table of two: North alone against East alone
            ns_players = (tally(north),)
            ew_players = (tally(east),)
            rating_ns = ns_players[0][_RATING]
            rating_ew = ew_players[0][_RATING]
        else:
            ns_players = (tally(north), tally(south))
            ew_players = (tally(east), tally(west))
            rating_ns = (ns_players[0][_RATING] + ns_players[1][_RATING]) / 2
            rating_ew = (ew_players[0][_RATING] + ew_players[1][_RATING]) / 2
        expected_ns = 1.0 / (1.0 + 10.0 ** ((rating_ew - rating_ns) / scale))
        change = k * (score - expected_ns)
        outcome_ns = _WINS if score == 1.0 else _LOSSES if score == 0.0 else _DRAWS
        outcome_ew = _LOSSES if score == 1.0 else _WINS if score == 0.0 else _DRAWS
        for players, own_net, outcome, own_change in (
            (ns_players, net, outcome_ns, change),
            (ew_players, -net, outcome_ew, -change),
        ):
            for row in players:
                row[_MATCHES] += 1
                row[outcome] += 1
                row[_NET] += own_net
                if row[_BEST] is None or own_net > row[_BEST]:
                    row[_BEST] = own_net
                if row[_WORST] is None or own_net < row[_WORST]:
                    row[_WORST] = own_net
                row[_RATING] += own_change

    def order(item: tuple[int, list]) -> tuple:
        player, row = item
        played = row[_MATCHES]
        return (
            played < min_matches,  # the qualified first
            -row[_NET],
            -row[_NET] / played,
            played,
            names[player].casefold(),
            names[player],
            player,
        )

    ordered = sorted(tallies.items(), key=order)
    ladder: list[LadderRow] = []
    rank = 0
    previous = None
    for position, (player, row) in enumerate(ordered, start=1):
        played = row[_MATCHES]
        qualified = played >= min_matches
        key = (qualified, row[_NET], played)  # equal net and matches: equal average too
        if key != previous:
            rank, previous = position, key
        ladder.append(
            LadderRow(
                position=position,
                rank=rank,
                player_id=player,
                name=names[player],
                qualified=qualified,
                matches=played,
                wins=row[_WINS],
                draws=row[_DRAWS],
                losses=row[_LOSSES],
                net_points=row[_NET],
                average=round(row[_NET] / played, 2),
                best=row[_BEST],
                worst=row[_WORST],
                rating=round(row[_RATING], 1),
            )
        )
    return ladder


def expected_score(rating: float, other: float, *, scale: float = RATING_SCALE) -> float:
    """The expected result (0..1) of a side rated ``rating`` against one rated ``other``."""
    return 1.0 / (1.0 + 10.0 ** ((other - rating) / scale))
