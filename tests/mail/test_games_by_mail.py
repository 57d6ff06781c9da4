"""Whole games (Doge, China, 1960, Founding Fathers' short scenario C) played by e-mail only: real SMTP into the
built-in listener on a loopback port, a real Celery worker (Redis broker) ingesting and delivering, every
player answering the latest mail they received with one of the legal orders it lists."""

from __future__ import annotations

import random
import re
import smtplib
import socket
from email.message import EmailMessage
from pathlib import Path

import pytest
from sqlmodel import func, select

from adjudicator import service, store
from adjudicator.store import InboxMessage, OutboxMessage
from tests.support.databases import Database, redis_or_skip
from tests.support.processes import Worker, wait_for
from workers.enqueue import enqueue

pytestmark = pytest.mark.slow
GAMES = [("doge", 3, {}), ("china", 3, {}), ("1960", 2, {}), ("founding-fathers", 3, {"scenario": "C"})]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _quiet() -> bool:
    with store.transaction(write=False) as s:
        new = s.exec(select(func.count(InboxMessage.id)).where(InboxMessage.status == "new")).one()
        pending = s.exec(select(func.count(OutboxMessage.id))
                         .where(OutboxMessage.status.in_(("pending", "sending")))).one()
    return new == 0 and pending == 0


def _choices(body: str) -> list[str]:
    """The legal orders a mail lists (all, or the short mail's most useful ones)."""
    lines = re.split(r"Legal orders[^\n]*:\n\n", body, maxsplit=1)[1].splitlines()
    out = []
    for line in lines:
        if not line.startswith("    ") or line.strip().startswith("..."):
            break
        out.append(line.strip())
    return out


def _stuck_report(game_id: str, rows: list[OutboxMessage], answered: dict[str, int]) -> str:
    """What the game waits on and the last mails, for a failure that does not reproduce at will."""
    from adjudicator.service.common.core import current_prompts, find_game

    with store.transaction(write=False) as s:
        g = find_game(s, game_id)
        prompts = {seat: (p.kind, p.sealed, p.group) for seat, p in current_prompts(g).items()}
        waiting, due = g.waiting_on, g.due_at
    tail = "\n".join(f"--- #{r.id} {r.seat} {r.kind} {r.status}\n{r.body[:1200]}" for r in rows[-6:])
    return (f"the game waits, but nobody received a mail asking for a decision: prompts {prompts}, "
            f"waiting_on {waiting}, due {due}, answered {answered}\n{tail}")


# a whole Doge game is several hundred mails: on a busy two-core machine that can pass the suite's 600 s
@pytest.mark.timeout(1500)
@pytest.mark.parametrize(("game", "seats", "options"), GAMES)
def test_a_whole_game_by_mail(game: str, seats: int, options: dict, sqlite_db: Database, tmp_path: Path,
                              monkeypatch) -> None:
    broker = redis_or_skip()
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "pbem.test")
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    monkeypatch.delenv("PBEM_EAGER", raising=False)
    worker = Worker(broker, sqlite_db, tmp_path)
    worker.start()
    from workers.smtp import start

    port = _free_port()
    listener = start("127.0.0.1", port, app=worker.app)
    rnd = random.Random(7)
    try:
        with store.transaction() as s:
            created = service.create_game(s, game=game, seats=seats, options=options, title=f"{game} by mail")
        all_seats = sorted(created.invites)
        for seat in all_seats:
            with store.transaction() as s:
                joined = service.join_game(s, created.game_id, seat, created.invites[seat], seat.title(),
                                           email=f"{seat}@players.test")
            enqueue(joined.tasks, app=worker.app)
        answered = {seat: 0 for seat in all_seats}
        sent = 0
        with smtplib.SMTP("127.0.0.1", port) as smtp:
            while True:
                wait_for(_quiet, "the worker to finish its mail", timeout=60, log=worker.log)
                with store.transaction(write=False) as s:
                    status = service.public_game(s, created.game_id).status
                    rows = s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
                if status == "finished":
                    break
                # each seat answers the newest mail asking it for a decision: a "your move" mail, or
                # the reply to its own last mail when a follow-up decision is open (no new mail then)
                latest = {}
                for row in rows:
                    if row.seat and row.kind in ("start", "turn", "reply") and row.id > answered[row.seat]:
                        latest[row.seat] = row
                todo = {seat: row for seat, row in latest.items()
                        if "## Your decision" in row.body or "Legal orders now:" in row.body}
                assert todo, _stuck_report(created.game_id, rows, answered)
                for seat, row in todo.items():
                    msg = EmailMessage()
                    msg["From"] = f"{seat.title()} <{seat}@players.test>"
                    msg["To"] = row.headers["Reply-To"]
                    msg["Subject"] = "Re: " + row.subject
                    msg["In-Reply-To"] = msg["References"] = f"<pbem-{row.id}@pbem.test>"
                    msg["Message-ID"] = f"<{seat}-{sent}@players.test>"
                    quoted = "\n".join("> " + line for line in row.body.splitlines()[:40])
                    msg.set_content(f"{rnd.choice(_choices(row.body))}\n\nOn a day, pbem wrote:\n{quoted}\n")
                    smtp.send_message(msg)
                    answered[seat] = row.id
                    sent += 1
                assert sent < 3000
        with store.transaction(write=False) as s:
            inbox = s.exec(select(InboxMessage)).all()
            replies = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "reply")).all()
            ends = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "end")).all()
        assert len(inbox) == sent and all(m.status == "done" for m in inbox)
        assert len(replies) == sent and not any("## Not applied" in r.body for r in replies)
        assert {e.seat for e in ends} == set(all_seats) and all("pbem verify" in e.body for e in ends)
        assert len(list(worker.mail.glob("*.eml"))) >= sent
    finally:
        listener.stop()
        worker.stop()


def test_bench_mail_prints_figures(tmp_path, capsys, monkeypatch) -> None:
    from adjudicator.cli.main import main

    for name in ("PBEM_EAGER", "PBEM_MAIL_DIR", "PBEM_MAIL_DNS", "DATABASE_URL", "CELERY_BROKER_URL",
                 "PBEM_VAR_DIR", "PBEM_CELERY_QUEUE", "PBEM_MAIL_REPLIES_PER_HOUR"):  # restored after the test
        monkeypatch.setenv(name, "")
    monkeypatch.delenv("SMTP_HOST", raising=False)

    try:  # tasks inline (the real worker's run: tests/cli/test_bench_http_mail.py)
        assert main(["bench", "mail", "--messages", "20", "--latency", "3", "--eager"]) == 0
    finally:
        store.configure(None)
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "mail mode: inline tasks (PBEM_EAGER)"
    assert "mail throughput: " in out and "mail baseline aiosmtpd + parse + insert: " in out
    assert "mail CPU: " in out and "mail baseline CPU: " in out
    assert re.search(r"^mail throughput ratio to baseline: \d+\.\d\d$", out, re.M)
    assert all(line.endswith(("messages/s", "ms", "ms/message", "connections", "seats", ")"))
               or line.startswith("mail throughput ratio to baseline: ")
               for line in out.strip().splitlines())
