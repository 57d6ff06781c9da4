"""A real Celery worker (with beat) as a subprocess, on Redis and on the embedded SQLite broker,
running reveal, deadline sweep and mail delivery against a real SQLite database file."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.service import DeadlinePolicy
from adjudicator.store import OutboxMessage
from tests.support.databases import Database, redis_or_skip
from tests.support.play import new_game
from tests.support.processes import Worker, wait_for
from workers.enqueue import enqueue

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.slow


@pytest.fixture(params=["redis", "embedded"])
def worker(request: pytest.FixtureRequest, sqlite_db: Database, tmp_path: Path) -> Iterator[Worker]:
    if request.param == "redis":
        broker = redis_or_skip()
    else:
        broker = f"sqla+sqlite:///{tmp_path / 'var' / 'broker.sqlite'}"
        (tmp_path / "var").mkdir()
    w = Worker(broker, sqlite_db, tmp_path)
    w.start()
    try:
        yield w
    finally:
        w.stop()


def outbox() -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(OutboxMessage)).all())


def test_worker_reveals_sweeps_and_delivers(worker: Worker, toy) -> None:
    # reveal: the last sealed bid completes the group, revealed in the same transaction; the
    # worker delivers the mails it wrote
    tg = new_game(seats=2, policy=DeadlinePolicy(step_seconds=3600))
    enqueue(tg.tasks, app=worker.app)
    tg.submit("p1", "bid 3")
    sub = tg.submit("p2", "bid 1")
    assert tg.public().record_length == 2
    enqueue(sub.tasks, app=worker.app)
    assert tg.page("p1").prompt["kind"] == "choose"
    # every mail queued so far (start mails, reveal results) ends up as an .eml file
    wait_for(lambda: any(m.status == "sent" for m in outbox()), "a delivered mail", log=worker.log)
    assert list(worker.mail.glob("*.eml"))

    # deadlines: the beat sweep (every second here) reminds p2 once, then defaults p2's bid
    # a wide reminder window (from 2 s to 14 s in): a loaded machine still sweeps inside it
    short = new_game(seats=2, policy=DeadlinePolicy(step_seconds=14, reminder_seconds=12))
    short.submit("p1", "bid 2")
    wait_for(lambda: short.public().record_length >= 2, "the deadline sweep", log=worker.log)
    entry = short.full_export()["entries"][1]
    assert entry["data"]["defaulted"] == ["p2"]
    assert entry["data"]["orders"] == {"p1": {"bid": 2}, "p2": {"bid": 0}}
    reminders = [m for m in outbox() if "reminder" in m.subject and m.headers.get("X-PBEM-Game") == short.game_id]
    assert [m.headers["X-PBEM-Seat"] for m in reminders] == ["p2"], "p1 had sealed; p2 reminded once"
