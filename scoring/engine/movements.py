"""Movements: who sits where in each round of a club night (docs/nights.md, "Movements").

Pure functions of their inputs, like the rest of the engine: no Django, no I/O, no randomness,
so a plan printed before the night is recomputed identically after it.

Players are hashable keys (ids, names) given in the director's order. A ``Round`` is a tuple of
``Table`` values plus the players sitting out; a ``Table`` has a number and seats N, E, S, W
(N-S and E-W are the partnerships), or only N and E at a table of two (Draw Bridge, scored as a
rubber). Table 1 is the top table.

- ``round_robin(players, rounds, remainder="sit_out", played=())``: rounds ``len(played) + 1``
  to ``rounds`` (1 to 60) of an individual movement for 4 to 60 players; with ``played=()``,
  all of them. For 4, 8, ..., 32 and 40 players and for 5, 13, 17, 21, 25, 29, 37, 41, 49 and
  53 (``_BASES``) it is a Z-cyclic whist tournament: with 4k players everyone partners
  everyone exactly once and opposes everyone exactly twice over 4k - 1 rounds (a base round
  developed modulo 4k - 1; the first player, "infinity", stays at table 1); with 4k + 1
  players one sits out each round, each player once, with the same partner and opponent
  counts over 4k + 1 rounds (developed modulo 4k + 1). Other counts seat as many tables of
  four as possible; a remainder of 2 plays at a table of two (``remainder="two_player"``) or
  sits out (``"sit_out"``); a remainder of 1 sits out, and a remainder of 3 sits out or plays
  at a table of two while one sits out. Sit-outs rotate: the counts of any two players differ
  by at most one after every round (and so do their rounds at the table of two when nobody
  sits out; by at most two when one does). Each round's partnerships are a maximum matching
  of the pairs who have not been partners yet (no partnership repeats while a new one could be
  formed among that round's players at tables of four); then seats are swapped while that
  seats partnerships against opponents they have met less. Rounds past a full schedule carry
  on the same way.

  ``played`` is the rounds already played (``Round`` values, at most ``rounds``) when the
  players changed during the night: ``players`` are those present for the rounds to come
  (newcomers too), and the played rounds may seat players who have left. The rounds to come
  are planned round by round as above from what was played: partnerships and oppositions
  among the players present count, and a round a player was not seated in (sitting out, or
  not there yet) counts as a sit-out, so those who sit out are those who have played least
  and matches played even out (the counts' spread never grows, and once at most one stays
  so). Planning goes on the same way: started as planned, the next round leaves the rest
  unchanged (``round_robin(ps, r, played=p)[1:]`` is ``round_robin(ps, r, played=[*p,
  round_robin(ps, r, played=p)[0]])``). Played rounds that are the first rounds of these
  players' whist tournament carry on with it, so with unchanged players passing the rounds
  played and passing ``played=()`` give the same rounds to come; the caller that knows the
  players did not change may keep passing ``played=()`` and taking the rounds it needs. When
  they did change, no whist tournament is used for the rounds to come.
- ``first_round(players, remainder="sit_out")``: the players seated in order, four a table
  from table 1, the remainder as above at the bottom (the last players).
- ``winners_move(previous_round, winners, sat_out=None, players=None, remainder="sit_out")``:
  the next round of the progressive movement.
  ``winners`` maps each table of four's number to the side that won there (``Side`` or "NS" /
  "EW"; ties already settled by the caller). The winners at each table move up one table; at
  the top table the winners stay and the losers go to the last table of four; elsewhere the
  losers stay. At every table the pair who stayed splits up with the pair who came: the stayer
  who sat N or E takes N with the first newcomer (N or E before) as partner in S, the other
  stayer takes E with the other newcomer in W, so everyone has a new partner. Players below the
  last table of four (a table of two's N and E, then those sitting out, in that order) queue:
  the first two come in to the last table of four in place of its losers (N or E first; with a
  single table of four, the losers who would come to it), who join the end of the queue; a
  table of two (when the round had one) takes the first two of the queue, the rest sit out.
  Results at a table of two move nobody. Table numbers stay; a round needs a table of four.
  Given ``sat_out`` (each player's sit-outs so far; a round a player was not there for counts
  as one, so a newcomer comes in), a player the queue would leave out again changes places
  with a seated player who has sat out less (``_rotate_sit_outs``), so that sit-outs rotate
  as in the round-robin. Given ``players`` (those present for the next round) other than the
  previous round's, the round follows them (``_follow``): a leaver's seat is taken from the
  queue, newcomers join the end of the queue, and when the count changes the layout
  (``remainder``, as in the round-robin) tables of four are added or removed at the bottom
  (a removed table's players join the queue, a new one is seated from it) and a table of two
  appears or goes; the other tables keep their numbers.
- ``moving_side(winner, below_ns=, below_ew=, tie_rule=)``: the side that moves up from a
  table, a tie settled by the director's rule ("below": more below the line; "ns": N-S).
- ``check_round(round, players)``: raises ``InvalidInput`` when a seat is empty, a player is
  seated (or sits out) twice, or a player is not one of ``players``; returns None otherwise.

Every error is an ``InvalidInput`` keyed by the field at fault: "players", "rounds",
"remainder", "played", "winners", "seats" or "sitting_out".
"""

