"""The night's results (docs/nights.md, "Who wins the night" and "Players who play different
numbers of matches"): each player's net over the complete matches of a club night, ranked by
one of three rules. Pure: it ranks the lines it is given.

- ``"total"`` (``RANK_TOTAL``): the net total; equal totals share a place (1, 2, 2, 4), best
  net first and then by name. Fair only when everyone played the same number of matches.
- ``"average"`` (``RANK_AVERAGE``): the net per complete match played, compared exactly (a
  ``Fraction``: no two averages tie that are not equal). A player with fewer than
  ``min_matches`` complete matches, and always a player with none, is listed after the ranked
  players, unranked (``rank`` None): most matches first, then best net, then name.
- ``"sit_out_average"`` (``RANK_SIT_OUT_AVERAGE``): a round not played scored as the player's
  own average, ``net / played * rounds`` over the night's ``rounds`` so far; it orders exactly
  as the average does (the same factor for everyone) but reads like a total. The same
  ``min_matches`` rule applies.

Each rule ranks by one of two measures: net points (``BY_NET``, the default) or, at a club that
scores against par, the IMPs of the par reading (``BY_PAR``: docs/rules.md, "Par scoring"), a
match without a par reading counting 0 IMPs. Each line's ``score`` is the value it is ranked
by (for ``"total"`` the measure's total itself)."""

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from .errors import InvalidInput, gettext_noop
from .ranks import shared_ranks

RANK_TOTAL = "total"
RANK_AVERAGE = "average"
RANK_SIT_OUT_AVERAGE = "sit_out_average"
NIGHT_RANKINGS = (RANK_TOTAL, RANK_AVERAGE, RANK_SIT_OUT_AVERAGE)
BY_NET = "net"
BY_PAR = "par"
NIGHT_MEASURES = (BY_NET, BY_PAR)

_RANKING_ERROR = gettext_noop("ranking must be one of %(allowed)s, got %(value)s")
_BY_ERROR = gettext_noop("by must be one of %(allowed)s, got %(value)s")
_MIN_MATCHES_ERROR = gettext_noop("min_matches must be a whole number from 0, got %(value)s")
_ROUNDS_ERROR = gettext_noop(
    "rounds must be a whole number, at least each player's matches (%(most)s), got %(value)s"
)


@dataclass(frozen=True)
class NightMatch:
    """One player's part in one match of the night: their side's net (their total minus the
    other side's), whether the match is complete (an unfinished one counts for nothing), the
    round it was played in (None outside a night's rounds) and their side's IMPs of the
    match's par reading (None without one)."""

    player_id: int
    name: str
    net: int
    complete: bool
    round: int | None = None
    imps: int | None = None


@dataclass(frozen=True)
class NightLine:
    """A player's night: place (shared on equal scores; None when unranked), net over the
    complete matches, how many complete matches, their best single net (None before a
    complete one) and the round of it (the first such round; None outside rounds),
    unfinished, ``score``, the exact value the rule ranks by (the measure's total for a
    total), and ``imps``, the par IMPs over the complete matches."""

    rank: int | None
    player_id: int
    name: str
    net: int
    matches: int
    best: int | None
    open: int
    best_round: int | None = None
    score: Fraction = Fraction(0)
    imps: int = 0

    @property
    def ranked(self) -> bool:
        """Whether the rule ranked this player (False: listed after the ranked, unranked)."""
        return self.rank is not None


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def rank_night(
    parts: Iterable[NightMatch],
    present: Iterable[tuple[int, str]] = (),
    *,
    ranking: str = RANK_TOTAL,
    by: str = BY_NET,
    min_matches: int = 0,
    rounds: int | None = None,
) -> list[NightLine]:
    """The night's lines: the ranked ones by rank then name (then player, for two of one
    name), then the unranked ones (see the module). Each player ``present`` (id, name) has a
    line even before their first match: nothing played, net 0. ``rounds`` (the night's rounds
    so far) is needed by ``"sit_out_average"`` only; ``min_matches`` applies to the averages
    only; ``by`` is the measure (net points or par IMPs). Raises ``InvalidInput`` naming
    ``ranking``, ``by``, ``min_matches`` or ``rounds``."""
    if ranking not in NIGHT_RANKINGS:
        raise InvalidInput(
            "ranking", _RANKING_ERROR, allowed=", ".join(NIGHT_RANKINGS), value=repr(ranking)
        )
    if by not in NIGHT_MEASURES:
        raise InvalidInput("by", _BY_ERROR, allowed=", ".join(NIGHT_MEASURES), value=repr(by))
    if not _whole(min_matches):
        raise InvalidInput("min_matches", _MIN_MATCHES_ERROR, value=repr(min_matches))
    totals: dict[int, list[int]] = {}  # net, complete matches, unfinished, IMPs
    names: dict[int, str] = {}
    bests: dict[int, int | None] = {}
    best_rounds: dict[int, int | None] = {}
    for pk, name in present:
        names[pk], totals[pk], bests[pk] = name, [0, 0, 0, 0], None
    for part in parts:
        names.setdefault(part.player_id, part.name)
        line = totals.setdefault(part.player_id, [0, 0, 0, 0])
        bests.setdefault(part.player_id, None)
        if not part.complete:
            line[2] += 1
            continue
        line[0] += part.net
        line[1] += 1
        line[3] += part.imps or 0
        best, best_round = bests[part.player_id], best_rounds.get(part.player_id)
        earlier = part.round is not None and (best_round is None or part.round < best_round)
        if best is None or part.net > best or (part.net == best and earlier):
            bests[part.player_id] = part.net
            best_rounds[part.player_id] = part.round
    scale = 1  # the average's factor: the night's rounds for a sit-out scored as an average
    if ranking == RANK_SIT_OUT_AVERAGE:
        most = max((line[1] for line in totals.values()), default=0)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or rounds < most:
            raise InvalidInput("rounds", _ROUNDS_ERROR, most=most, value=repr(rounds))
        scale = rounds

    measure = 3 if by == BY_PAR else 0  # the index of the measure's total in a line

    def score(pk: int) -> Fraction:
        value, matches = totals[pk][measure], totals[pk][1]
        if ranking == RANK_TOTAL:
            return Fraction(value)
        return Fraction(value * scale, matches) if matches else Fraction(0)

    scores = {pk: score(pk) for pk in totals}
    least = 0 if ranking == RANK_TOTAL else max(min_matches, 1)
    ranked = [pk for pk in totals if totals[pk][1] >= least]
    unranked = [pk for pk in totals if totals[pk][1] < least]
    ranked.sort(key=lambda pk: (-scores[pk], names[pk], pk))
    unranked.sort(key=lambda pk: (-totals[pk][1], -totals[pk][measure], names[pk], pk))
    places: list[int | None] = [*shared_ranks([scores[pk] for pk in ranked])]
    places += [None] * len(unranked)
    lines: list[NightLine] = []
    for rank, pk in zip(places, ranked + unranked, strict=True):
        net, matches, unfinished, imps = totals[pk]
        lines.append(
            NightLine(
                rank,
                pk,
                names[pk],
                net,
                matches,
                bests[pk],
                unfinished,
                best_rounds.get(pk),
                scores[pk],
                imps,
            )
        )
    return lines
