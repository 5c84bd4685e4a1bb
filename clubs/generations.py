"""Generations: tokens that change after every committed write to what they cover, so that
copies of what was read (the API's read cache, ``api.cache``) know when they are stale, and
so that a client's copy of a page or an answer can be validated (``clubs.live``: ETags).

A scope is what a token covers:

- ``("club", id)``: all of a club's data (the club, its players, seasons, sessions and
  tables, and everything below them);
- ``("match", id)``: one match and its deals;
- ``("table", "session id-number")``: the matches at one table of a session (what the
  table's pad shows: the match now at it, its deals and entries);
- which matches there are and their states (the lists): ``("matches", club id)`` all of a
  club's, ``("season-matches", season id)``, ``("session-matches", session id)`` and
  ``("player-matches", "season id-player id")`` a player's in a season;
- ``("ladder", season id)``: a season's stored ladder.

A copy records the tokens of the scopes it depends on, read *before* it was computed, and is
used only while they are all unchanged. Each write bumps the scopes it touches (the bump
functions below receive the signals the services send, connected in ``ApiConfig.ready``), at
once, and again once the transaction commits, so that a reader that computed its copy before
the commit stored it under a token that no longer matches. The first bump also covers a
process that dies between the commit and the second (only copies computed in that moment
would outlive the change), and the tests, whose transactions never commit. Copies expire
after ``API_READ_CACHE_SECONDS``, which bounds how long one can outlive a change whose tokens
could not be set (the cache was unreachable, so were its copies); tokens are kept a day, so
that a quiet club's copies do not all expire at once.

Each token carries the time it was made (``<random>.<seconds>``): ``tokens_time`` of the tokens
an answer was computed under is when the newest of its scopes last changed (or, for a scope
with no token kept, when one was made for it), which is the answer's ``Last-Modified``
(``clubs.live``). It only moves forward while content changes: every write makes new tokens
for what it touches, at once and again after its commit.
"""

import logging
import time
import uuid
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)

GENERATION_SECONDS = 24 * 3600
_clock = time.time  # the time a token is made with (the tests move it by hand)
Scope = tuple[str, int | str]


def _key(scope: Scope) -> str:
    return f"{settings.API_READ_CACHE_NAMESPACE}:generation:{scope[0]}:{scope[1]}"


def new_token() -> str:
    """A token that no other has been, with the time it was made (``tokens_time``)."""
    return f"{uuid.uuid4().hex}.{_clock():.6f}"


def tokens_time(tokens: Iterable[str]) -> float | None:
    """The newest time the tokens were made; None if one carries none (made by an earlier
    version: its time is unknown)."""
    newest = 0.0
    for token in tokens:
        _random, _dot, made = token.partition(".")
        try:
            newest = max(newest, float(made))
        except ValueError:
            return None
    return newest


def _bump(scopes: Iterable[Scope]) -> None:
    if not settings.API_READ_CACHE:
        return
    keys = sorted({_key(scope) for scope in scopes})
    if not keys:
        return

    def bump() -> None:
        token = new_token()
        try:
            cache.set_many(dict.fromkeys(keys, token), timeout=GENERATION_SECONDS)
        except Exception:  # the cache is down: its copies are unreachable too, until they expire
            logger.warning("could not renew the read cache generations %s", keys, exc_info=True)

    bump()
    transaction.on_commit(bump)


def table_scope(session_id: int, number: int) -> Scope:
    """The scope of table ``number`` of a session: every match at it, one round after
    another."""
    return ("table", f"{session_id}-{number}")


def club_generation_bump(*, club_ids: Iterable[int], **signal: object) -> None:
    """Everything read from these clubs is stale (``clubs.signals.club_changed``)."""
    _bump(("club", club_id) for club_id in club_ids)


def match_generation_bump(
    *,
    match_id: int,
    club_id: int,
    season_id: int,
    session_id: int,
    table_number: int,
    player_ids: Iterable[int],
    **signal: object,
) -> None:
    """The match (with these players), its table and the match lists it is in are stale
    (``matches.signals.match_changed``)."""
    _bump(
        [
            ("match", match_id),
            table_scope(session_id, table_number),
            ("matches", club_id),
            ("season-matches", season_id),
            ("session-matches", session_id),
            *(("player-matches", f"{season_id}-{player}") for player in player_ids),
        ]
    )


def ladder_generation_bump(*, season_ids: Iterable[int], **signal: object) -> None:
    """These seasons' ladders are stale (``scoring.signals.ladders_changed``)."""
    _bump(("ladder", season_id) for season_id in season_ids)


def generations(
    scopes: Sequence[Scope], *, read_also: Sequence[str] = ()
) -> tuple[tuple[str, ...], dict[str, Any]]:
    """The current tokens of ``scopes`` (new ones for scopes that have none) and, read in the
    same round trip, the cache's values of the keys ``read_also`` (a dict of those found)."""
    keys = [_key(scope) for scope in scopes]
    found = cache.get_many([*keys, *read_also])
    for key in keys:
        if key not in found:
            token = new_token()
            if not cache.add(key, token, timeout=GENERATION_SECONDS):
                token = cache.get(key) or token  # another process set one a moment ago
            found[key] = token
    also = {key: found[key] for key in read_also if key in found}
    return tuple(found[key] for key in keys), also
