"""A player's statistics: from their counted matches and deals, as stored, to the figures the
player page and the API show (per season, or for all of one club's seasons).

Pure Python, no Django and no I/O, like ``scoring.ladder``: ``scoring.selectors`` reads the
rows (a few queries) and this module folds them. The rules:

- Only counted matches (complete ones, as the ladder counts) are given here.
- Wins, draws and losses follow the match's stored winner by the ladder's rule
  (``scoring.ladder.result_for``): a Chicago to the side with more points, a rubber (a table of
  two's Draw Bridge too) to the side that won it. A match's net is the player's side's total
  minus the other side's, rounded as the ladder rounds it when the club rounds (so the nets
  here add up to the ladder's net points).
- Contracts declared: the deals the player declared themself, by level (1 to 7), by strain
  (C, D, H, S, NT) and by doubling; made when the declarer's side took at least level + 6
  tricks, else down. A slam is a contract at level 6 (small) or 7 (grand).
- Points per deal: a deal's points for the player are their side's points minus the other
  side's on that deal's row of the score sheet (the engine replays each match from its
  deals; bonuses written on that row, such as a Chicago game bonus or the rubber bonus, are
  the deal's; an unfinished rubber's closing bonuses belong to no deal). "As declarer":
  the deals the player declared; "as defender": the deals an opponent declared. Deals their
  partner declared and passed-out deals are in neither. An average is the sum divided by the
  deals (None without a deal).
- Partners: each player they sat with (a table of two has no partner), with the matches
  together, W/D/L and the net. Opponents: each pair (or, at a table of two, the one player)
  they met, head to head: matches, W/D/L and net, from the player's side.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from itertools import groupby
from typing import NamedTuple

from scoring.engine import (
    DEFAULT_RULES,
    Contract,
    DealResult,
    Doubling,
    PassedOut,
    Played,
    Rules,
    Seat,
    Side,
    Strain,
    score_match,
    side_net,
)

from .ladder import DRAW, LOSS, WIN, net_rounder, result_for

KINDS = ("chicago", "rubber", "two_player")
LEVELS = tuple(range(1, 8))
STRAINS = tuple(strain.value for strain in (Strain.C, Strain.D, Strain.H, Strain.S, Strain.NT))
DOUBLINGS = tuple(doubling.value for doubling in Doubling)  # "", "X", "XX"
SMALL_SLAM, GRAND_SLAM = 6, 7


class StatMatch(NamedTuple):
    """One counted match as stored (``scoring.selectors`` reads them in this field order):
    player ids by seat (``south``/``west`` None at a table of two), the sides' totals, the
    winner ("NS", "EW" or "tie") and what the engine needs to replay its deals."""

    id: int
    kind: str
    north: int
    east: int
    south: int | None
    west: int | None
    total_ns: int
    total_ew: int
    winner: str
    first_dealer: str
    finished_early: bool


class StatDeal(NamedTuple):
    """One deal as entered: its match, passed out or the contract (level, strain, doubling),
    declarer seat and tricks. A match's deals come together, in their order."""

    match_id: int
    passed_out: bool
    level: int | None
    strain: str
    doubling: str
    declarer: str
    tricks: int | None


class ContractCount(NamedTuple):
    """How many contracts of one (level, strain, doubling) the player declared, and how many
    of them made (one row of the selectors' aggregate query)."""

    level: int
    strain: str
    doubling: str
    declared: int
    made: int


@dataclass(frozen=True, slots=True)
class Record:
    """Matches with wins, draws, losses and the net (the player's side minus the other)."""

    matches: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    net_points: int = 0

    def plus(self, result: str, net: int) -> Record:
        return Record(
            self.matches + 1,
            self.wins + (result == WIN),
            self.draws + (result == DRAW),
            self.losses + (result == LOSS),
            self.net_points + net,
        )


@dataclass(frozen=True, slots=True)
class KindRecord:
    kind: str
    record: Record


@dataclass(frozen=True, slots=True)
class Tally:
    """Contracts declared, made and down (``down`` = ``declared`` - ``made``)."""

    declared: int = 0
    made: int = 0

    @property
    def down(self) -> int:
        return self.declared - self.made

    @property
    def made_share(self) -> float | None:
        """Made per declared, 0 to 1 (None when none declared)."""
        return self.made / self.declared if self.declared else None

    @property
    def made_percent(self) -> int | None:
        """Made per declared in whole per cent, half up (None when none declared)."""
        return (200 * self.made + self.declared) // (2 * self.declared) if self.declared else None

    def plus(self, declared: int, made: int) -> Tally:
        return Tally(self.declared + declared, self.made + made)