from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress
from operator import add, itemgetter, sub
from typing import Generic, Literal, TypeVar

from .errors import InvalidInput, gettext_noop
from .notation import Seat, Side

P = TypeVar("P", bound=Hashable)
Remainder = Literal["two_player", "sit_out"]
TieRule = Literal["below", "ns"]

MIN_PLAYERS = 4
MAX_PLAYERS = 60
MAX_ROUNDS = 60

_PLAYERS_ERROR = gettext_noop("a movement is for 4 to 60 players, got %(value)s")
_TWICE_ERROR = gettext_noop("%(player)s is listed twice")
_UNKNOWN_ERROR = gettext_noop("%(player)s is not one of the players present")


@dataclass(frozen=True)
class Table(Generic[P]):
    """One table in a round: seats N, E, S, W, or N and E only at a table of two."""

    number: int
    north: P
    east: P
    south: P | None = None
    west: P | None = None

    @property
    def seats(self) -> tuple[tuple[Seat, P], ...]:
        """(seat, player) for each filled seat, in the order N, E, S, W."""
        pairs = ((Seat.N, self.north), (Seat.E, self.east), (Seat.S, self.south))
        return tuple(
            (seat, player) for seat, player in (*pairs, (Seat.W, self.west)) if player is not None
        )

    @property
    def players(self) -> tuple[P, ...]:
        return tuple(player for _, player in self.seats)

    @property
    def two_player(self) -> bool:
        """A table of two (Draw Bridge): no partnerships, N against E."""
        return self.south is None and self.west is None

    def side(self, side: Side) -> tuple[P, ...]:
        """The players of ``side``: a partnership at a table of four, one player at a two."""
        return tuple(player for seat, player in self.seats if seat.side is side)


@dataclass(frozen=True)
class Round(Generic[P]):
    """The tables of one round (each table's number is fixed in the room) and who sits out."""

    tables: tuple[Table[P], ...]
    sitting_out: tuple[P, ...] = ()

    @property
    def players(self) -> tuple[P, ...]:
        """Everyone seated, table by table."""
        return tuple(player for table in self.tables for player in table.players)


# Z-cyclic whist tournaments, checked by tests/scoring/engine/test_movements.py. Each group of
# four is a table's N, E, S, W. For 4k players a base round on Z_(4k-1) + infinity (written
# 4k - 1): in round r (from 0) element e is the director's player 1 + (e + r) modulo 4k - 1 and
# infinity is player 0, who stays at table 1. For 4k + 1 players a base round on Z_(4k+1)
# without one element (4k or 0), which sits out: element e is player (e - left out + r)
# modulo 4k + 1, so player r sits out round r. Found by searches (25, 40 and 49 with partners
# x and -x); the primes 4k + 1 come from ``_prime_base``.
_BASE_TEXT = {  # players: the base round, a table's N E S W between double spaces
    4: "3 1 0 2",
    8: "7 4 5 2  0 6 1 3",
    12: "11 8 5 7  0 4 3 9  1 2 10 6",
    16: "15 1 4 0  2 12 9 10  3 5 14 8  6 7 11 13",
    20: "19 9 0 5  1 8 4 2  3 12 15 14  6 10 17 11  7 13 16 18",
    21: "0 10 1 6  2 16 13 14  3 18 15 11  4 17 19 9  5 7 8 12",
    24: "23 20 1 14  0 9 22 7  2 19 21 5  3 4 15 12  6 17 11 10  8 13 18 16",
    25: "1 10 24 15  2 8 23 17  3 4 22 21  5 7 20 18  6 11 19 14  9 12 16 13",
    28: "27 3 21 5  10 23 11 19  6 7 17 14  15 9 2 26  0 22 24 1  18 20 13 8  25 4 16 12",
    32: (
        "31 4 27 7  0 16 10 11  1 20 3 9  2 6 24 5  8 25 23 18  12 22 29 30  13 15 19 28  "
        "14 17 26 21"
    ),
    40: (
        "39 13 0 26  1 2 38 37  3 7 36 32  4 18 35 21  5 14 34 25  6 17 33 22  8 10 31 29  "
        "9 15 30 24  11 16 28 23  12 19 27 20"
    ),
    49: (
        "1 22 48 27  2 4 47 45  3 15 46 34  5 8 44 41  6 13 43 36  7 17 42 32  9 24 40 25  "
        "10 19 39 30  11 16 38 33  12 23 37 26  14 18 35 31  20 21 29 28"
    ),
}


