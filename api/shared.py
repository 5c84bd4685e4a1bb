"""Small values every process reads from the shared cache, computed again from the database
when they are missing (dropped by a change, expired) or when the cache fails: the origins
the clubs list (``api.cors``), the clubs with webhook endpoints (``api.webhooks``)."""

import logging
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

logger = logging.getLogger(__name__)

T = TypeVar("T")


def shared(key: str, seconds: int, compute: Callable[[], T]) -> T:
    """The value kept under ``key``, or ``compute()`` kept there for ``seconds``."""
    try:
        found = cache.get(key)
    except Exception:
        logger.warning("the shared cache failed; %s is read from the database", key)
        found = None
    if found is not None:
        return found
    value = compute()
    try:
        cache.set(key, value, timeout=seconds)
    except Exception:
        logger.warning("could not keep %s in the shared cache", key)
    return value


def forget(key: str) -> None:
    """Drop ``key``: the next reader computes it again."""
    try:
        cache.delete(key)
    except Exception:
        logger.warning("could not drop %s from the shared cache", key)
