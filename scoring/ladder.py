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
- League points: a match won earns ``points_win``, drawn ``points_draw``, lost
  ``points_loss`` (3/1/0 unless the club says otherwise), so a player's points are
  wins * W + draws * D + losses * L over the matches that count. They are always computed;
  they order the ladder only with ``ranking="points"``.
- Best N (``best_matches`` > 0): only a player's N best matches count toward their net, points,
  W/D/L, average, best, worst and chart; a player with N matches or fewer counts them
  all. "Best" is by the ranking key of one match: with ``ranking="net"`` its net, then its
  result (a win before a draw before a loss); with ``ranking="points"`` its league points, then
  its net; on equal keys the earlier match (playing order) counts. So the counted matches
  give the highest total the ranking sorts by. ``matches`` is every match played (what the
  qualification minimum counts), ``counted`` the matches that count. The rating replays
  every match, counted or not.
- Par IMPs: at a club that scores against par, each four-player Chicago carries North-South's
  IMPs of its par reading (docs/rules.md, "Par scoring"; East-West's are their opposite). A
  player's ``imps`` are their sides' IMPs over the counted matches, a match without a reading
  adding 0; None when no counted match of theirs was read. With ``ranking="par"`` they order
  the ladder, and pick the best N (a match's IMPs, then its net), as net points do otherwise.
- Handicapped net: with ``ranking="handicap"`` (a club that gives handicaps, docs/rules.md
  "Handicaps") each match also counts the player's net less their handicap per match, from the
  rating this ladder gave them at the start of the match's session (the day's play, as a night
  fixes it when a player joins), at the club's strength and cap (``handicap_of``). A
  player's ``handicapped`` is its sum over the counted matches (None on other ladders); it
  orders the ladder, and picks the best N (a match's handicapped net, then its net).
- Order: with ``ranking="points"`` league points first, with ``ranking="par"`` par IMPs
  first, with ``ranking="handicap"`` the handicapped net first; then net points, then average
  net per counted match, then fewer matches counted, then fewer matches played, then name. Players
  with fewer than ``min_matches`` matches played come after all qualified players, in the same
  order among themselves, and are marked not qualified. Rows equal on all of (qualified,
  points, IMPs or handicapped net when ranked by them, net, counted, played) share a rank
  (1, 2, 2, 4); ``position`` numbers the rows 1..n in display order. With the default
  options (``LadderOptions()``: ranking by net, every match counting) this is the ladder as it
  was before league options.
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
from operator import itemgetter
from typing import NamedTuple

from scoring.engine import Side, shared_ranks, side_net
from scoring.engine.handicap import (  # the handicaps' rating is the ladder's
    RATING_SCALE,
    RATING_START,
    handicap_of,
)

RATING_K = 20.0
"""K: the most a player's rating can move in one match (a certain result that went the other
way). Each player of a side moves by K times (result minus expected result)."""

ROUNDING_NONE = "none"
ROUNDING_NEAREST_100 = "nearest_100"
ROUNDINGS = (ROUNDING_NONE, ROUNDING_NEAREST_100)

RANKING_NET = "net"
RANKING_POINTS = "points"
RANKING_PAR = "par"
RANKING_HANDICAP = "handicap"
RANKINGS = (RANKING_NET, RANKING_POINTS, RANKING_PAR, RANKING_HANDICAP)
POINTS_MAX = 99
"""The most league points a club may give for one match's result."""

WIN, DRAW, LOSS = "win", "draw", "loss"
# Outcome codes in a player's list of results; the stored winner -> (NS code, EW code).
_WIN, _DRAW, _LOSS = 2, 1, 0
_OUTCOMES = {"NS": (_WIN, _LOSS), "EW": (_LOSS, _WIN), "tie": (_DRAW, _DRAW)}


@dataclass(frozen=True, slots=True)
class LadderOptions:
    """A club's ladder options, as the ladder needs them (``clubs.models.Club``'s ``ladder_*``
    fields). The defaults are a ladder by net points where every match counts."""

    min_matches: int = 0
    """Matches played a player needs to be ranked with the qualified."""
    rounding: str = ROUNDING_NONE
    """``"none"`` or ``"nearest_100"``: each match's net rounded before summing."""
    ranking: str = RANKING_NET
    """``"net"``: ordered by net points; ``"points"``: by league points, ``"par"``: by par
    IMPs, ``"handicap"``: by net points less handicaps, each then by net points."""
    points_win: int = 3
    points_draw: int = 1
    points_loss: int = 0
    best_matches: int = 0
    """0: every match counts; N > 0: each player's best N matches count."""
    handicap_strength: int = 0
    handicap_cap: int = 0
    """The club's handicaps (``handicap_of``), which ``ranking="handicap"`` takes off."""

    def __post_init__(self) -> None:
        net_rounder(self.rounding)  # raises for an unknown rounding
        if self.ranking not in RANKINGS:
            raise ValueError(f"ranking must be one of {', '.join(RANKINGS)}, got {self.ranking!r}")
        if self.min_matches < 0:
            raise ValueError(f"min_matches must not be negative, got {self.min_matches!r}")
        if self.best_matches < 0:
            raise ValueError(f"best_matches must not be negative, got {self.best_matches!r}")
        if self.ranking == RANKING_HANDICAP and not 0 < self.handicap_strength <= 100:
            raise ValueError(f"a ladder by handicap needs a strength, got {self.handicap_strength}")
        handicap_of(RATING_START, strength=self.handicap_strength, cap=self.handicap_cap)
        points = (self.points_win, self.points_draw, self.points_loss)
        if not all(0 <= value <= POINTS_MAX for value in points):
            raise ValueError(f"points must be 0 to {POINTS_MAX}, got {points!r}")
        if not self.points_win >= self.points_draw >= self.points_loss:
            raise ValueError(f"points must be win >= draw >= loss, got {points!r}")

    def points(self, wins: int, draws: int, losses: int) -> int:
        """League points for these results: wins * W + draws * D + losses * L."""
        return wins * self.points_win + draws * self.points_draw + losses * self.points_loss


class CountedMatch(NamedTuple):
    """One counted (complete) match, as stored: player ids by seat (``south``/``west`` are
    None at a table of two, where North plays East), the sides' totals, the winner ("NS",
    "EW" or "tie"), North-South's par IMPs (None: no par reading) and the match's session (a
    ladder by handicap takes a player's handicap from their rating at its start). The field
    order is the order ``scoring.services`` reads them in."""

    north: int
    east: int
    south: int | None
    west: int | None
    total_ns: int
    total_ew: int
    winner: str
    par_ns: int | None = None
    session: int | None = None


MatchRow = tuple[int, int, int | None, int | None, int, int, str, int | None, int | None]
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
    """Matches played."""
    counted: int
    """Matches that count (``matches`` unless only the best N count); W + D + L."""
    wins: int
    draws: int
    losses: int
    points: int
    """League points of the counted matches."""
    net_points: int
    average: float
    best: int
    worst: int
    rating: float
    nets: tuple[int, ...] = ()
    """The ladder's chart of the player: their net points, cumulative, after each counted
    match, or after every k-th one up to the last when more than ``CHART_POINTS`` count."""
    imps: int | None = None
    """Par IMPs of the counted matches (a match without a par reading: 0); None when none of
    them was read."""
    handicapped: int | None = None
    """Net points less the handicaps of the counted matches; None unless ranked by handicap."""


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


DEFAULT_OPTIONS = LadderOptions()
"""A ladder by net points, every match counting, no qualification minimum, no rounding."""


def counted_indices(
    nets: list[int],
    outcomes: list[int],
    *,
    options: LadderOptions,
    imps: list[int | None] | None = None,
    handicaps: list[int] | None = None,
) -> list[int]:
    """Which of a player's matches count (their indices in playing order), given each match's
    net, outcome code, (ranked by par) par IMPs and (ranked by handicap) handicap: all of them,
    or the ``options.best_matches`` best by the ranking key of one match
    (``LadderOptions.best_matches``), on equal keys the earlier."""
    best = options.best_matches
    if not best or len(nets) <= best:
        return list(range(len(nets)))
    keys: list[tuple[int, int]]
    if options.ranking == RANKING_POINTS:
        worth = {_WIN: options.points_win, _DRAW: options.points_draw, _LOSS: options.points_loss}
        keys = [(worth[code], net) for net, code in zip(nets, outcomes, strict=True)]
    elif options.ranking == RANKING_PAR:
        read = imps if imps is not None else [None] * len(nets)
        keys = [(imp or 0, net) for net, imp in zip(nets, read, strict=True)]
    elif options.ranking == RANKING_HANDICAP:
        taken = handicaps if handicaps is not None else [0] * len(nets)
        keys = [(net - given, net) for net, given in zip(nets, taken, strict=True)]
    else:
        keys = list(zip(nets, outcomes, strict=True))
    # A stable sort, even reversed: on equal keys the earlier match comes first.
    return sorted(sorted(range(len(keys)), key=keys.__getitem__, reverse=True)[:best])


def outcome_code(result: str) -> int:
    """The outcome code of a result ("win", "draw" or "loss")."""
    return _WIN if result == WIN else _LOSS if result == LOSS else _DRAW


def compute_ladder(
    matches: Iterable[MatchRow],
    *,
    names: Mapping[int, str] | Callable[[set[int]], Mapping[int, str]],
    options: LadderOptions = DEFAULT_OPTIONS,
    k: float = RATING_K,
    start: float = RATING_START,
    scale: float = RATING_SCALE,
) -> list[LadderRow]:
    """The ladder of one season from its counted matches in playing order.

    ``matches`` are ``CountedMatch`` values or plain tuples in the same field order (rows
    straight from the database); only complete matches belong here. ``names`` maps every
    player id that appears to the name the ladder sorts by, or is a function that returns
    that mapping for the set of player ids (called once, after the matches were read).
    ``options`` are the club's (qualification, rounding, ranking, league points, best N).
    Players without a counted match are not on the ladder. Returns the rows in ladder order.
    """
    rounder = net_rounder(options.rounding)
    min_matches = options.min_matches
    # The hot loop: per player, a list of match nets, one of outcome codes and one of par IMPs
    # (their sums, extremes and counts are taken at the end, in C), and a running rating.
    nets: defaultdict[int, list[int]] = defaultdict(list)
    outcomes: defaultdict[int, list[int]] = defaultdict(list)
    imps: defaultdict[int, list[int | None]] = defaultdict(list)
    ratings: dict[int, float] = {}
    rating = ratings.get
    codes = _OUTCOMES
    double_scale = 2.0 * scale
    by_handicap = options.ranking == RANKING_HANDICAP
    # Ranked by handicap: each player's handicap per match, and the session it was taken at.
    handicaps: defaultdict[int, list[int]] = defaultdict(list)
    taken: dict[int, tuple[int | None, int]] = {}

    def take_handicaps(players: tuple[int, ...], session: int | None) -> None:
        for player in players:
            at = taken.get(player)
            if at is None or at[0] != session:
                given = handicap_of(
                    rating(player, start),
                    strength=options.handicap_strength,
                    cap=options.handicap_cap,
                )
                at = taken[player] = (session, given)
            handicaps[player].append(at[1])

    for north, east, south, west, total_ns, total_ew, winner, par_ns, session in matches:
        if by_handicap:  # before this match moves the ratings
            seated = (north, east) if south is None or west is None else (north, east, south, west)
            take_handicaps(seated, session)
        net = side_net(total_ns, total_ew, Side.NS)  # East-West's is its opposite
        par_ew = None if par_ns is None else -par_ns
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
            imps[north].append(par_ns)
            imps[east].append(par_ew)
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
            imps[north].append(par_ns)
            imps[south].append(par_ns)
            imps[east].append(par_ew)
            imps[west].append(par_ew)

    if callable(names):
        names = names(set(nets))
    by_points = options.ranking == RANKING_POINTS
    by_par = options.ranking == RANKING_PAR
    best = options.best_matches
    win, draw, loss = options.points_win, options.points_draw, options.points_loss
    # Per player, as plain tuples (the fastest to build and sort): (not qualified, -points,
    # -IMPs or -handicapped net when ranked by them, -net, -average, counted, played, name
    # folded, name, player), then counted nets, wins, draws, losses, points, IMPs, handicapped net.
    tallies = []
    for player, player_nets in nets.items():
        player_outcomes, player_imps = outcomes[player], imps[player]
        player_handicaps = handicaps[player] if by_handicap else None
        played = len(player_nets)
        if best and played > best:
            chosen = counted_indices(
                player_nets,
                player_outcomes,
                options=options,
                imps=player_imps,
                handicaps=player_handicaps,
            )
            player_nets = [player_nets[index] for index in chosen]
            player_outcomes = [player_outcomes[index] for index in chosen]
            player_imps = [player_imps[index] for index in chosen]
            if player_handicaps is not None:
                player_handicaps = [player_handicaps[index] for index in chosen]
        counted = len(player_nets)
        read = [imp for imp in player_imps if imp is not None]
        imp_total = sum(read) if read else None
        wins, draws = player_outcomes.count(_WIN), player_outcomes.count(_DRAW)
        losses = counted - wins - draws
        points = wins * win + draws * draw + losses * loss
        net = sum(player_nets)
        handicapped = None if player_handicaps is None else net - sum(player_handicaps)
        name = names[player]
        # The qualified first; more points, IMPs or handicapped net (when ranked by them), more
        # net, better average, fewer matches counted, fewer played; then by name.
        if by_points:
            first = -points
        elif by_par:
            first = -(imp_total or 0)
        else:
            first = -(handicapped or 0)
        key = (
            played < min_matches,
            first,
            -net,
            -net / counted,
            counted,
            played,
            name.casefold(),
            name,
            player,
        )
        tallies.append((key, player_nets, wins, draws, losses, points, imp_total, handicapped))
    tallies.sort(key=itemgetter(0))
    # Equal on everything but the name: a shared place.
    ranks = shared_ranks([tally[0][:6] for tally in tallies])
    ladder: list[LadderRow] = []
    for position, (rank, tally) in enumerate(zip(ranks, tallies, strict=True), start=1):
        key, counted_nets, wins, draws, losses, points, imp_total, handicapped = tally
        not_qualified, _points, minus_net, _average, counted, played, _f, name, player = key
        ladder.append(
            LadderRow(
                position=position,
                rank=rank,
                player_id=player,
                name=name,
                qualified=not not_qualified,
                matches=played,
                counted=counted,
                wins=wins,
                draws=draws,
                losses=losses,
                points=points,
                net_points=-minus_net,
                average=round(-minus_net / counted, 2),
                best=max(counted_nets),
                worst=min(counted_nets),
                rating=round(ratings[player], 1),
                nets=chart_line(counted_nets),
                imps=imp_total,
                handicapped=handicapped,
            )
        )
    return ladder