def _prime_base(p: int) -> tuple[int, ...] | None:
    """The base round of a whist tournament for a prime p = 4k + 1 players, else None: with a
    primitive root x and w = x^k (a fourth root of 1), the tables x^i * (1, w, -1, -w) for
    i < k. Partners differ by 2 x^i and 2 x^i w: every nonzero class once; opponents by
    x^i (1 - w) and x^i (1 + w) = x^i w (1 - w), each twice: every class twice."""
    if p % 4 != 1 or any(p % d == 0 for d in range(2, p)):
        return None
    k = (p - 1) // 4
    root = next(x for x in range(2, p) if len({pow(x, i, p) for i in range(p - 1)}) == p - 1)
    w = pow(root, k, p)
    return tuple(pow(root, i, p) * f % p for i in range(k) for f in (1, w, p - 1, p - w))


_BASES = {count: tuple(map(int, text.split())) for count, text in _BASE_TEXT.items()}
_BASES.update(
    (count, base) for count in range(5, MAX_PLAYERS + 1, 4) if (base := _prime_base(count))
)


def _shown(player: Hashable) -> str | int:
    """A player key as a message parameter (display-ready: text or a whole number)."""
    if type(player) is int or type(player) is str:
        return player
    return str(player)


def _check_players(players: Iterable[P]) -> list[P]:
    listed = list(players)
    if not MIN_PLAYERS <= len(listed) <= MAX_PLAYERS:
        raise InvalidInput("players", _PLAYERS_ERROR, value=len(listed))
    seen: set[P] = set()
    for player in listed:
        if player in seen:
            raise InvalidInput("players", _TWICE_ERROR, player=_shown(player))
        seen.add(player)
    return listed


def _check_remainder(remainder: str) -> Remainder:
    if remainder == "two_player":
        return "two_player"
    if remainder == "sit_out":
        return "sit_out"
    raise InvalidInput(
        "remainder",
        gettext_noop("remainder must be two_player or sit_out, got %(value)s"),
        value=repr(remainder),
    )


def _layout(count: int, remainder: Remainder) -> tuple[int, int, int]:
    """(tables of four, players at a table of two, players sitting out) for ``count``."""
    fours, extra = divmod(count, 4)
    two = 2 if extra >= 2 and remainder == "two_player" else 0
    return fours, two, extra - two


def _seat(number: int, four: Sequence[P]) -> Table[P]:
    if len(four) == 2:
        return Table(number, four[0], four[1])
    return Table(number, four[0], four[1], four[2], four[3])


def check_round(round: Round[P], players: Iterable[P]) -> None:
    """Raise ``InvalidInput`` if a seat of ``round`` is empty, a player is there twice, or a
    player is not one of ``players``."""
    present = set(players)
    seen: set[P] = set()

    def check(player: P, field: str) -> None:
        if player in seen:
            raise InvalidInput(field, _TWICE_ERROR, player=_shown(player))
        if player not in present:
            raise InvalidInput(field, _UNKNOWN_ERROR, player=_shown(player))
        seen.add(player)

    for table in round.tables:
        filled = {seat for seat, _ in table.seats}
        wanted = {Seat.N, Seat.E} if table.two_player else set(Seat)
        for seat in Seat:
            if seat in wanted and seat not in filled:
                raise InvalidInput(
                    "seats",
                    gettext_noop("table %(table)s has no player in seat %(seat)s"),
                    table=table.number,
                    seat=seat.value,
                )
        for _, player in table.seats:
            check(player, "seats")
    for player in round.sitting_out:
        check(player, "sitting_out")


# Round-robin partners


