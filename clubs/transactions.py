"""Transactions the database ended to let another one on: run again, a few times.

PostgreSQL ends one transaction of a deadlock (``deadlock detected``, SQLSTATE 40P01) and a
transaction that could not be serialized (40001); nothing of it stays, and the same work run
again a moment later almost always succeeds. The writes take their locks in one order, so
that a deadlock should not happen (the season row before nothing else: a ladder's
recalculation locks it ``FOR NO KEY UPDATE``, which the foreign-key checks of the rows that
refer to the season do not wait for; a session row without its club's), but a retry is the
database's own advice for whatever still meets one.

``retried`` runs a function again, up to ``ATTEMPTS`` times in all, when such an error ends
it, if it ran as the outermost transaction: then the whole transaction was rolled back and
running it again writes everything once. Inside a caller's transaction it does not retry
(the caller's transaction is lost: its outermost ``retried`` block, if any, runs it again).
An error that remains after the last attempt is raised; the API and the pages answer it with
a 503 whose code says "try again" (``try_again``), not the outage's ``unavailable``.
"""

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar

from django.db import DatabaseError, transaction

logger = logging.getLogger(__name__)

ATTEMPTS = 3
"""Runs in all, the first included."""
RETRY_SQLSTATES = frozenset({"40P01", "40001"})
"""deadlock_detected and serialization_failure: the transaction may simply be run again."""

P = ParamSpec("P")
R = TypeVar("R")


def retryable(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or an error it was raised from) is a deadlock or a serialization
    failure: the transaction it ended may be run again."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        code = getattr(exc, "sqlstate", None) or getattr(exc, "pgcode", None)
        if code in RETRY_SQLSTATES:
            return True
        seen.add(id(exc))
        exc = exc.__cause__ or exc.__context__
    return False


def _pause(attempt: int) -> None:
    """A short wait, longer after each failed attempt, with jitter so that the transactions
    of a deadlock do not meet again at once."""
    time.sleep(random.uniform(0.02, 0.1) * attempt)


def retried(func: Callable[P, R]) -> Callable[P, R]:
    """``func`` (a transaction, e.g. decorated with ``transaction.atomic`` under this one) run
    again when a deadlock or a serialization failure ends it, if no transaction was open
    when it was called."""

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        if transaction.get_connection().in_atomic_block:
            return func(*args, **kwargs)
        attempt = 1
        while True:
            try:
                return func(*args, **kwargs)
            except DatabaseError as error:
                if not retryable(error):
                    raise
                if attempt >= ATTEMPTS:
                    logger.warning(
                        "%s: the database ended the transaction %d times; giving up",
                        func.__qualname__,
                        attempt,
                    )
                    raise
                logger.warning(
                    "%s: the database ended the transaction (%s); running it again "
                    "(attempt %d of %d)",
                    func.__qualname__,
                    str(error).splitlines()[0] if str(error) else type(error).__name__,
                    attempt + 1,
                    ATTEMPTS,
                )
            _pause(attempt)
            attempt += 1

    return wrapper
