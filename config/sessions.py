"""Sessions in the database, read through the shared cache (``SESSION_ENGINE`` with Redis).

Django's ``cached_db`` sessions: every session is written to the database and to the cache,
and read from the cache while it has it. A phone at a table polls its pad every 5 s, and its
session was one query of every poll (bench/polls.py). Two things are added:

- **The cache may fail**: a read, a write or a delete the cache refuses is logged and the
  database alone serves (Django's own store raises on the write that follows a failed read,
  and on every delete);
- **A copy is kept ``CACHED_SECONDS`` at most** (not the session's two weeks), so a session
  ended while the cache was down (signed out, rotated) and still in it when it comes back
  opens nothing for longer than that.

The embedded default (no Redis) keeps Django's database sessions: its cache is per process,
so one process would keep reading a session another changed.
"""

import logging
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.core.cache import caches

logger = logging.getLogger(__name__)

CACHED_SECONDS = 15 * 60


class _Forgiving:
    """The session cache's operations, failures logged and answered as a miss."""

    def __init__(self, cache: Any):
        self._cache = cache

    def get(self, key: str) -> Any:
        try:
            return self._cache.get(key)
        except Exception:
            logger.warning("the session cache could not be read", exc_info=True)
            return None

    def set(self, key: str, value: Any, timeout: int | None = None) -> None:
        timeout = CACHED_SECONDS if timeout is None else min(timeout, CACHED_SECONDS)
        try:
            self._cache.set(key, value, timeout)
        except Exception:
            logger.warning("the session cache could not be written", exc_info=True)

    def delete(self, key: str) -> None:
        try:
            self._cache.delete(key)
        except Exception:
            logger.warning("the session cache could not be deleted from", exc_info=True)

    def __contains__(self, key: str) -> bool:
        try:
            return key in self._cache
        except Exception:
            return False


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None):
        super().__init__(session_key)
        self._cache: Any = _Forgiving(caches[settings.SESSION_CACHE_ALIAS])