def round_robin(
    players: Iterable[P],
    rounds: int,
    remainder: Remainder = "sit_out",
    played: Sequence[Round[P]] = (),
) -> tuple[Round[P], ...]:
    """Rounds ``len(played) + 1`` to ``rounds`` of the individual movement for ``players``,
    those present for the rounds to come, after the rounds ``played`` (module doc)."""
    listed = _check_players(players)
    if type(rounds) is not int or not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidInput(
            "rounds",
            gettext_noop("rounds must be 1 to %(most)s, got %(value)s"),
            most=MAX_ROUNDS,
            value=repr(rounds),
        )
    fours, two, out = _layout(len(listed), _check_remainder(remainder))
    done = _check_played(played, rounds)
    plan = _whist(listed, rounds) if two == 0 and out <= 1 else []
    if done and not _same_rounds(done[: len(plan)], plan[: len(done)]):
        plan = []  # the night left the whist tournament: carry on from what was played
    index = {player: i for i, player in enumerate(listed)}
    history = _History(len(listed))
    for round in done:
        history.add(round, index)
    plan = plan[len(done) :]
    for round in plan:
        history.add(round, index)
    while len(done) + len(plan) < rounds:
        plan.append(_next_round(listed, history, fours, two, out))
        history.add(plan[-1], index)
    return tuple(plan)


def _check_played(played: Sequence[Round[P]], rounds: int) -> list[Round[P]]:
    """The rounds played, each a ``Round`` with every seat filled and nobody in it twice."""
    if not isinstance(played, Sequence) or isinstance(played, str | bytes):
        raise InvalidInput(
            "played",
            gettext_noop("played must be a list of rounds, got %(value)s"),
            value=type(played).__name__,
        )
    done = list(played)
    for number, round in enumerate(done, 1):
        if not isinstance(round, Round):
            raise InvalidInput(
                "played",
                gettext_noop("round %(round)s played is not a round of a movement"),
                round=number,
            )
        try:
            check_round(round, (*round.players, *round.sitting_out))
        except InvalidInput as error:
            raise InvalidInput("played", error.template, **error.params) from None
    if len(done) > rounds:
        raise InvalidInput(
            "played",
            gettext_noop("more rounds played (%(count)s) than the night has (%(rounds)s)"),
            count=len(done),
            rounds=rounds,
        )
    return done


def _same_rounds(these: Sequence[Round[P]], those: Sequence[Round[P]]) -> bool:
    """The same tables, seat by seat, and the same players sitting out (in any order)."""
    return len(these) == len(those) and all(
        a.tables == b.tables and set(a.sitting_out) == set(b.sitting_out)
        for a, b in zip(these, those, strict=True)
    )


