"""A transaction that meets a deadlock, a serialization failure or a locked database is run again
from the start; any other error is raised at once."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from adjudicator import store


class _PgError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__(f"sqlstate {sqlstate}")
        self.sqlstate = sqlstate


def _failing(errors: list[Exception]):  # noqa: ANN202
    calls: list[int] = []

    def fn(_s) -> int:  # noqa: ANN001
        calls.append(1)
        if errors:
            raise errors.pop(0)
        return len(calls)

    return fn, calls


@pytest.mark.parametrize("orig", [_PgError("40P01"), _PgError("40001"), Exception("database is locked")])
def test_transient_errors_run_the_transaction_again(sqlite_db, orig: Exception) -> None:  # noqa: ANN001
    fn, calls = _failing([OperationalError("UPDATE", {}, orig), OperationalError("UPDATE", {}, orig)])
    assert store.run_in_transaction(fn, pause=0.001) == 3
    assert len(calls) == 3


def test_other_errors_and_the_last_attempt_are_raised(sqlite_db) -> None:  # noqa: ANN001
    fn, calls = _failing([IntegrityError("INSERT", {}, _PgError("23505"))])
    with pytest.raises(IntegrityError):
        store.run_in_transaction(fn, pause=0.001)
    assert len(calls) == 1
    deadlocks = [OperationalError("UPDATE", {}, _PgError("40P01")) for _ in range(3)]
    fn, calls = _failing(deadlocks)
    with pytest.raises(OperationalError):
        store.run_in_transaction(fn, attempts=3, pause=0.001)
    assert len(calls) == 3
