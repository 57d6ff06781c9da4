"""Outbox rows delivered in batches (issue 16): one claim and one SMTP connection for the batch,
each row recorded `sent` as soon as the relay took it (so a sender killed mid-batch repeats at
most the mail in flight), a refused recipient failing its own row only; tasks coalesced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.bench.chaos import free_port
from adjudicator.store import OutboxMessage
from tests.support.play import new_game
from workers import mailer
from workers.enqueue import DELIVER_BATCH, coalesced


class Relay:
    """An SMTP server that notes, for every message, the outbox statuses at that moment."""

    def __init__(self, refuse: str = "") -> None:
        self.refuse = refuse
        self.sessions = 0
        self.received: list[tuple[str, dict[int, str]]] = []

    async def handle_EHLO(self, server: Any, session: Any, envelope: Any, hostname: str,
                          responses: list[str]) -> list[str]:
        self.sessions += 1
        session.host_name = hostname
        return responses

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, options: list[str]) -> str:
        if address == self.refuse:
            return "550 5.1.1 no such user"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received.append((envelope.rcpt_tos[0], dict(statuses())))
        return "250 2.0.0 ok"


def statuses() -> dict[int, str]:
    with store.transaction(write=False) as s:
        return {r.id: r.status for r in s.exec(select(OutboxMessage))}  # type: ignore[misc]


@pytest.fixture
def relay(monkeypatch: pytest.MonkeyPatch) -> Iterator[Relay]:
    from aiosmtpd.controller import Controller

    handler = Relay()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    monkeypatch.setenv("SMTP_HOST", "127.0.0.1")
    monkeypatch.setenv("SMTP_PORT", str(port))
    monkeypatch.setenv("SMTP_SECURITY", "none")
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "pbem.test")
    monkeypatch.delenv("PBEM_EAGER", raising=False)
    try:
        yield handler
    finally:
        controller.stop()


def pending() -> list[int]:
    return sorted(i for i, st in statuses().items() if st == "pending")


def test_a_batch_goes_over_one_connection_each_row_recorded_as_it_is_accepted(db, toy, relay: Relay) -> None:  # noqa: ANN001
    new_game(seats=3)
    new_game(seats=3)
    ids = pending()
    assert len(ids) >= 4
    result = mailer.deliver_many(ids)
    assert result == {i: "sent" for i in ids}
    assert relay.sessions == 1, "one SMTP connection for the whole batch"
    assert len(relay.received) == len(ids)
    for n, (_rcpt, seen) in enumerate(relay.received):
        assert all(seen[i] == "sent" for i in ids[:n]), "every earlier row was recorded before the next was sent"
        assert all(seen[i] == "sending" for i in ids[n:]), "the rest of the batch is held by this sender"
    assert mailer.deliver_many(ids) == {}, "a second run finds every row taken: nothing is sent twice"
    assert len(relay.received) == len(ids)


def test_a_refused_recipient_fails_its_own_row_only(db, toy, relay: Relay) -> None:  # noqa: ANN001
    new_game(seats=3)
    ids = pending()
    with store.transaction(write=False) as s:
        refused = s.exec(select(OutboxMessage).where(OutboxMessage.id == ids[1])).one()
    relay.refuse = refused.to
    result = mailer.deliver_many(ids)
    assert result[ids[1]] == "failed"
    assert {result[i] for i in ids if i != ids[1]} == {"sent"}
    assert relay.sessions == 1


def test_a_lost_relay_leaves_the_rows_pending_for_the_recovery_sweep(db, toy, relay: Relay,  # noqa: ANN001
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    new_game(seats=3)
    ids = pending()
    monkeypatch.setenv("SMTP_PORT", str(free_port()))  # nobody listens there
    result = mailer.deliver_many(ids)
    assert result[ids[0]] == "pending"
    assert {st for i, st in statuses().items() if i in ids} == {"pending"}, "the untried rows are released too"
    with store.transaction(write=False) as s:
        rows = s.exec(select(OutboxMessage).where(OutboxMessage.id.in_(ids))).all()  # type: ignore[union-attr]
    assert all(r.next_attempt_at is not None and r.lease_until is None for r in rows)
    assert [r.attempts for r in rows] == [1] + [0] * (len(ids) - 1), "only the tried row counts an attempt"


def test_a_mail_the_relay_took_is_recorded_after_a_database_blip_not_sent_again(db, toy, relay: Relay,  # noqa: ANN001
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The database goes away for a moment after the relay's 250 (a PostgreSQL restart): the
    sender keeps trying to record that mail, instead of leaving the row `sending` for a resend."""
    from sqlalchemy.exc import OperationalError

    new_game(seats=3)
    ids = pending()
    real_mark_sent, down = mailer._mark_sent, {"left": 2}

    def broken_connection(lazy: bool = False) -> Any:
        raise OperationalError("SELECT 1", {}, Exception("connection refused"))

    def mark_sent_after_the_restart(outbox_ids: list[int]) -> dict[int, str]:
        if down["left"]:
            down["left"] -= 1
            raise OperationalError("UPDATE outbox", {}, Exception("connection refused"))
        return real_mark_sent(outbox_ids)

    monkeypatch.setattr(mailer, "store_connection", broken_connection)
    monkeypatch.setattr(mailer, "_mark_sent", mark_sent_after_the_restart)
    monkeypatch.setenv("PBEM_SEND_LEASE_SECONDS", "30")
    assert mailer.deliver_many(ids) == {i: "sent" for i in ids}
    assert down["left"] == 0 and len(relay.received) == len(ids)
    assert mailer.deliver_many(ids) == {} and len(relay.received) == len(ids)


