"""A generation per club: a token that changes after every committed write to the club's
data, so that copies of what was read from the club (the API's read cache, ``api.cache``)
know when they are stale.

The services call ``club_generation_bump`` for every club a write touches. The club gets a
new token at once and another once the transaction commits: a reader that computed its copy
before the commit stored it under a token that no longer matches. The first also covers a
process that dies between the commit and the second (only copies computed in that moment
would outlive the change), and the tests, whose transactions never commit. The tokens live
in the shared cache with the copies and expire with them (``API_READ_CACHE_SECONDS``), which
bounds how long a copy can outlive a change whose tokens could not be set (the cache was
unreachable: its copies were too).
"""

import logging
import uuid
from collections.abc import Iterable

from django.conf import settings
from django.core.cache import cache
from django.db import transaction

logger = logging.getLogger(__name__)


def generation_key(club_id: int) -> str:
    return f"{settings.API_READ_CACHE_NAMESPACE}:club-generation:{club_id}"


def club_generation_bump(*, club_ids: Iterable[int]) -> None:
    """Give each club a new generation once the current transaction commits."""
    if not settings.API_READ_CACHE:
        return
    keys = [generation_key(club_id) for club_id in set(club_ids)]
    if not keys:
        return

    def bump() -> None:
        token = uuid.uuid4().hex
        try:
            cache.set_many(dict.fromkeys(keys, token), timeout=settings.API_READ_CACHE_SECONDS)
        except Exception:  # the cache is down: its copies are unreachable too, until they expire
            logger.warning("could not renew the read cache generation of %s", keys, exc_info=True)

    bump()
    transaction.on_commit(bump)


def club_generation(club_id: int) -> str:
    """The club's current generation (a new one if it has none)."""
    key = generation_key(club_id)
    token = cache.get(key)
    if token is None:
        token = uuid.uuid4().hex
        if not cache.add(key, token, timeout=settings.API_READ_CACHE_SECONDS):
            token = cache.get(key) or token  # another process set one a moment ago
    return token
