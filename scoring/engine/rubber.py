"""Rubber bridge (docs/rules.md, "Rubber bridge") and the two-player Draw Bridge scored as a rubber
(docs/rules.md, "Draw Bridge: a table of two").

Nobody is vulnerable at the start; a side is vulnerable once it has won a game. A side wins a
game when its trick points below the line since the last game reach 100; then both sides start
again from zero. The side that wins two games wins the rubber and scores 700, or 500 if the
other side won a game; no bonus for a single game, and the rubber takes no further deal. The
deal passes to the next player after every deal, passed out or not (at a table of two, N and E
in turn). A rubber finished early is scored by the Laws: 300 to a side that has won one game,
100 to a side with a partscore in the unfinished game; then more points wins. Honours are not
scored.
"""

from collections.abc import Sequence

from .contract import ItemKind, ScoreItem
from .errors import InvalidInput, MatchComplete, gettext_noop
from .notation import DealResult, PassedOut, Played, Seat, Side, not_a_result, parse_seat
from .rules import DEFAULT_RULES, Rules
from .sheet import (
    VULNERABLE,
    DealRow,
    Kind,
    NextDeal,
    Sheet,
    Winner,
    new_row,
    new_sheet,
    winner_by_points,
)
from .tally import passed_out_row, play

GAMES_TO_WIN = 2
RUBBER_BONUS = {0: 700, 1: 500}  # by the games the losing side won
UNFINISHED_GAME = 300
UNFINISHED_PARTSCORE = 100

_SIDES = (Side.NS, Side.EW)
_WINNERS = (Winner.NS, Winner.EW)
# [side index * 2 + the other side's games] -> the rubber bonus item
_RUBBER_ITEMS = tuple(
    ScoreItem(ItemKind.RUBBER_BONUS, side, RUBBER_BONUS[other_games])
    for side in _SIDES
    for other_games in (0, 1)
)


def score_rubber(
    results: Sequence[DealResult],
    *,
    first_dealer: Seat | str,
    rules: Rules = DEFAULT_RULES,
    players: int = 4,
    finished: bool = False,
) -> Sheet:
    """Score a rubber from all its results so far, passed-out deals included, under the
    club's ``rules`` (no option of today's changes a rubber).

    ``players=2`` scores a table of two (kind ``two_player``): only N (side NS) and E (side EW)
    sit, deal and declare. ``finished=True`` ends an unfinished rubber by the Laws' rule (no
    change to a rubber already won). Raises ``MatchComplete`` for a deal after the rubber was
    won and ``InvalidInput`` for bad input.
    """
    if players == 4:
        kind = Kind.RUBBER
    elif players == 2:
        kind = Kind.TWO_PLAYER
    else:
        raise InvalidInput(
            "kind",
            gettext_noop("a rubber is played by 4 players or 2, got %(value)s"),
            value=repr(players),
        )
    if type(finished) is not bool:
        raise InvalidInput(
            "kind",
            gettext_noop("finished must be True or False, got %(value)s"),
            value=repr(finished),
        )
    first_dealer = parse_seat(first_dealer, field="first_dealer")
    if players == 2 and first_dealer not in (Seat.N, Seat.E):
        raise InvalidInput(
            "first_dealer",
            gettext_noop("At a table of two, North or East deals first."),
            seat=first_dealer.value,
        )

    rows: list[DealRow] = []
    dealer = first_dealer
    part = [0, 0]  # running partscores in the game in progress, NS then EW
    games = [0, 0]
    above = [0, 0]
    below = [0, 0]
    rubber_won_by: int | None = None
    for sequence, result in enumerate(results, 1):
        if rubber_won_by is not None:
            raise MatchComplete(
                gettext_noop(
                    "the rubber ended on deal %(deal)s (%(side)s won two games); "
                    "it accepts no further deal"
                ),
                deal=sequence - 1,
                side=_SIDES[rubber_won_by].value,
            )
        vul_flags = (games[0] > 0, games[1] > 0)
        vulnerable = VULNERABLE[vul_flags]
        if not isinstance(result, Played):
            if not isinstance(result, PassedOut):
                raise not_a_result(result, sequence)
            rows.append(passed_out_row(sequence, sequence, dealer, vulnerable, result, part, games))
            dealer = dealer.next(players)
            continue
        declarer = result.declarer
        if players == 2 and declarer is not Seat.N and declarer is not Seat.E:
            raise InvalidInput(
                "declarer",
                gettext_noop(
                    "a table of two has only seats N and E; declarer must be N or E, "
                    "got %(seat)s (deal %(deal)s)"
                ),
                seat=declarer.value,
                deal=sequence,
            )
        s, items, points, tricks_below, game = play(result, vul_flags, part, games, below)
        game_won_by = _SIDES[s] if game else None
        if game and games[s] == GAMES_TO_WIN:
            rubber_won_by = s
            bonus = _RUBBER_ITEMS[s * 2 + games[1 - s]]
            items += (bonus,)
            points[s] += bonus.points
        above[s] += points[s] - tricks_below
        above[1 - s] += points[1 - s]
        rows.append(
            new_row(
                sequence=sequence,
                number=sequence,
                dealer=dealer,
                vulnerable=vulnerable,
                result=result,
                items=items,
                ns=points[0],
                ew=points[1],
                partscore_ns=part[0],
                partscore_ew=part[1],
                game_won_by=game_won_by,
                games_ns=games[0],
                games_ew=games[1],
            )
        )
        dealer = dealer.next(players)

    closing: tuple[ScoreItem, ...] = ()
    winner: Winner | None = None
    if rubber_won_by is not None:
        winner = _WINNERS[rubber_won_by]
    elif finished:
        closing = unfinished_bonuses(games, part)
        for item in closing:
            above[0 if item.side is Side.NS else 1] += item.points
    total_ns = above[0] + below[0]
    total_ew = above[1] + below[1]
    finished_early = rubber_won_by is None and finished
    if finished_early:
        winner = winner_by_points(total_ns, total_ew)
    complete = winner is not None
    return new_sheet(
        kind=kind,
        first_dealer=first_dealer,
        rows=tuple(rows),
        closing_items=closing,
        total_ns=total_ns,
        total_ew=total_ew,
        above_ns=above[0],
        above_ew=above[1],
        below_ns=below[0],
        below_ew=below[1],
        games_ns=games[0],
        games_ew=games[1],
        complete=complete,
        finished_early=finished_early,
        winner=winner,
        next_deal=None
        if complete
        else NextDeal(len(rows) + 1, dealer, VULNERABLE[(games[0] > 0, games[1] > 0)]),
    )


def unfinished_bonuses(games: Sequence[int], partscores: Sequence[int]) -> tuple[ScoreItem, ...]:
    """The Laws' rule for a rubber left unfinished: 300 to each side that has won one game,
    100 to each side with a partscore in the unfinished game (NS's items first)."""
    items: list[ScoreItem] = []
    for s, side in enumerate(_SIDES):
        if games[s] == 1:
            items.append(ScoreItem(ItemKind.UNFINISHED_GAME, side, UNFINISHED_GAME))
        if partscores[s] > 0:
            items.append(ScoreItem(ItemKind.UNFINISHED_PARTSCORE, side, UNFINISHED_PARTSCORE))
    return tuple(items)