@dataclass(frozen=True, slots=True)
class LevelTally:
    level: int
    tally: Tally


@dataclass(frozen=True, slots=True)
class StrainTally:
    strain: str
    tally: Tally


@dataclass(frozen=True, slots=True)
class ContractTally:
    level: int
    strain: str
    tally: Tally


@dataclass(frozen=True, slots=True)
class Contracts:
    """The contracts the player declared."""

    total: Tally
    by_level: tuple[LevelTally, ...]  # levels 1 to 7, each listed
    by_strain: tuple[StrainTally, ...]  # C, D, H, S, NT, each listed
    by_contract: tuple[ContractTally, ...]  # only the (level, strain) declared, in that order
    undoubled: Tally
    doubled: Tally  # X
    redoubled: Tally  # XX
    small_slams: Tally  # level 6: bid (declared) and made
    grand_slams: Tally  # level 7


@dataclass(frozen=True, slots=True)
class DealPoints:
    """Deals and the sum of the player's points on them (see the module)."""

    deals: int = 0
    points: int = 0

    @property
    def average(self) -> float | None:
        """Points per deal, to two decimals; None without a deal."""
        return round(self.points / self.deals, 2) if self.deals else None


@dataclass(frozen=True, slots=True)
class Partner:
    player_id: int
    name: str
    record: Record


@dataclass(frozen=True, slots=True)
class Opponents:
    """A pair met (one player at a table of two), ids in increasing order."""

    player_ids: tuple[int, ...]
    names: tuple[str, ...]
    record: Record


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    player_id: int
    total: Record
    by_kind: tuple[KindRecord, ...]  # chicago, rubber, two_player, each listed
    contracts: Contracts
    as_declarer: DealPoints
    as_defender: DealPoints
    partners: tuple[Partner, ...]  # most matches first, then more net, then name
    opponents: tuple[Opponents, ...]  # the same order


def _seat_of(match: StatMatch, player_id: int) -> Seat:
    for seat, pk in ((Seat.N, match.north), (Seat.E, match.east), (Seat.S, match.south)):
        if pk == player_id:
            return seat
    if match.west == player_id:
        return Seat.W
    raise ValueError(f"player {player_id} does not sit at match {match.id}")


def contracts_of(counts: Iterable[ContractCount]) -> Contracts:
    """The contracts declared, folded from the counts per (level, strain, doubling)."""
    levels = dict.fromkeys(LEVELS, Tally())
    strains = dict.fromkeys(STRAINS, Tally())
    doublings = dict.fromkeys(DOUBLINGS, Tally())
    pairs: dict[tuple[int, str], Tally] = {}
    total = Tally()
    for level, strain, doubling, declared, made in counts:
        if not 0 <= made <= declared:
            raise ValueError(f"made {made} must be 0 to declared {declared}")
        total = total.plus(declared, made)
        levels[level] = levels[level].plus(declared, made)
        strains[strain] = strains[strain].plus(declared, made)
        doublings[doubling] = doublings[doubling].plus(declared, made)
        pairs[level, strain] = pairs.get((level, strain), Tally()).plus(declared, made)
    order = {strain: index for index, strain in enumerate(STRAINS)}
    return Contracts(
        total=total,
        by_level=tuple(LevelTally(level, tally) for level, tally in levels.items()),
        by_strain=tuple(StrainTally(strain, tally) for strain, tally in strains.items()),
        by_contract=tuple(
            ContractTally(level, strain, pairs[level, strain])
            for level, strain in sorted(pairs, key=lambda pair: (pair[0], order[pair[1]]))
        ),
        undoubled=doublings[Doubling.NONE.value],
        doubled=doublings[Doubling.DOUBLED.value],
        redoubled=doublings[Doubling.REDOUBLED.value],
        small_slams=levels[SMALL_SLAM],
        grand_slams=levels[GRAND_SLAM],
    )


_PASSED_OUT = PassedOut()


def _result_maker() -> Callable[[StatDeal], DealResult]:
    """The engine's result of an entered deal; the few hundred distinct ones made once."""
    made: dict[tuple[int | None, str, str, str, int | None], DealResult] = {}

    def result(deal: StatDeal) -> DealResult:
        if deal.passed_out:
            return _PASSED_OUT
        key = (deal.level, deal.strain, deal.doubling, deal.declarer, deal.tricks)
        found = made.get(key)
        if found is None:
            contract = Contract(deal.level, Strain(deal.strain), Doubling(deal.doubling))  # type: ignore[arg-type]
            found = made[key] = Played(contract, Seat(deal.declarer), deal.tricks)  # type: ignore[arg-type]
        return found

    return result


