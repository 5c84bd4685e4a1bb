"""Chicago, four-deal bridge (docs/rules.md, "Chicago").

Exactly four counted deals, dealt clockwise from the first dealer. Vulnerability is fixed by
the deal: 1 nobody, 2 and 3 the dealer's side (or, as a club option, the other side), 4 both.
Trick points go below the line and partscores carry until a side reaches 100: that game is paid
at once, 300 or 500 if the side was vulnerable on that deal, and both partscores start again.
A partscore made on deal 4 that does not complete a game earns 100. A passed-out deal is dealt
again by the same player and is not counted. No rubber bonus; honours are not scored.
"""

from collections.abc import Sequence

from .contract import ItemKind, ScoreItem
from .errors import InvalidInput, MatchComplete, gettext_noop
from .notation import DealResult, PassedOut, Played, Seat, Side, not_a_result, parse_seat
from .rules import DEFAULT_RULES, Rules
from .sheet import (
    VULNERABLE,
    ChicagoVulnerability,
    DealRow,
    Kind,
    NextDeal,
    Sheet,
    new_row,
    new_sheet,
    winner_by_points,
)
from .tally import passed_out_row, play

DEALS = 4
GAME_BONUS = {False: 300, True: 500}
PARTSCORE_BONUS = 100

_SIDES = (Side.NS, Side.EW)
# [side index * 2 + vulnerable] -> the game bonus item; [side index] -> the deal-4 bonus item.
_GAME_ITEMS = tuple(
    ScoreItem(ItemKind.GAME_BONUS, side, GAME_BONUS[vul])
    for side in _SIDES
    for vul in (False, True)
)
_PARTSCORE_ITEMS = tuple(
    ScoreItem(ItemKind.PARTSCORE_BONUS, side, PARTSCORE_BONUS) for side in _SIDES
)


def check_players(players: int) -> None:
    """Chicago is played by exactly four; a table of two plays Draw Bridge
    (docs/rules.md, "Draw Bridge: a table of two")."""
    if players != 4:
        raise InvalidInput(
            "kind",
            gettext_noop(
                "Chicago is played by exactly four players, got %(value)s; a table of two plays "
                "the two-player game (Draw Bridge), scored as a rubber"
            ),
            value=repr(players),
        )


def chicago_schedule(
    first_dealer: Seat, vulnerability: ChicagoVulnerability = ChicagoVulnerability.DEALER
) -> tuple[NextDeal, ...]:
    """Dealer and vulnerable sides of counted deals 1 to 4."""
    deals = []
    dealer = first_dealer
    for number in range(1, DEALS + 1):
        if number == 1:
            vulnerable: tuple[Side, ...] = ()
        elif number == DEALS:
            vulnerable = (Side.NS, Side.EW)
        elif vulnerability is ChicagoVulnerability.DEALER:
            vulnerable = (dealer.side,)
        else:
            vulnerable = (dealer.side.other,)
        deals.append(NextDeal(number, dealer, vulnerable))
        dealer = dealer.next()
    return tuple(deals)


# (first dealer, option) -> ((deal, (NS vulnerable, EW vulnerable)) for counted deals 1 to 4)
_SCHEDULES = {
    (seat, option): tuple(
        (deal, (Side.NS in deal.vulnerable, Side.EW in deal.vulnerable))
        for deal in chicago_schedule(seat, option)
    )
    for seat in Seat
    for option in ChicagoVulnerability
}
assert all(deal.vulnerable in VULNERABLE.values() for s in _SCHEDULES.values() for deal, _ in s)


def score_chicago(
    results: Sequence[DealResult],
    *,
    first_dealer: Seat | str,
    rules: Rules = DEFAULT_RULES,
    players: int = 4,
) -> Sheet:
    """Score a Chicago match from all its results so far, passed-out deals included, under
    the club's ``rules`` (who is vulnerable on deals 2 and 3).

    Raises ``MatchComplete`` for any deal after the fourth counted one, ``InvalidInput`` for
    a bad input (a table of two never plays Chicago).
    """
    check_players(players)
    first_dealer = parse_seat(first_dealer, field="first_dealer")
    schedule = _SCHEDULES[(first_dealer, rules.vulnerability)]

    rows: list[DealRow] = []
    counted = 0
    part = [0, 0]  # running partscores, NS then EW
    games = [0, 0]
    above = [0, 0]
    below = [0, 0]
    for sequence, result in enumerate(results, 1):
        if counted == DEALS:
            raise MatchComplete(
                gettext_noop(
                    "a Chicago match is exactly 4 deals and all 4 have been played; "
                    "it accepts no further deal"
                )
            )
        deal, vul_flags = schedule[counted]
        if not isinstance(result, Played):
            if not isinstance(result, PassedOut):
                raise not_a_result(result, sequence)
            rows.append(
                passed_out_row(sequence, None, deal.dealer, deal.vulnerable, result, part, games)
            )
            continue
        counted += 1
        s, items, points, tricks_below, game = play(result, vul_flags, part, games, below)
        game_won_by = _SIDES[s] if game else None
        if game:
            bonus = _GAME_ITEMS[s * 2 + vul_flags[s]]
        elif tricks_below and counted == DEALS:
            bonus = _PARTSCORE_ITEMS[s]
        else:
            bonus = None
        if bonus is not None:
            items += (bonus,)
            points[s] += bonus.points
        above[s] += points[s] - tricks_below
        above[1 - s] += points[1 - s]
        rows.append(
            new_row(
                sequence=sequence,
                number=counted,
                dealer=deal.dealer,
                vulnerable=deal.vulnerable,
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

    total_ns = above[0] + below[0]
    total_ew = above[1] + below[1]
    complete = counted == DEALS
    return new_sheet(
        kind=Kind.CHICAGO,
        first_dealer=first_dealer,
        rows=tuple(rows),
        closing_items=(),
        total_ns=total_ns,
        total_ew=total_ew,
        above_ns=above[0],
        above_ew=above[1],
        below_ns=below[0],
        below_ew=below[1],
        games_ns=games[0],
        games_ew=games[1],
        complete=complete,
        finished_early=False,
        winner=winner_by_points(total_ns, total_ew) if complete else None,
        next_deal=None if complete else schedule[counted][0],
    )
