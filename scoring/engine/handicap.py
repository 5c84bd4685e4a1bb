"""Handicaps from the rating (docs/rules.md, "Handicaps"): what a club night takes from a
strong player's net, and gives a weak one, for each match, so that skill counts less than at
scratch. Pure: a rating in, a whole number of points out.

The season's rating is an Elo rating from ``RATING_START`` (``scoring.ladder``): a side rated
``d`` above the other is expected to score ``E = 1 / (1 + 10 ** (-d / RATING_SCALE))`` of a
match (1 a win, 0.5 a draw). A player's **expected net per match** is what that expectation is
worth in points against an average field: partnered by an average player (the side's rating
is the mean of the two, so ``d`` is half the player's distance from the average) against an
average side, a certain win being worth ``HANDICAP_MARGIN`` points::

    E        = 1 / (1 + 10 ** (-(rating - RATING_START) / (2 * RATING_SCALE)))
    expected = HANDICAP_MARGIN * (2 * E - 1)

The **handicap per match** is ``strength`` percent of it (100, 50, ...), rounded half away
from zero to a whole point, and capped at ``cap`` points either way. A player's handicapped
net is their net minus the handicap of each complete match they played: a player whose
results are what their rating expects ends level with every other such player.
"""

from .errors import InvalidInput, gettext_noop

RATING_START = 1500.0
"""Every player's rating at the start of a season: the average player's."""
RATING_SCALE = 400.0
"""A side rated this much higher is expected to score 10 times as much as the other."""
HANDICAP_MARGIN = 1000
"""The net points of a match a side is certain to win: a game and a partscore or so, in a
Chicago of four deals."""
HANDICAP_CAP_MAX = 1000
"""The largest cap a club may set (the margin itself: no handicap is larger)."""

_STRENGTH_ERROR = gettext_noop("strength must be a whole percentage from 0 to 100, got %(value)s")
_CAP_ERROR = gettext_noop("cap must be a whole number of points from 0 to %(high)s, got %(value)s")


def expected_net(rating: float) -> float:
    """The net per match the rating expects of a player with an average partner against an
    average side (positive above ``RATING_START``, negative below, 0 at it)."""
    power: float = 10.0 ** (-(rating - RATING_START) / (2.0 * RATING_SCALE))
    expected = 1.0 / (1.0 + power)
    return HANDICAP_MARGIN * (2.0 * expected - 1.0)


def _whole(value: object, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def handicap_of(rating: float, *, strength: int, cap: int) -> int:
    """The handicap per match of a player rated ``rating``: ``strength`` percent of their
    expected net, rounded half away from zero, at most ``cap`` points either way. Raises
    ``InvalidInput`` naming ``strength`` or ``cap``."""
    if not _whole(strength, 0, 100):
        raise InvalidInput("strength", _STRENGTH_ERROR, value=repr(strength))
    if not _whole(cap, 0, HANDICAP_CAP_MAX):
        raise InvalidInput("cap", _CAP_ERROR, high=HANDICAP_CAP_MAX, value=repr(cap))
    value = expected_net(rating) * strength / 100
    whole = int(abs(value) + 0.5)
    return min(whole, cap) if value >= 0 else -min(whole, cap)