def deal_points(
    player_id: int,
    matches: Mapping[int, StatMatch],
    deals: Iterable[StatDeal],
    *,
    rules: Rules,
) -> tuple[DealPoints, DealPoints]:
    """The player's points per deal as declarer and as defender (see the module). ``deals``
    are the deals of ``matches`` (others are skipped), each match's together and in order;
    each match is replayed by the engine under the club's ``rules``."""
    result = _result_maker()
    declared = [0, 0]  # deals, points
    defended = [0, 0]
    for match_id, group in groupby(map(StatDeal._make, deals), key=lambda deal: deal.match_id):
        match = matches.get(match_id)
        if match is None:
            continue
        seat = _seat_of(match, player_id)
        side = seat.side
        sheet = score_match(
            match.kind,
            [result(deal) for deal in group],
            first_dealer=match.first_dealer,
            rules=rules,
            finished=match.finished_early,
        )
        for row in sheet.rows:
            played = row.result
            if not isinstance(played, Played):
                continue
            points = side_net(row.ns, row.ew, side)
            if played.declarer is seat:
                declared[0] += 1
                declared[1] += points
            elif played.declarer.side is not side:
                defended[0] += 1
                defended[1] += points
    return DealPoints(*declared), DealPoints(*defended)


def _order(name: str, record: Record, key: object) -> tuple[int, int, str, str, object]:
    return (-record.matches, -record.net_points, name.casefold(), name, key)


def player_statistics(
    player_id: int,
    matches: Iterable[StatMatch],
    deals: Iterable[StatDeal],
    contracts: Iterable[ContractCount],
    *,
    names: Mapping[int, str] | Callable[[set[int]], Mapping[int, str]],
    rules: Rules = DEFAULT_RULES,
    rounding: str = "none",
) -> PlayerStatistics:
    """The player's statistics from their counted ``matches`` (``StatMatch`` rows), the
    ``deals`` of those matches (``StatDeal``, each match's together and in order) and the
    counts of the ``contracts`` they declared in them (``ContractCount``). ``names`` maps
    the partners' and opponents' ids to names, or is a function that returns that mapping for
    a set of ids (called once). ``rules`` are the club's scoring options and
    ``rounding`` the ladder's (``scoring.ladder.ROUNDINGS``)."""
    rounder = net_rounder(rounding)
    played = {match.id: match for match in map(StatMatch._make, matches)}
    total = Record()
    kinds = dict.fromkeys(KINDS, Record())
    partners: dict[int, Record] = {}
    opponents: dict[tuple[int, ...], Record] = {}
    for match in played.values():
        north_south = player_id in (match.north, match.south)
        if not north_south and player_id not in (match.east, match.west):
            raise ValueError(f"player {player_id} does not sit at match {match.id}")
        net = side_net(match.total_ns, match.total_ew, Side.NS if north_south else Side.EW)
        if rounder is not None:
            net = rounder(net)
        result = result_for(match.winner, north_south=north_south)
        total = total.plus(result, net)
        kinds[match.kind] = kinds.get(match.kind, Record()).plus(result, net)
        if north_south:
            own = (match.north, match.south)
            other = (match.east, match.west)
        else:
            own = (match.east, match.west)
            other = (match.north, match.south)
        partner = next((pk for pk in own if pk is not None and pk != player_id), None)
        if partner is not None:
            partners[partner] = partners.get(partner, Record()).plus(result, net)
        pair = tuple(sorted(pk for pk in other if pk is not None))
        opponents[pair] = opponents.get(pair, Record()).plus(result, net)

    if callable(names):
        names = names({*partners, *(pk for pair in opponents for pk in pair)})
    partner_lines = sorted(
        (Partner(pk, names[pk], record) for pk, record in partners.items()),
        key=lambda line: _order(line.name, line.record, line.player_id),
    )
    opponent_lines = sorted(
        (
            Opponents(pair, tuple(names[pk] for pk in pair), record)
            for pair, record in opponents.items()
        ),
        key=lambda line: _order(" & ".join(line.names), line.record, line.player_ids),
    )
    as_declarer, as_defender = deal_points(player_id, played, deals, rules=rules)
    return PlayerStatistics(
        player_id=player_id,
        total=total,
        by_kind=tuple(KindRecord(kind, record) for kind, record in kinds.items()),
        contracts=contracts_of(map(ContractCount._make, contracts)),
        as_declarer=as_declarer,
        as_defender=as_defender,
        partners=tuple(partner_lines),
        opponents=tuple(opponent_lines),
    )
