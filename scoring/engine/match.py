"""One entry point for every kind of match. Replay is deterministic: a match is always scored
from its full list of results, so correcting deal k and scoring again gives exactly what a
correct entry would have given."""

from collections.abc import Sequence

from .chicago import check_players, score_chicago
from .errors import InvalidInput, MatchComplete, gettext_noop
from .notation import DealResult, Played, Seat
from .rubber import score_rubber
from .rules import DEFAULT_RULES, Rules
from .sheet import Kind, Sheet


def parse_kind(value: Kind | str) -> Kind:
    """chicago, rubber or two_player (any case; "two-player" too)."""
    if isinstance(value, Kind):
        return value
    try:
        return Kind(str(value).strip().lower().replace("-", "_"))
    except ValueError:
        raise InvalidInput(
            "kind",
            gettext_noop("kind must be one of chicago, rubber, two_player, got %(value)s"),
            value=repr(value),
        ) from None


def score_match(
    kind: Kind | str,
    results: Sequence[DealResult],
    *,
    first_dealer: Seat | str,
    rules: Rules = DEFAULT_RULES,
    finished: bool = False,
    players: int | None = None,
) -> Sheet:
    """Score a match of any kind from all its results so far.

    ``two_player`` is a rubber with one player a side (seats N and E). ``rules`` are the
    club's scoring options (``Rules``), passed to every kind's scoring. ``finished`` ends an
    unfinished rubber early (a Chicago match cannot be finished early). ``players``, when
    given, must agree with the kind: 4 for chicago and rubber, 2 for two_player.
    """
    kind = parse_kind(kind)
    expected = kind.seats
    if kind is Kind.CHICAGO and players is not None:
        check_players(players)
    if players is not None and players != expected:
        # Not Chicago: check_players has refused any table but four.
        if kind is Kind.TWO_PLAYER:
            template = gettext_noop("a two_player match is played by 2 players, got %(value)s")
        elif players == 2:
            template = gettext_noop(
                "a rubber match is played by 4 players, got %(value)s "
                "(a table of two plays two_player)"
            )
        else:
            template = gettext_noop("a rubber match is played by 4 players, got %(value)s")
        raise InvalidInput("kind", template, value=repr(players))
    if kind is Kind.CHICAGO:
        if finished:
            raise InvalidInput(
                "kind",
                gettext_noop(
                    "only a rubber can be finished early; a Chicago match is always four deals"
                ),
            )
        return score_chicago(results, first_dealer=first_dealer, rules=rules)
    return score_rubber(
        results, first_dealer=first_dealer, rules=rules, players=expected, finished=finished
    )


def check_next(
    kind: Kind | str,
    results: Sequence[DealResult],
    new: DealResult,
    *,
    first_dealer: Seat | str,
    rules: Rules = DEFAULT_RULES,
    finished: bool = False,
    players: int | None = None,
) -> Sheet:
    """The sheet with ``new`` added after ``results``. Raises ``MatchComplete`` if the match
    accepts no further deal, also when a rubber was already ``finished`` early."""
    if finished:
        sheet = score_match(
            kind,
            results,
            first_dealer=first_dealer,
            rules=rules,
            finished=True,
            players=players,
        )
        if sheet.finished_early:
            if sheet.kind is Kind.TWO_PLAYER:
                template = gettext_noop(
                    "the two-player rubber was finished early, after deal %(deal)s; "
                    "it accepts no further deal"
                )
            else:
                template = gettext_noop(
                    "the rubber was finished early, after deal %(deal)s; it accepts no further deal"
                )
            raise MatchComplete(template, deal=len(sheet.rows))
    if (
        rules.par is not None
        and parse_kind(kind) is Kind.CHICAGO
        and isinstance(new, Played)
        and new.hcp is None
    ):
        raise InvalidInput(
            "hcp",
            gettext_noop(
                "with par scoring, a played deal is entered with the declaring side's "
                "high-card points, 0 to 40"
            ),
        )
    return score_match(
        kind,
        [*results, new],
        first_dealer=first_dealer,
        rules=rules,
        players=players,
    )
