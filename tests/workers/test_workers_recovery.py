"""A real worker with beat: mails whose tasks were lost are sent by the recovery sweep, each once,
by children that each use their own database connections (prefork on PostgreSQL and Redis). Each
recovery path (issue 31: a lost wake-up found at the worker's (re)connection, a dead sender's rows
retried once its lease runs out) on both backends: PostgreSQL+Redis and the embedded default
(SQLite and its broker, one process)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.store import OutboxMessage
from tests.support.databases import Database, redis_or_skip
from tests.support.play import new_game
from tests.support.processes import Worker, wait_for

pytestmark = pytest.mark.slow


@pytest.fixture(params=["postgres+redis", "embedded"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Database, str]]:
    """(broker URL, database, worker pool) of each backend."""
    if request.param == "embedded":
        (tmp_path / "var").mkdir()
        yield f"sqla+sqlite:///{tmp_path / 'var' / 'broker.sqlite'}", request.getfixturevalue("sqlite_db"), "solo"
    else:
        broker = redis_or_skip()
        yield broker, request.getfixturevalue("pg_db"), "prefork"


def _all_sent() -> bool:
    with store.transaction(write=False) as s:
        return {r.status for r in s.exec(select(OutboxMessage)).all()} == {"sent"}


def test_lost_deliveries_are_sent_once_by_the_recovery_sweep(pg_db: Database, toy, tmp_path: Path) -> None:  # noqa: ANN001
    broker = redis_or_skip()
    for _ in range(5):
        new_game(seats=4)  # 20 "your move" mails whose tasks are never enqueued (lost)
    with store.transaction(write=False) as s:
        ids = sorted(r.id for r in s.exec(select(OutboxMessage)).all())
    assert len(ids) == 20
    worker = Worker(broker, pg_db, tmp_path, pool="prefork", concurrency=2,
                    env={"PBEM_RECOVERY_SECONDS": "1", "PBEM_RECOVERY_GRACE_SECONDS": "1"})
    worker.start()
    try:
        def all_sent() -> bool:
            with store.transaction(write=False) as s:
                return {r.status for r in s.exec(select(OutboxMessage)).all()} == {"sent"}

        wait_for(all_sent, "the recovery sweep sending every lost mail", timeout=90, log=worker.log)
    finally:
        worker.stop()
    assert sorted(int(p.stem) for p in worker.mail.glob("*.eml")) == ids
    with store.transaction(write=False) as s:
        assert [r.attempts for r in s.exec(select(OutboxMessage)).all()] == [1] * len(ids)  # sent once each
    text = worker.log.read_text()
    for problem in ("DuplicatePreparedStatement", "ResourceClosedError", "Traceback"):
        assert problem not in text


def test_a_worker_connecting_to_the_broker_hands_on_lost_rows_at_once(backend: tuple[str, Database, str], toy,  # noqa: ANN001
                                                                       tmp_path: Path) -> None:
    """A broker restart loses every queued wake-up, a killed worker the one it held: a worker
    (re)connecting wakes the rows that were waiting, without the sweep's grace (an hour here, so
    only the wake-up can send them)."""
    broker, db, pool = backend
    for _ in range(2):
        new_game(seats=4)  # 8 "your move" mails whose wake-ups the broker lost
    worker = Worker(broker, db, tmp_path, pool=pool, concurrency=2,
                    env={"PBEM_RECOVERY_GRACE_SECONDS": "3600", "PBEM_RECOVERY_WAKE_SECONDS": "0"})
    worker.start()
    try:
        wait_for(_all_sent, "the wake-up after connecting sending every lost mail", timeout=90, log=worker.log)
    finally:
        worker.stop()
    assert len(list(worker.mail.glob("*.eml"))) == 8
    assert "recovery wake-up after a broker (re)connection: handed on 8 more rows" in worker.log.read_text()
    with store.transaction(write=False) as s:
        assert {r.requeues for r in s.exec(select(OutboxMessage)).all()} == {0}  # no attempt counted


def test_rows_stored_just_before_the_reconnection_are_sent_within_seconds(pg_db: Database, toy,  # noqa: ANN001
                                                                           tmp_path: Path) -> None:
    """Rows stored moments before a worker (re)connects may have had their wake-up in the broker
    that failed; the wake-up at connection leaves them alone (they may be on their way), so a
    follow-up wake-up `PBEM_RECOVERY_WAKE_SECONDS` later hands them on: sent within seconds of the
    return, not after the sweep's grace (an hour here)."""
    import time

    broker = redis_or_skip()
    worker = Worker(broker, pg_db, tmp_path, pool="prefork", concurrency=2,
                    env={"PBEM_RECOVERY_GRACE_SECONDS": "3600", "PBEM_RECOVERY_WAKE_SECONDS": "4"})
    for _ in range(2):
        new_game(seats=4)  # stored now: younger than the wake grace when the worker connects
    started = time.monotonic()
    worker.start()
    try:
        def all_sent() -> bool:
            with store.transaction(write=False) as s:
                return {r.status for r in s.exec(select(OutboxMessage)).all()} == {"sent"}

        wait_for(all_sent, "the follow-up wake-up sending the mails stored just before", timeout=60, log=worker.log)
    finally:
        worker.stop()
    print(f"sent {time.monotonic() - started:.1f} s after the worker was started")
    assert len(list(worker.mail.glob("*.eml"))) == 8


def test_a_dead_senders_rows_are_sent_once_its_lease_runs_out(backend: tuple[str, Database, str], toy,  # noqa: ANN001
                                                                tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows claimed by a sender that died (`sending`, nobody renewing the lease) are freed and sent
    by the recovery sweep once the lease has run out, each once, without the sweep's grace (an hour
    here) and without the connection's wake-up (which leaves claimed rows alone)."""
    from workers import mailer

    broker, db, pool = backend
    monkeypatch.setenv("PBEM_SEND_LEASE_SECONDS", "3")
    new_game(seats=4)
    with store.transaction(write=False) as s:
        ids = sorted(r.id for r in s.exec(select(OutboxMessage)).all())
    assert [r.id for r in mailer.claim_many(ids)] == ids  # the sender that dies holding them
    worker = Worker(broker, db, tmp_path, pool=pool, concurrency=2,
                    env={"PBEM_RECOVERY_SECONDS": "1", "PBEM_RECOVERY_GRACE_SECONDS": "3600",
                         "PBEM_SEND_LEASE_SECONDS": "3"})
    worker.start()
    try:
        wait_for(_all_sent, "the recovery sweep sending the dead sender's rows", timeout=90, log=worker.log)
    finally:
        worker.stop()
    assert sorted(int(p.stem) for p in worker.mail.glob("*.eml")) == ids
    with store.transaction(write=False) as s:
        rows = s.exec(select(OutboxMessage)).all()
    assert {r.attempts for r in rows} == {1} and {r.requeues for r in rows} == {1}  # freed by the sweep, sent once
