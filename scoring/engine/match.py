"""One entry point for every kind of match. Replay is deterministic: a match is always scored
from its full list of results, so correcting deal k and scoring again gives exactly what a
correct entry would have given."""

from collections.abc import Sequence

from .chicago import check_players, score_chicago
from .errors import InvalidInput, MatchComplete
from .notation import DealResult, Seat
from .rubber import score_rubber
from .sheet import ChicagoVulnerability, Kind, Sheet


def parse_kind(value: Kind | str) -> Kind:
    """chicago, rubber or two_player (any case; "two-player" too)."""
    if isinstance(value, Kind):
        return value
    try:
        return Kind(str(value).strip().lower().replace("-", "_"))
    except ValueError:
        raise InvalidInput(
            "kind", f"kind must be one of chicago, rubber, two_player, got {value!r}"
        ) from None


def score_match(
    kind: Kind | str,
    results: Sequence[DealResult],
    *,
    first_dealer: Seat | str,
    vulnerability: ChicagoVulnerability | str = ChicagoVulnerability.DEALER,
    finished: bool = False,
    players: int | None = None,
) -> Sheet:
    """Score a match of any kind from all its results so far.

    ``two_player`` is a rubber with one player a side (seats N and E). ``vulnerability`` is the
    Chicago option for deals 2 and 3. ``finished`` ends an unfinished rubber early (a Chicago
    match cannot be finished early). ``players``, when given, must agree with the kind: 4 for
    chicago and rubber, 2 for two_player.
    """
    kind = parse_kind(kind)
    expected = 2 if kind is Kind.TWO_PLAYER else 4
    if kind is Kind.CHICAGO and players is not None:
        check_players(players)
    if players is not None and players != expected:
        hint = " (a table of two plays two_player)" if players == 2 else ""
        raise InvalidInput(
            "kind", f"a {kind} match is played by {expected} players, got {players!r}{hint}"
        )
    if kind is Kind.CHICAGO:
        if finished:
            raise InvalidInput(
                "kind",
                "only a rubber can be finished early; a Chicago match is always four deals",
            )
        return score_chicago(results, first_dealer=first_dealer, vulnerability=vulnerability)
    return score_rubber(results, first_dealer=first_dealer, players=expected, finished=finished)


def check_next(
    kind: Kind | str,
    results: Sequence[DealResult],
    new: DealResult,
    *,
    first_dealer: Seat | str,
    vulnerability: ChicagoVulnerability | str = ChicagoVulnerability.DEALER,
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
            vulnerability=vulnerability,
            finished=True,
            players=players,
        )
        if sheet.finished_early:
            raise MatchComplete(
                f"the {sheet.kind} was finished early after {len(sheet.rows)} deals; "
                "it accepts no further deal"
            )
    return score_match(
        kind,
        [*results, new],
        first_dealer=first_dealer,
        vulnerability=vulnerability,
        players=players,
    )