def test_deliveries_are_coalesced_into_batches(tmp_path: Path) -> None:
    tasks = [("reveal", "g", "x")] + [("deliver", i) for i in range(1, DELIVER_BATCH + 3)] + [("deliver", 1)]
    out = coalesced(tasks)
    assert out[0] == ("reveal", "g", "x")
    assert out[1] == ("deliver_batch", list(range(1, DELIVER_BATCH + 1)))
    assert out[2] == ("deliver_batch", [DELIVER_BATCH + 1, DELIVER_BATCH + 2])
    assert coalesced([("deliver", 7)]) == [("deliver", 7)]


def test_a_large_batch_goes_over_several_connections_each_row_sent_once(db, toy, relay: Relay,  # noqa: ANN001
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PBEM_SMTP_CONNECTIONS", "2")
    for _ in range(8):
        new_game(seats=3)
    ids = pending()
    assert len(ids) >= 2 * mailer.MIN_PER_LANE
    assert mailer.deliver_many(ids) == {i: "sent" for i in ids}
    assert relay.sessions == 2, "two connections at once"
    assert sorted(rcpt for rcpt, _seen in relay.received) == sorted(_recipients(ids)), "each row once"
    for n, (_rcpt, seen) in enumerate(relay.received):
        # one mail at a time between the relay's 250 and its record: a killed worker repeats one
        assert sum(seen[i] == "sent" for i in ids) == n, "every mail taken before was recorded, no other"
    assert mailer.deliver_many(ids) == {} and len(relay.received) == len(ids)


def test_a_mail_goes_out_as_send_message_would_send_it(db, toy, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """The bytes written directly are what smtplib's send_message sent of the EmailMessage."""
    import re
    import smtplib

    new_game(seats=3)
    ids = pending()
    with store.transaction(write=False) as s:
        rows = list(s.exec(select(OutboxMessage).where(OutboxMessage.id.in_(ids))))  # type: ignore[union-attr]

    class Client(smtplib.SMTP):  # not connected: it notes every byte that would be sent
        def __init__(self) -> None:
            super().__init__()
            self.ehlo_resp = b"ok"
            self.wire = b""

        def send(self, s: Any) -> None:
            self.wire += s.encode("ascii") if isinstance(s, str) else s

        def getreply(self) -> tuple[int, bytes]:
            return (354, b"go on") if self.wire.endswith(b"data\r\n") else (250, b"ok")

    fast, slow = Client(), Client()
    accepted: list[int] = []
    for row in rows:
        mailer._smtp_send(row)(fast, lambda row=row: accepted.append(row.id))
        msg = mailer.build_message(row)
        slow.send_message(msg, from_addr=mailer.envelope_of(msg))
    assert accepted == [r.id for r in rows]

    def same(wire: bytes) -> bytes:
        return re.sub(rb"={15}\d+==", b"BOUNDARY", wire)

    assert b"\r\n.\r\n" in fast.wire and same(fast.wire) == same(slow.wire)


def _recipients(ids: list[int]) -> list[str]:
    with store.transaction(write=False) as s:
        return [r.to for r in s.exec(select(OutboxMessage).where(OutboxMessage.id.in_(ids)))]  # type: ignore[union-attr]


def test_each_sent_record_of_a_batch_is_a_write_behind_the_writers_lock(db, toy, relay: Relay,  # noqa: ANN001
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """On SQLite a record on the batch's held connection queues on the writers' flock (it met
    SQLite's sleeping busy handler before); on PostgreSQL it is one autocommitted statement."""
    new_game(seats=3)
    ids = pending()
    begun: list[Any] = []
    real_begin = mailer.store_begin

    def spy(conn: Any) -> Any:
        begun.append(conn.get_execution_options().get("isolation_level"))
        return real_begin(conn)

    monkeypatch.setattr(mailer, "store_begin", spy)
    assert mailer.deliver_many(ids) == {i: "sent" for i in ids}
    expected = "AUTOCOMMIT" if not store.is_sqlite() else None
    assert begun == [expected] * len(ids)



def test_claims_commit_lazily(db, toy, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """A claim lost in a power cut only frees its rows again (the same mails, the same
    Message-IDs): on SQLite its commit need not wait for the disk while it holds the writers' lock."""
    new_game(seats=3)
    ids = pending()
    lazy: list[bool] = []
    real = mailer.run_in_transaction

    def spy(fn: Any, **kwargs: Any) -> Any:
        lazy.append(kwargs.get("lazy", False))
        return real(fn, **kwargs)

    monkeypatch.setattr(mailer, "run_in_transaction", spy)
    assert mailer.claim(ids[0])[1] is True
    assert [r.id for r in mailer.claim_many(ids[1:])] == ids[1:]
    assert lazy == [True, True]
