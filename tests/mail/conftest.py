"""Mail tests: a real SQLite (and PostgreSQL) database, tasks inline (PBEM_EAGER=1), mail written
to a temp folder, no DNS."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage
from itertools import count
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.mail import addresses
from adjudicator.service.common.core import find_game, seat_row
from adjudicator.service.common.tokens import mail_token
from adjudicator.service.play.notify import reply_address
from adjudicator.store import InboxMessage, OutboxMessage
from tests.support.play import PlayedGame, new_game
from workers.inbound import accept

_ids = count(1)


@pytest.fixture(autouse=True)
def mail_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[Path]:
    monkeypatch.setenv("PBEM_EAGER", "1")
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "pbem.test")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    monkeypatch.delenv("MAIL_FROM", raising=False)
    yield tmp_path / "mail"


def address(game_id: str, seat: str, tagged: bool = False) -> str:
    """The seat's reply address; `tagged`: as a mail written now has it, naming the decision open
    now (decisions.py); untagged, as before decision tags, it answers whatever decision is open."""
    with store.transaction(write=False) as s:
        g = find_game(s, game_id)
        row = seat_row(s, g, seat)
        if tagged:
            return reply_address(g, row)
        return addresses.reply_address(game_id, seat, mail_token(row.seat_token_hash or "-", game_id, seat))


def message(body: str = "", *, to: str = "pbem@pbem.test", sender: str = "p1@example.org",
            subject: str = "orders", mid: str | None = None, **headers: str) -> EmailMessage:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, subject
    msg["Message-ID"] = mid or f"<t{next(_ids)}@client.test>"
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg


def send(msg: EmailMessage | bytes, source: str = "smtp", envelope_from: str = "sender@client.test") -> bool:
    raw = msg if isinstance(msg, bytes) else bytes(msg)
    return accept(raw, source, envelope_from, [], "127.0.0.1")


def outbox(to: str | None = None, kind: str | None = None) -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        rows = s.exec(select(OutboxMessage).order_by(OutboxMessage.id)).all()
    return [r for r in rows if (to is None or r.to == to) and (kind is None or r.kind == kind)]


def inbox() -> list[InboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(InboxMessage).order_by(InboxMessage.id)).all())


@pytest.fixture
def game(db, toy) -> PlayedGame:  # noqa: ANN001 - fixtures
    return new_game(seats=2)
