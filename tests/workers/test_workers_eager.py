"""Tasks run inline (PBEM_EAGER=1) and the mailer, without a broker."""

from __future__ import annotations

import email
import smtplib

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.render import markdown_to_html
from adjudicator.store import OutboxMessage
from tests.support.play import new_game
from workers import mailer
from workers.enqueue import enqueue


@pytest.fixture
def eager(monkeypatch, tmp_path):
    monkeypatch.setenv("PBEM_EAGER", "1")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    return tmp_path / "mail"


def rows() -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))


def test_eager_reveal_and_delivery(sqlite_db, toy, eager) -> None:
    tg = new_game(seats=2)
    enqueue(tg.tasks)
    tg.submit("p1", "bid 2")
    enqueue(tg.submit("p2", "bid 1").tasks)  # reveal, which enqueues its own mails
    assert tg.public().record_length == 2
    assert all(r.status == "sent" for r in rows())
    files = sorted(eager.glob("*.eml"))
    assert len(files) == len(rows())
    msg = email.message_from_bytes(files[-1].read_bytes())
    assert msg["X-PBEM-Game"] == tg.game_id and msg.is_multipart()
    enqueue([("deliver", rows()[0].id)])  # delivering again does nothing
    assert len(list(eager.glob("*.eml"))) == len(files)


def test_smtp_failure_is_recorded(sqlite_db, toy, eager, monkeypatch) -> None:
    new_game(seats=2)
    monkeypatch.setenv("SMTP_HOST", "smtp.invalid")

    def refuse(_msg) -> None:
        raise smtplib.SMTPConnectError(421, "try later")

    monkeypatch.setattr(mailer, "send_smtp", refuse)
    first = rows()[0]
    with pytest.raises(mailer.TemporaryFailure):
        mailer.deliver(first.id)
    row = rows()[0]
    assert row.status == "pending" and row.attempts == 1 and "try later" in row.last_error
    for _ in range(mailer.MAX_ATTEMPTS - 1):
        try:
            mailer.deliver(first.id)
        except mailer.TemporaryFailure:
            pass
    assert rows()[0].status == "failed"


def test_markdown_is_sanitised() -> None:
    html = markdown_to_html("**bold** <script>x()</script> [a](javascript:alert(1)) <b onclick='x'>b</b>")
    assert "<strong>bold</strong>" in html
    assert "<script" not in html and "javascript:" not in html and "onclick" not in html


def test_deadline_sweep_fans_out_in_chunks_with_an_expiry(sqlite_db, toy, eager, monkeypatch) -> None:
    """More due games than one chunk: every game is swept (each in its own transaction), with a
    few messages, each expiring (a queued repeat of the next sweep run is discarded unrun)."""
    from datetime import timedelta

    from sqlalchemy import update

    from adjudicator.service import DeadlinePolicy, utcnow
    from adjudicator.store import Game
    from workers import tasks

    games = [new_game(seats=2, emails=False, policy=DeadlinePolicy(step_hours=24))
             for _ in range(tasks.SWEEP_CHUNK + 3)]
    with store.transaction() as s:
        s.connection().execute(update(Game).values(due_at=utcnow() - timedelta(seconds=1), reminded=True))
    sent: list[tuple[object, float | None]] = []
    real_enqueue = tasks.enqueue

    def spy(batch, app=None, expires=None):
        batch = list(batch)
        sent.extend((task, expires) for task in batch)
        real_enqueue(batch, app=app, expires=expires)

    monkeypatch.setattr(tasks, "enqueue", spy)
    tasks.sweep_deadlines()
    chunks = [(task, expires) for task, expires in sent if task[0] == "sweeps"]
    assert [len(task[1]) for task, _ in chunks] == [tasks.SWEEP_CHUNK, 3]
    assert all(expires == tasks.sweep_expiry() for _, expires in chunks)
    assert all(g.public().record_length == 2 for g in games), "every due game's deadline was applied"


def test_a_chunk_of_games_is_swept_once_each_with_every_mail_enqueued_once(db, toy, monkeypatch) -> None:  # noqa: ANN001
    """sweep_games runs a few games at once on PostgreSQL (one at a time on SQLite): each game's
    deadline is applied once, in its own transaction, and the chunk's mails are all enqueued, once."""
    import threading
    from datetime import timedelta

    from sqlalchemy import update

    from adjudicator.service import DeadlinePolicy, utcnow
    from adjudicator.store import Game
    from workers import tasks
    from workers.enqueue import outbox_id

    monkeypatch.delenv("PBEM_EAGER", raising=False)
    monkeypatch.setenv("PBEM_SWEEP_THREADS", "3")
    games = [new_game(seats=2, policy=DeadlinePolicy(step_hours=24)) for _ in range(7)]
    with store.transaction() as s:
        s.connection().execute(update(Game).values(due_at=utcnow() - timedelta(seconds=1), reminded=True))
        s.connection().execute(update(OutboxMessage).values(status="sent"))
    sent: list[object] = []
    threads: set[str] = set()
    real_one = tasks._sweep_one

    def one(game_id: str) -> list[object]:
        threads.add(threading.current_thread().name)
        return real_one(game_id)

    monkeypatch.setattr(tasks, "_sweep_one", one)
    monkeypatch.setattr(tasks, "enqueue", lambda batch, **_kw: sent.extend(batch))
    tasks.sweep_games([g.game_id for g in games] + [games[0].game_id])  # a repeat finds nothing due
    assert all(g.public().record_length == 2 for g in games), "every due game's deadline was applied once"
    pending = sorted(r.id for r in rows() if r.status == "pending")
    delivered = sorted(outbox_id(args[0]) for kind, *args in sent if kind == "deliver")
    assert pending and delivered == pending, "every new mail enqueued, once"
    assert len(threads) == (1 if store.is_sqlite() else 3)
