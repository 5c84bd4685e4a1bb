"""What one deal adds to a match's running score, the same in Chicago and in a rubber.

Trick points go below the line and add to the declaring side's partscore; when it reaches 100
that side wins a game and both partscores start again from zero (docs/rules.md, "Rubber bridge"
and "Chicago").
Each kind of match then adds its own bonuses (Chicago's game and deal-4 bonuses, the rubber
bonus) to what ``play`` returns.
"""

from .contract import SIDE_SCORES, ScoreItem, score_index
from .notation import PassedOut, Played, Seat, Side
from .sheet import DealRow, new_row

GAME = 100


def play(
    result: Played,
    vulnerable: tuple[bool, bool],
    part: list[int],
    games: list[int],
    below: list[int],
) -> tuple[int, tuple[ScoreItem, ...], list[int], int, bool]:
    """Score ``result`` given (NS vulnerable, EW vulnerable), updating the running ``part``,
    ``games`` and ``below`` (each [NS, EW]) in place.

    Returns the declaring side's index (0 NS, 1 EW), the deal's sheet items, the points to
    [NS, EW], the trick points below the line, and whether the deal won a game.
    """
    s = 0 if result.declarer is Seat.N or result.declarer is Seat.S else 1
    vul = vulnerable[s]
    key = score_index(result.contract, result.tricks, vul) * 2 + s
    items, tricks_below, declarer_points, defender_points = SIDE_SCORES[key]
    points = [defender_points, defender_points]
    points[s] = declarer_points
    game = False
    if tricks_below:
        below[s] += tricks_below
        part[s] += tricks_below
        if part[s] >= GAME:
            games[s] += 1
            part[0] = part[1] = 0
            game = True
    return s, items, points, tricks_below, game


def passed_out_row(
    sequence: int,
    number: int | None,
    dealer: Seat,
    vulnerable: tuple[Side, ...],
    result: PassedOut,
    part: list[int],
    games: list[int],
) -> DealRow:
    """A passed-out deal's row: nobody scores, the partscores and games carry on."""
    return new_row(
        sequence=sequence,
        number=number,
        dealer=dealer,
        vulnerable=vulnerable,
        result=result,
        items=(),
        ns=0,
        ew=0,
        partscore_ns=part[0],
        partscore_ew=part[1],
        game_won_by=None,
        games_ns=games[0],
        games_ew=games[1],
    )
