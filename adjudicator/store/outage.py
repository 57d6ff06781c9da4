"""Telling "the database cannot store anything now" apart from a bug, and saying it once.

A full disk, a read-only database (a failed-over replica, a remounted volume) or a database that
cannot be reached refuses every write until an operator acts: each request or mail would log the
same traceback. Such an error is classified here (`storage_problem`) so that the web answers 503
with Retry-After and the SMTP listener its 451, each saying that nothing was changed, and
`report` logs it one line a minute with the count of refusals, not a traceback per request.
"""

from __future__ import annotations

import logging
import threading
import time

from sqlalchemy.exc import DBAPIError, OperationalError

log = logging.getLogger(__name__)

REPORT_EVERY = 60.0  # seconds between two log lines about the same problem
RETRY_AFTER = 120  # seconds a client is asked to wait

# SQLSTATEs: disk_full, insufficient_resources, out_of_memory, read_only_sql_transaction,
# admin_shutdown / crash_shutdown / cannot_connect_now, connection_exception class
_PG_STATES = {"53100": "disk full", "53000": "out of resources", "53200": "out of memory",
              "25006": "read only", "57P01": "shutting down", "57P02": "shutting down",
              "57P03": "starting up", "08000": "unreachable", "08001": "unreachable", "08006": "unreachable"}
_SQLITE_WORDS = {"database or disk is full": "disk full", "readonly database": "read only",
                 "read-only": "read only", "unable to open database file": "unreachable",
                 "disk i/o error": "disk error"}


def storage_problem(exc: BaseException) -> str | None:
    """"disk full", "read only", "unreachable" ... when `exc` says the database cannot store
    anything now; None for any other error (a bug, a constraint: those stay loud)."""
    if not isinstance(exc, DBAPIError):
        return None
    orig = exc.orig
    state = getattr(orig, "sqlstate", None) or getattr(orig, "pgcode", None)
    if state in _PG_STATES:
        return _PG_STATES[state]
    text = str(orig).lower()
    for words, problem in _SQLITE_WORDS.items():
        if words in text:
            return problem
    if isinstance(exc, OperationalError) and ("connection" in text and ("refused" in text or "failed" in text)):
        return "unreachable"
    return None


class _Reporter:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last: dict[str, float] = {}
        self._count: dict[str, int] = {}

    def report(self, problem: str, where: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._count[problem] = self._count.get(problem, 0) + 1
            if now - self._last.get(problem, -REPORT_EVERY) < REPORT_EVERY:
                return
            self._last[problem] = now
            count, self._count[problem] = self._count[problem], 0
        log.error("the database cannot store anything now (%s): %d %s refused since the last report; "
                  "see docs/operations.md, Recover", problem, count, where)


_reporter = _Reporter()


def report(problem: str, where: str) -> None:
    """Log the problem at most once a minute (with how many were refused meanwhile)."""
    _reporter.report(problem, where)
