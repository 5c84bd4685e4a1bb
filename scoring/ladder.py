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

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import accumulate
from typing import NamedTuple

from scoring.engine import Side, shared_ranks, side_net

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
# Outcome codes in a player's list of results; the stored winner -> (NS code, EW code).
_WIN, _DRAW, _LOSS = 2, 1, 0
_OUTCOMES = {"NS": (_WIN, _LOSS), "EW": (_LOSS, _WIN), "tie": (_DRAW, _DRAW)}


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


MatchRow = tuple[int, int, int | None, int | None, int, int, str]
"""A ``CountedMatch``'s fields as a plain tuple (a row straight from the database)."""


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
    nets: tuple[int, ...] = ()
    """The ladder's chart of the player: their net points, cumulative, after each match, or
    after every k-th match up to the last when they played more than ``CHART_POINTS``."""


CHART_POINTS = 20
"""The most points a ladder's chart line keeps: a small chart draws no more."""


def chart_line(nets: list[int]) -> tuple[int, ...]:
    """The cumulative sums of ``nets``: all of them, or at most ``CHART_POINTS`` evenly spread
    ones ending with the last (the total)."""
    line = list(accumulate(nets))
    stride = -(-len(line) // CHART_POINTS)  # rounded up
    return tuple(line[::-1][::stride][::-1]) if stride > 1 else tuple(line)


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
    """The result ("win", "draw" or "loss") of one side of a match with that stored winner."""
    code = _OUTCOMES[winner][0 if north_south else 1]
    return WIN if code == _WIN else LOSS if code == _LOSS else DRAW


def compute_ladder(
    matches: Iterable[MatchRow],
    *,
    names: Mapping[int, str] | Callable[[set[int]], Mapping[int, str]],
    min_matches: int = 0,
    rounding: str = ROUNDING_NONE,
    k: float = RATING_K,
    start: float = RATING_START,
    scale: float = RATING_SCALE,
) -> list[LadderRow]:
    """The ladder of one season from its counted matches in playing order.

    ``matches`` are ``CountedMatch`` values or plain tuples in the same field order (rows
    straight from the database); only complete matches belong here. ``names`` maps every
    player id that appears to the name the ladder sorts by, or is a function that returns
    that mapping for the set of player ids (called once, after the matches were read).
    Players without a counted match are not on the ladder. Returns the rows in ladder order.
    """
    rounder = net_rounder(rounding)
    if min_matches < 0:
        raise ValueError(f"min_matches must not be negative, got {min_matches!r}")
    # The hot loop: per player, a list of match nets and one of outcome codes (their sums,
    # extremes and counts are taken at the end, in C), and a running rating.
    nets: defaultdict[int, list[int]] = defaultdict(list)
    outcomes: defaultdict[int, list[int]] = defaultdict(list)
    ratings: dict[int, float] = {}
    rating = ratings.get
    codes = _OUTCOMES
    double_scale = 2.0 * scale

    for north, east, south, west, total_ns, total_ew, winner in matches:
        net = side_net(total_ns, total_ew, Side.NS)  # East-West's is its opposite
        if rounder is not None:
            net = rounder(net)
        code_ns, code_ew = codes[winner]
        score = code_ns / 2.0  # 1 win, 0.5 draw, 0 loss
        if south is None or west is None:  # a table of two: North alone against East alone
            r_n, r_e = rating(north, start), rating(east, start)
            change = k * (score - 1.0 / (1.0 + 10.0 ** ((r_e - r_n) / scale)))
            ratings[north] = r_n + change
            ratings[east] = r_e - change
            nets[north].append(net)
            nets[east].append(-net)
            outcomes[north].append(code_ns)
            outcomes[east].append(code_ew)
        else:  # a side's rating is the mean of its two players'
            r_n, r_s = rating(north, start), rating(south, start)
            r_e, r_w = rating(east, start), rating(west, start)
            change = k * (score - 1.0 / (1.0 + 10.0 ** ((r_e + r_w - r_n - r_s) / double_scale)))
            ratings[north] = r_n + change
            ratings[south] = r_s + change
            ratings[east] = r_e - change
            ratings[west] = r_w - change
            nets[north].append(net)
            nets[south].append(net)
            nets[east].append(-net)
            nets[west].append(-net)
            outcomes[north].append(code_ns)
            outcomes[south].append(code_ns)
            outcomes[east].append(code_ew)
            outcomes[west].append(code_ew)

    if callable(names):
        names = names(set(nets))
    tallies = [
        (player, len(player_nets), sum(player_nets), player_nets)
        for player, player_nets in nets.items()
    ]

    def order(item: tuple[int, int, int, list[int]]) -> tuple[bool, int, float, int, str, str, int]:
        player, played, net, _nets = item
        name = names[player]
        # The qualified first; more net, better average, fewer matches; then by name.
        return (played < min_matches, -net, -net / played, played, name.casefold(), name, player)

    tallies.sort(key=order)
    # Equal net and matches (so equal average too), both qualified or not: a shared place.
    ranks = shared_ranks([(played >= min_matches, net, played) for _p, played, net, _n in tallies])
    ladder: list[LadderRow] = []
    for position, (rank, (player, played, net, player_nets)) in enumerate(
        zip(ranks, tallies, strict=True), start=1
    ):
        qualified = played >= min_matches
        player_outcomes = outcomes[player]
        ladder.append(
            LadderRow(
                position=position,
                rank=rank,
                player_id=player,
                name=names[player],
                qualified=qualified,
                matches=played,
                wins=player_outcomes.count(_WIN),
                draws=player_outcomes.count(_DRAW),
                losses=player_outcomes.count(_LOSS),
                net_points=net,
                average=round(net / played, 2),
                best=max(player_nets),
                worst=min(player_nets),
                rating=round(ratings[player], 1),
                nets=chart_line(player_nets),
            )
        )
    return ladder