def _whist(players: list[P], rounds: int) -> list[Round[P]]:
    """The first ``rounds`` rounds of the Z-cyclic whist tournament, if there is one."""
    count = len(players)
    base = _BASES.get(count)
    if base is None:
        return []
    if count % 4 == 0:
        modulus = count - 1

        def player(element: int, r: int) -> P:
            return players[0 if element == modulus else 1 + (element + r) % modulus]

    else:
        modulus = count
        (left_out,) = set(range(modulus)) - set(base)

        def player(element: int, r: int) -> P:
            return players[(element - left_out + r) % modulus]

    plan = []
    for r in range(min(rounds, modulus)):
        seated = [player(element, r) for element in base]
        tables = tuple(_seat(t // 4 + 1, seated[t : t + 4]) for t in range(0, len(seated), 4))
        plan.append(Round(tables, tuple(p for p in players if p not in seated)))
    return plan


class _History:
    """How often each two players (by index) have partnered and opposed, and each player's
    sit-outs and rounds at a table of two. A player not seated in a round sat it out: sitting
    out, or not yet arrived; players who are not in ``index`` (those who left) are not kept."""

    def __init__(self, count: int) -> None:
        self.partners = [[0] * count for _ in range(count)]
        # What a partnership adds to a table's cost (``_improve``): a million once played,
        # and a thousand for every time.
        self.weight = [[0] * count for _ in range(count)]
        # 1 for two players who have never partnered (the matching's graph), else 0.
        self.never = [[int(a != b) for b in range(count)] for a in range(count)]
        self.opponents = [[0] * count for _ in range(count)]
        self.out = [0] * count
        self.two = [0] * count

    def add(self, round: Round[P], index: Mapping[P, int]) -> None:
        seated = [False] * len(self.out)
        partners, weight, opponents = self.partners, self.weight, self.opponents
        for table in round.tables:
            n, e, s, w = (
                index.get(p) if p is not None else None
                for p in (table.north, table.east, table.south, table.west)
            )
            ns = [i for i in (n, s) if i is not None]
            ew = [i for i in (e, w) if i is not None]
            for i in (*ns, *ew):
                seated[i] = True
            if table.two_player:
                for i in (*ns, *ew):
                    self.two[i] += 1
            else:
                for side in (ns, ew):
                    if len(side) == 2:
                        a, b = side
                        times = partners[a][b] + 1
                        partners[a][b] = partners[b][a] = times
                        weight[a][b] = weight[b][a] = 1_000_000 + 1_000 * times
                        self.never[a][b] = self.never[b][a] = 0
            for a in ns:
                for b in ew:
                    opponents[a][b] += 1
                    opponents[b][a] += 1
        for i, there in enumerate(seated):
            if not there:
                self.out[i] += 1


def _fewest(candidates: list[int], counts: list[int], take: int) -> list[int]:
    """The ``take`` candidates with the lowest counts (ties: the director's order)."""
    return sorted(sorted(candidates, key=lambda i: counts[i])[:take])


def _table_of_two(candidates: list[int], history: _History) -> list[int]:
    """The two who have played at the table of two least; of those tied for the second place,
    the one who has opposed the first least."""
    first = _fewest(candidates, history.two, 1)[0]
    rest = [i for i in candidates if i != first]
    fewest = min(history.two[i] for i in rest)
    second = min(
        (i for i in rest if history.two[i] == fewest), key=lambda i: history.opponents[first][i]
    )
    return sorted((first, second))


def _next_round(players: list[P], history: _History, fours: int, two: int, out: int) -> Round[P]:
    everyone = list(range(len(players)))
    sitting = _fewest(everyone, history.out, out)
    rest = [i for i in everyone if i not in sitting]
    at_two = _table_of_two(rest, history) if two else []
    seated = [i for i in rest if i not in at_two]
    pairs = _partnerships(seated, history.partners, history.never)
    flat = [p for ns, ew in _tables(pairs, history.opponents) for p in (ns[0], ew[0], ns[1], ew[1])]
    _improve(flat, history)
    tables = [
        _seat(t // 4 + 1, [players[i] for i in flat[t : t + 4]]) for t in range(0, len(flat), 4)
    ]
    if at_two:
        tables.append(Table(fours + 1, players[at_two[0]], players[at_two[1]]))
    return Round(tuple(tables), tuple(players[i] for i in sitting))


def _partnerships(
    seated: list[int], partners: list[list[int]], never: list[list[int]]
) -> list[tuple[int, int]]:
    """Pairs of ``seated``: as many as possible who have not partnered yet (a maximum
    matching), the rest paired by fewest partnerships (``never``: 1 for two players who have
    not partnered, 0 for those who have and for a player and themself)."""
    places = range(len(seated))
    adjacent = [list(compress(places, map(never[p].__getitem__, seated))) for p in seated]
    match = _maximum_matching(adjacent)
    pairs = [(seated[i], seated[j]) for i, j in enumerate(match) if i < j]
    left = [seated[i] for i, j in enumerate(match) if j == -1]
    while left:
        first = left.pop(0)
        other = min(left, key=lambda p: partners[first][p])
        left.remove(other)
        pairs.append((first, other))
    return sorted(pairs)


def _maximum_matching(adjacent: list[list[int]]) -> list[int]:
    """A maximum matching of a graph (Edmonds' blossoms): ``match[v]`` or -1. Starts from a
    greedy matching that takes the vertex with the fewest neighbours first, and matches it to
    its free neighbour with the fewest (ties: the lowest numbers; each ``adjacent[v]`` is in
    ascending order)."""
    size = len(adjacent)
    match = [-1] * size
    degree = list(map(len, adjacent))
    unmatched = [1] * size
    for v in sorted(range(size), key=degree.__getitem__):  # stable: ties in ascending order
        if unmatched[v]:
            free = list(compress(adjacent[v], map(unmatched.__getitem__, adjacent[v])))
            if free:
                u = min(free, key=degree.__getitem__)
                match[v], match[u] = u, v
                unmatched[v] = unmatched[u] = 0
    for root in range(size):
        if match[root] == -1:
            _augment(adjacent, match, root)
    return match


def _augment(adjacent: list[list[int]], match: list[int], root: int) -> None:
    """Find an augmenting path from the free vertex ``root`` and flip it, if there is one."""
    size = len(adjacent)
    parent = [-1] * size
    base = list(range(size))
    used = [False] * size
    used[root] = True
    queue = [root]

    def common_base(a: int, b: int) -> int:
        seen = [False] * size
        while True:
            a = base[a]
            seen[a] = True
            if match[a] == -1:
                break
            a = parent[match[a]]
        while True:
            b = base[b]
            if seen[b]:
                return b
            b = parent[match[b]]

    def mark(v: int, top: int, child: int, blossom: list[bool]) -> None:
        while base[v] != top:
            blossom[base[v]] = blossom[base[match[v]]] = True
            parent[v] = child
            child = match[v]
            v = parent[match[v]]

    head = 0
    while head < len(queue):
        v = queue[head]
        head += 1
        for to in adjacent[v]:
            if base[v] == base[to] or match[v] == to:
                continue
            if to == root or (match[to] != -1 and parent[match[to]] != -1):
                top = common_base(v, to)
                blossom = [False] * size
                mark(v, top, to, blossom)
                mark(to, top, v, blossom)
                for i in range(size):
                    if blossom[base[i]]:
                        base[i] = top
                        if not used[i]:
                            used[i] = True
                            queue.append(i)
            elif parent[to] == -1:
                parent[to] = v
                if match[to] == -1:
                    while to != -1:
                        previous = match[parent[to]]
                        match[to], match[parent[to]] = parent[to], to
                        to = previous
                    return
                used[match[to]] = True
                queue.append(match[to])


def _tables(
    pairs: list[tuple[int, int]], opponents: list[list[int]]
) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Partnerships set against each other so that they meet the opponents they met least:
    greedily, then improved by swapping partnerships between tables while that helps. The cost
    of setting two partnerships against each other is worked out once for every two."""
    firsts, seconds = [a for a, _ in pairs], [b for _, b in pairs]
    cost = []
    for a, b in pairs:
        against = list(map(add, opponents[a], opponents[b])).__getitem__
        cost.append(list(map(add, map(against, firsts), map(against, seconds))))
    left = list(range(len(pairs)))
    tables = []
    while left:
        first = left.pop(0)
        other = min(left, key=cost[first].__getitem__)
        left.remove(other)
        tables.append((first, other))
    improved = True
    while improved:
        improved = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                (a, b), (c, d) = tables[i], tables[j]
                now = cost[a][b] + cost[c][d]
                if cost[a][c] + cost[b][d] < now:
                    tables[i], tables[j] = (a, c), (b, d)
                    improved = True
                elif cost[a][d] + cost[c][b] < now:
                    tables[i], tables[j] = (a, d), (c, b)
                    improved = True
    return [(pairs[a], pairs[b]) for a, b in tables]


def _improve(flat: list[int], history: _History, passes: int = 3) -> None:
    """Swap players between seats (N, E, S, W four a table) while that lowers the round's cost:
    first the partnerships played before, then the times partnered, then the times opposed.
    A swap never adds a repeated partnership, so the matching's new partnerships stay.

    The swaps are tried in order (each seat with every later one, a pass at a time) and a swap
    is made when it lowers the cost of the two tables it touches. A table's cost is a sum over
    its seats, so the cost of putting player p in seat i is a row (``rows[i][p]``: p with the
    partner and the opponents of seat i), and a swap between two tables lowers their cost when
    ``rows[i][y] + rows[j][x] < rows[i][x] + rows[j][y]``: each seat's row is worked out when
    its table changes, and each seat's swaps with the later tables are weighed at once."""
    weight, opponents = history.weight, history.opponents
    size = len(flat)
    rows: list[list[int]] = [[]] * size
    own = [0] * size  # rows[i][flat[i]]

    def cost(t: int) -> int:
        n, e, s, w = flat[t : t + 4]
        above, below = opponents[n], opponents[s]
        return weight[n][s] + weight[e][w] + above[e] + above[w] + below[e] + below[w]

    def seat_rows(t: int) -> None:
        n, e, s, w = flat[t : t + 4]
        versus_ns = list(map(add, opponents[n], opponents[s]))
        versus_ew = list(map(add, opponents[e], opponents[w]))
        rows[t] = list(map(add, weight[s], versus_ew))
        rows[t + 1] = list(map(add, weight[w], versus_ns))
        rows[t + 2] = list(map(add, weight[n], versus_ew))
        rows[t + 3] = list(map(add, weight[e], versus_ns))
        for k in range(t, t + 4):
            own[k] = rows[k][flat[k]]

    def first_gain(i: int, seats: Sequence[int]) -> int | None:
        """The first of ``seats`` (at later tables) whose player swapped with seat i's lowers
        the cost of the two tables, if one does."""
        if not seats:
            return None
        x, row, threshold = flat[i], rows[i], own[i]
        if isinstance(seats, range):  # the seats to the end: slices
            players, their, kept = flat[seats[0] :], rows[seats[0] :], own[seats[0] :]
        else:
            players = list(map(flat.__getitem__, seats))
            their = list(map(rows.__getitem__, seats))
            kept = list(map(own.__getitem__, seats))
        # Each seat's row is never negative: the swap cannot lower the cost unless seat i's
        # row for the later seat's player, less that seat's own cost, is under seat i's own.
        alone = list(map(sub, map(row.__getitem__, players), kept))
        if min(alone) >= threshold:
            return None
        gains = list(map(add, alone, map(itemgetter(x), their)))
        if min(gains) >= threshold:
            return None
        return seats[next(k for k, gain in enumerate(gains) if gain < threshold)]

    # A swap already weighed and refused is refused again while neither table changes: the
    # clock counts the swaps made, ``changed`` is when each table last changed and
    # ``weighed[i]`` when seat i was last weighed against every later seat without a swap.
    clock = 0
    changed = [0] * (size // 4)
    weighed = [-1] * size
    for t in range(0, size, 4):
        seat_rows(t)
    for _ in range(passes):
        improved = False
        for i in range(size):
            t = i - i % 4
            since = weighed[i]
            weighed[i] = -1
            if since >= changed[t // 4]:  # seat i's table as it was: only the later ones
                later = range(t // 4 + 1, size // 4)
                seats = [4 * u + k for u in later if changed[u] > since for k in range(4)]
                j = first_gain(i, seats)
                if j is None:
                    weighed[i] = clock
                    continue
            else:
                swapped = False
                for j in range(i + 1, t + 4):  # seats at the same table, not the partner's
                    if (j - i) % 2 == 0:
                        continue
                    before = cost(t)
                    flat[i], flat[j] = flat[j], flat[i]
                    if cost(t) < before:
                        improved = swapped = True
                        clock += 1
                        changed[t // 4] = clock
                        seat_rows(t)
                    else:
                        flat[i], flat[j] = flat[j], flat[i]
                j = first_gain(i, range(t + 4, size))
                if j is None:
                    if not swapped:
                        weighed[i] = clock
                    continue
            while j is not None:
                flat[i], flat[j] = flat[j], flat[i]
                improved = True
                clock += 1
                changed[t // 4] = changed[j // 4] = clock
                seat_rows(t)
                seat_rows(j - j % 4)
                j = first_gain(i, range(j + 1, size))
        if not improved:
            return


# Winners move (progressive)


def first_round(players: Iterable[P], remainder: Remainder = "sit_out") -> Round[P]:
    """The players seated in order: four a table from table 1, the remainder at the bottom."""
    listed = _check_players(players)
    fours, two, _ = _layout(len(listed), _check_remainder(remainder))
    tables = [_seat(t + 1, listed[4 * t : 4 * t + 4]) for t in range(fours)]
    if two:
        tables.append(_seat(fours + 1, listed[4 * fours : 4 * fours + 2]))
    return Round(tuple(tables), tuple(listed[4 * fours + two :]))


def _winner(table: Table[P], winners: Mapping[int, Side | str]) -> Side:
    value = winners.get(table.number)
    if value in ("NS", "EW"):
        return Side(str(value))
    raise InvalidInput(
        "winners",
        gettext_noop("winners must give NS or EW for table %(table)s, got %(value)s"),
        table=table.number,
        value=repr(value),
    )


def moving_side(winner: str, *, below_ns: int, below_ew: int, tie_rule: TieRule = "below") -> Side:
    """The side that won a table of four for the progressive movement: ``winner`` ("NS" or
    "EW"); on a tie, or with no winner (an abandoned match), the director's rule settles it:
    "below" gives it to the side that scored more below the line, and "ns" (or equal scores
    below the line) to North-South."""
    if winner in ("NS", "EW"):
        return Side(winner)
    if tie_rule not in ("below", "ns"):
        raise InvalidInput(
            "tie_rule", gettext_noop("a tie rule is below or ns, got %(value)s"), value=tie_rule
        )
    if tie_rule == "below" and below_ew > below_ns:
        return Side.EW
    return Side.NS


def winners_move(
    previous_round: Round[P],
    winners: Mapping[int, Side | str],
    sat_out: Mapping[P, int] | None = None,
    players: Iterable[P] | None = None,
    remainder: Remainder = "sit_out",
) -> Round[P]:
    """The round after ``previous_round`` in the progressive movement (module doc); with
    ``sat_out`` (how many rounds each player has sat out so far, a round a player was not
    present for counting as one), sit-outs rotate (``_rotate_sit_outs``); with ``players``
    (those present for the next round) other than the previous round's, the round follows
    them (``_follow``), its tables laid out for ``remainder``."""
    seated = previous_round.players
    check_round(previous_round, (*seated, *previous_round.sitting_out))
    fours = sorted((t for t in previous_round.tables if not t.two_player), key=lambda t: t.number)
    twos = [t for t in previous_round.tables if t.two_player]
    if not fours:
        raise InvalidInput("players", _PLAYERS_ERROR, value=len(seated))
    won = [_winner(table, winners) for table in fours]
    # (who stays, who comes) at each table of four, top first.
    stay = [table.side(side.other) for table, side in zip(fours, won, strict=True)]
    stay[0] = fours[0].side(won[0])
    come = [fours[i + 1].side(won[i + 1]) for i in range(len(fours) - 1)]
    come.append(fours[0].side(won[0].other))
    partnerships = [table.side(side) for table in fours for side in Side]
    queue = [p for table in twos for p in table.players] + list(previous_round.sitting_out)
    coming_in, queue = queue[:2], queue[2:]
    # The losers at the last table (with one table of four, the losers who "go to" it) leave.
    losers = come if len(fours) == 1 else stay
    queue += losers[-1][: len(coming_in)]
    losers[-1] = (*coming_in, *losers[-1][len(coming_in) :])
    moved = [
        (table.number, [stayers[0], stayers[1], newcomers[0], newcomers[1]])
        for table, stayers, newcomers in zip(fours, stay, come, strict=True)
    ]
    listed = None if players is None else _check_players(players)
    if listed is not None and set(listed) != {*seated, *previous_round.sitting_out}:
        before = {a: b for pair in partnerships for a, b in (pair, pair[::-1])}
        after = _follow(moved, before, twos, queue, listed, _check_remainder(remainder))
    else:
        tables = [Table(number, *four) for number, four in moved]
        for table in twos:
            tables.append(Table(table.number, queue[0], queue[1]))
            queue = queue[2:]
        after = Round(tuple(tables), tuple(queue))
    return after if sat_out is None else _rotate_sit_outs(after, sat_out)


def _follow(
    moved: list[tuple[int, list[P]]],
    before: Mapping[P, P],
    twos: list[Table[P]],
    queue: list[P],
    players: list[P],
    remainder: Remainder,
) -> Round[P]:
    """The moved tables of four (number, N E S W) and the queue below them, for ``players``:
    those who left leave their seats and the queue, newcomers join the end of the queue (in
    the director's order); the layout is ``players``' (``_layout``): tables of four beyond it
    are removed from the bottom (their players join the end of the queue), a seat left empty
    is taken by the first of the queue (tables from the top, seats N, E, S, W), and so are the
    seats of a new table of four at the bottom, then a table of two by the next two, and the
    rest sit out; but a seat goes to the first of the queue who was not its partner's partner
    in the previous round (``before``), when there is one, so that partners change. Table
    numbers stay; a new table of four takes the number after the last, a table of two the
    number after the tables of four (its own, when they stay)."""
    present = set(players)
    known = {p for _, four in moved for p in four} | set(queue)
    known |= {p for table in twos for p in table.players}
    fours, two, _ = _layout(len(players), remainder)
    kept = [(number, [p if p in present else None for p in four]) for number, four in moved]
    queue = [p for p in queue if p in present] + [p for p in players if p not in known]
    while len(kept) > fours:
        queue += [p for p in kept.pop()[1] if p is not None]
    while len(kept) < fours:
        kept.append((kept[-1][0] + 1, [None] * 4))
    seated = []
    for number, four in kept:
        for k in range(4):
            if four[k] is None:
                partner = four[k ^ 2]  # N and S, E and W
                first = next((p for p in queue if before.get(p, p) != partner), queue[0])
                queue.remove(first)
                four[k] = first
        seated.append(_seat(number, [p for p in four if p is not None]))
    if two:
        same = twos and len(moved) == fours
        number = twos[0].number if same else kept[-1][0] + 1
        seated.append(Table(number, queue[0], queue[1]))
        queue = queue[2:]
    return Round(tuple(seated), tuple(queue))


def _rotate_sit_outs(round: Round[P], sat_out: Mapping[P, int]) -> Round[P]:
    """``round`` with each player sitting out who has sat out more often than someone seated
    at a table of four swapped into that player's seat: the one who has sat out least, looked
    for from the last table of four up (the losers' end), seats N, E, S, W in turn. So those
    who sit out have sat out no more than anyone seated, and the counts of any two players
    differ by at most one after every round (when they did before it)."""
    tables = {table.number: list(table.seats) for table in round.tables}
    bottom_up = sorted((t.number for t in round.tables if not t.two_player), reverse=True)
    out = list(round.sitting_out)
    for i, player in enumerate(out):
        seats = [(number, k) for number in bottom_up for k in range(4)]
        number, k = min(seats, key=lambda place: sat_out.get(tables[place[0]][place[1]][1], 0))
        seat, seated = tables[number][k]
        if sat_out.get(seated, 0) < sat_out.get(player, 0):
            tables[number][k], out[i] = (seat, player), seated
    return Round(
        tuple(Table(number, *(p for _, p in seats)) for number, seats in tables.items()),
        tuple(out),
    )
