"""Running a transaction again when the database says so.

Two writers can deadlock on PostgreSQL, or fail to serialise; SQLite can report "database is
locked" after its busy timeout; a pooled connection can die under a restart. In each case
nothing was committed and the work is idempotent, so the right answer is to run the whole
transaction again (after a short, growing, jittered pause), never to drop the work.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import DBAPIError
from sqlmodel import Session

from .db import transaction

log = logging.getLogger(__name__)

T = TypeVar("T")

# PostgreSQL: serialization_failure, deadlock_detected, lock_not_available
TRANSIENT_SQLSTATES = frozenset({"40001", "40P01", "55P03"})
ATTEMPTS = 6


def is_transient(exc: BaseException) -> bool:
    """True for a database error that a fresh run of the same transaction may not meet again."""
    if not isinstance(exc, DBAPIError):
        return False
    if exc.connection_invalidated:  # the connection died (server restart): a new one may work
        return True
    orig = exc.orig
    code = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if code in TRANSIENT_SQLSTATES:
        return True
    return "database is locked" in str(orig).lower()  # SQLite after its busy timeout


def run_in_transaction(fn: Callable[[Session], T], *, write: bool = True, attempts: int = ATTEMPTS,
                       pause: float = 0.05, lazy: bool = False) -> T:
    """``fn(session)`` in one transaction, run again from the start on a transient error (at most
    `attempts` times in all); any other error, or the last transient one, is raised. `lazy`: see
    `transaction`."""
    for attempt in range(1, attempts + 1):
        try:
            with transaction(write, lazy=lazy) as s:
                return fn(s)
        except DBAPIError as exc:
            if attempt >= attempts or not is_transient(exc):
                raise
            wait = random.uniform(0, pause * 2 ** attempt)  # noqa: S311 - jitter, not a secret
            log.warning("transaction failed (%s), attempt %d of %d; again in %.2fs",
                        type(exc.orig).__name__, attempt, attempts, wait)
            time.sleep(wait)
    raise AssertionError("unreachable")  # the loop returns or raises
