"""A drained mail's writes (issue 16): one savepoint per mail, its inbox row's status in one Core
UPDATE and its outbox rows in one prebuilt INSERT instead of ORM objects and their flushes. The
rows are those the ORM path wrote, column by column, and a failed mail is still rolled back alone."""

from __future__ import annotations

from datetime import datetime
from itertools import count
from typing import Any

import pytest
from sqlalchemy import select

from adjudicator import service, store
from adjudicator.service.mail import inbound, inboxdrain, mailprep, mailunit
from adjudicator.service.play import outboxrows, steps
from adjudicator.store import InboxMessage, OutboxMessage
from tests.mail.conftest import address, inbox, message
from tests.mail.conftest import outbox as outbox_rows
from tests.service.test_deadline_statements import statements
from tests.support.play import PlayedGame, new_game
from tests.support.rows import flushed_objects


class _Undo(Exception):
    pass


def _store(raw: bytes) -> int:
    with store.transaction() as s:
        [(_kind, inbox_id)] = service.receive_mail(s, raw, "smtp", "x@client.test", [], "127.0.0.1")
    return inbox_id


def _mails(game: PlayedGame) -> list[int]:
    """Orders, an illegal one, several commands in one mail, the bid that completes the round and
    the winner's answer (the next round's mails to the other seats are queued inside the command),
    a read-only command and a registered sender without a token (help)."""
    to = {seat: address(game.game_id, seat) for seat in ("p1", "p2", "p3")}
    return [_store(bytes(m)) for m in (
        message("bid 1", to=to["p1"], sender="p1@example.org"),
        message("bid 9", to=to["p2"], sender="p2@example.org"),
        message("status\nbid 2", to=to["p2"], sender="someone@else.example", subject="Re: x"),
        message("bid 3", to=to["p3"], sender="p3@example.org"),
        message("keep", to=to["p3"], sender="p3@example.org"),
        message("help", to=to["p1"], sender="p1@example.org"),
        message("bid 1", sender="p1@example.org"),
    )]


def _drained(ids: list[int], now: datetime, after: int,
             prepared: dict[int, mailprep.Prepared] | None = None,
             ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[int]]:
    """The inbox rows and the outbox rows (ids above `after`) a drain writes, as the database holds
    them, and the ids its delivery tasks name; the drain is rolled back after."""
    inbox_t, outbox_t = InboxMessage.__table__, OutboxMessage.__table__  # type: ignore[attr-defined]
    salts = count()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(steps, "new_salt", lambda: f"salt{next(salts)}")  # the receipts' commitments
        mp.setattr(inboxdrain, "_seen", {})  # not the last run's games (and gameless mails' parse)
        try:
            with store.transaction() as s:
                drained = inboxdrain.drain_chunk(s, now=now, prepared=prepared)
                s.flush()
                inbox_rows = [dict(r) for r in s.connection().execute(
                    select(inbox_t).where(inbox_t.c.id.in_(ids)).order_by(inbox_t.c.id)).mappings()]
                outbox_rows = [dict(r) for r in s.connection().execute(
                    select(outbox_t).where(outbox_t.c.id > after).order_by(outbox_t.c.id)).mappings()]
                raise _Undo
        except _Undo:
            pass
    assert drained.processed == ids
    return inbox_rows, outbox_rows, [getattr(a, "id", a) for kind, a in drained.tasks if kind == "deliver"]


def _orm_writes(mp: pytest.MonkeyPatch) -> None:
    """The previous path: outbox rows as ORM objects, the inbox row's columns set on the object."""

    def write_row(s, row, values) -> None:  # noqa: ANN001
        for name, value in values.items():
            setattr(row, name, value)
        s.add(row)
        s.flush()

    mp.setattr(outboxrows, "queued", lambda _s, _values: None)
    mp.setattr(mailunit, "write_row", write_row)


def test_a_drains_inbox_and_outbox_rows_are_those_the_orm_wrote(db, toy) -> None:  # noqa: ANN001
    game = new_game(seats=3)
    ids = _mails(game)
    now = service.utcnow()
    with store.transaction(write=False) as s:
        after = max(s.exec(select(OutboxMessage.id)).scalars().all(), default=0)  # type: ignore[call-overload]
    fast_in, fast_out, fast_tasks = _drained(ids, now, after)
    with pytest.MonkeyPatch.context() as mp:
        _orm_writes(mp)
        slow_in, slow_out, slow_tasks = _drained(ids, now, after)
    assert [r["status"] for r in fast_in] == ["done"] * len(ids), [r["outcome"] for r in fast_in]
    assert fast_in == slow_in
    assert fast_in[2]["auth"]["from_registered"] is False and fast_in[2]["subject"] == "Re: x"
    replies = [r for r in fast_out if r["kind"] == "reply"]
    assert len(replies) == len(ids) and len(fast_out) > len(replies), "the next round mailed the other seats too"
    assert fast_tasks == [r["id"] for r in fast_out if r["status"] == "pending"]
    assert slow_tasks == [r["id"] for r in slow_out if r["status"] == "pending"]
    assert len(fast_out) == len(slow_out)
    for quick, orm in zip(fast_out, slow_out, strict=True):
        assert quick["created_at"].tzinfo is not None
        assert {k: v for k, v in quick.items() if k not in ("id", "created_at")} == \
            {k: v for k, v in orm.items() if k not in ("id", "created_at")}


def test_a_mail_whose_service_fails_is_recorded_without_any_of_its_writes(db, toy, monkeypatch) -> None:  # noqa: ANN001
    """The service's failure rolls back everything the mail wrote (its order, its mails) and what
    it learnt about the row (signals, seat); the row is dropped with the error, the others stay."""
    game = new_game(seats=4)
    to = {seat: address(game.game_id, seat) for seat in ("p1", "p2")}
    good = _store(bytes(message("bid 1", to=to["p1"], sender="p1@example.org")))
    bad = _store(bytes(message("bid 2", to=to["p2"], sender="p2@example.org")))
    real = inbound.status_footer

    def failing(s, who):  # noqa: ANN001, ANN202 - after the order and before the reply
        if who.seat == "p2":
            raise RuntimeError("footer on fire")
        return real(s, who)

    monkeypatch.setattr(inbound, "status_footer", failing)
    store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s))
    rows = {r.id: r for r in inbox()}
    assert rows[good].status == "done" and rows[good].seat == "p1" and "dkim" in rows[good].auth
    assert rows[bad].status == "dropped" and rows[bad].outcome == "internal error: RuntimeError"
    assert rows[bad].auth == {} and rows[bad].seat == "" and rows[bad].game_id is None
    assert game.page("p1").receipt is not None and game.page("p2").receipt is None


def test_a_drained_order_mail_is_one_savepoint_and_no_orm_write_of_its_rows(db, toy, monkeypatch) -> None:  # noqa: ANN001
    game = new_game(seats=4)
    ids = [_store(bytes(message(f"bid {n}", to=address(game.game_id, "p1"), sender="p1@example.org")))
           for n in (1, 2)]
    with flushed_objects() as flushed, statements() as seen:
        store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s))
    assert [r.status for r in inbox() if r.id in ids] == ["done", "done"]
    savepoints = [q for q in seen if q.startswith("SAVEPOINT")]
    # one per mail (it was three: the drain's, the service's and the command's); on PostgreSQL one
    # more per chunk, around its game claims (released unless it must let go of them: drainclaim.py)
    assert len(savepoints) == len(ids) + (0 if store.is_sqlite() else 1), seen
    assert "InboxMessage" not in flushed and "OutboxMessage" not in flushed
    # the chunk's inbox rows in one executemany after its last mail (mailunit.rows_together)
    assert sum(q.startswith("UPDATE UPDATE inbox") for q in seen) == 1, seen
    last_insert = max(i for i, q in enumerate(seen) if q.startswith("INSERT INSERT INTO outbox"))
    assert last_insert < next(i for i, q in enumerate(seen) if q.startswith("UPDATE UPDATE inbox"))
    assert sum(q.startswith("INSERT INSERT INTO outbox") for q in seen) == len(ids)


@pytest.mark.parametrize("body", ["bid 1", "status\nbid 1"])
def test_a_command_that_fails_after_writing_is_rolled_back_alone(body: str, db, toy, monkeypatch) -> None:  # noqa: ANN001
    """The mail's first command has no savepoint of its own (the mail's is started again in its
    place); a later one has. Either way a command that wrote and then failed leaves nothing, the
    commands before it stay, and the mail is answered."""
    from adjudicator.service.common.errors import ServiceError
    from adjudicator.service.mail import mailcommands

    game = new_game(seats=4)
    to = {seat: address(game.game_id, seat) for seat in ("p1", "p2")}
    failing_mail = _store(bytes(message(body, to=to["p1"], sender="p1@example.org")))
    good = _store(bytes(message("bid 2", to=to["p2"], sender="p2@example.org")))
    real = mailcommands._one

    def one(s, who, cmd, now, out) -> None:  # noqa: ANN001
        real(s, who, cmd, now, out)
        if who.seat == "p1" and cmd.name == "orders":
            s.flush()  # its writes are in the database, then undone
            raise ServiceError("the order was written, then refused")

    monkeypatch.setattr(mailcommands, "_one", one)
    store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s))
    rows = {r.id: r for r in inbox()}
    assert rows[failing_mail].status == rows[good].status == "done"
    assert rows[failing_mail].auth["via"] == "token" and rows[failing_mail].seat == "p1"
    assert game.page("p1").receipt is None and game.page("p2").receipt is not None
    reply = [r for r in outbox_rows() if r.to == "p1@example.org" and r.kind == "reply"][-1]
    assert "the order was written, then refused" in reply.body
    assert ("## Status" in reply.body) == body.startswith("status")


def _html(body: str, **kwargs: str) -> bytes:
    msg = message("", **kwargs)
    msg.set_content(f"<p>{body}</p>", subtype="html")  # HTML only: `trusted` decides its conversion
    return bytes(msg)


def _forged(to: str) -> str:
    """A seat address whose token does not verify."""
    local, domain = to.split("@")
    return f"{local[:-1]}{'b' if local[-1] == 'a' else 'a'}@{domain}"


def _compared(ids: list[int], now: datetime, after: int, prepared: dict[int, mailprep.Prepared]) -> None:
    fast_in, fast_out, fast_tasks = _drained(ids, now, after, prepared)
    slow_in, slow_out, slow_tasks = _drained(ids, now, after)
    assert fast_in == slow_in and len(fast_out) == len(slow_out)
    # (PostgreSQL's sequence goes on after a rollback: the rows are compared without their ids)
    assert [[r["id"] for r in fast_out].index(i) for i in fast_tasks] == \
        [[r["id"] for r in slow_out].index(i) for i in slow_tasks]
    for quick, orm in zip(fast_out, slow_out, strict=True):
        assert {k: v for k, v in quick.items() if k not in ("id", "created_at")} == \
            {k: v for k, v in orm.items() if k not in ("id", "created_at")}


def test_a_chunk_parsed_before_its_transaction_writes_the_same_rows(db, toy, monkeypatch) -> None:  # noqa: ANN001
    """mailprep's work, done before the write lock, gives the rows and replies of the parse under
    the lock: orders, commands, HTML-only mails (whose parse depends on the token), a seat address
    with a forged token (the guess `trusted` is wrong: parsed again, as the untrusted mail it is),
    a bounce. Under the lock only the wrongly guessed mail is parsed; a prepared mail handed to
    another row (other bytes) is not used at all."""
    game = new_game(seats=3)
    ids = _mails(game)
    to = {seat: address(game.game_id, seat) for seat in ("p1", "p2")}
    ids += [_store(raw) for raw in (
        _html("bid 2", to=to["p1"], sender="p1@example.org"),
        _html("bid 1", to=_forged(to["p2"]), sender="p2@example.org"),
        bytes(message("bid 1", to=_forged(to["p1"]), sender="p1@example.org")),
        bytes(message("Delivery failed", to=to["p2"], sender="MAILER-DAEMON@client.test")),
    )]
    now = service.utcnow()
    with store.transaction(write=False) as s:
        after = max(s.exec(select(OutboxMessage.id)).scalars().all(), default=0)  # type: ignore[call-overload]
        prepared = inboxdrain.prepare(s)
    assert sorted(prepared) == ids
    parsed: list[bool] = []
    real = mailprep.parse

    def counted(raw: bytes, *args: Any, **kwargs: Any) -> Any:
        parsed.append(kwargs["trusted"])
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(mailprep, "parse", counted)
    _compared(ids, now, after, prepared)
    assert len(parsed) == 2 + len(ids) - 1, "prepared: 2 parsed again; unprepared: every mail but the bounce"
    parsed.clear()
    _drained(ids, now, after, prepared)
    assert parsed == [False, False], "prepared: only the two forged tokens, guessed trusted, parsed again"
    rotated = dict(zip(ids, [prepared[i] for i in ids[1:] + ids[:1]], strict=True))
    parsed.clear()
    _compared(ids, now, after, rotated)
    assert len(parsed) == 2 * (len(ids) - 1), "another row's preparation is not used"


def test_a_workers_drain_parses_outside_the_write_lock(sqlite_db, toy, monkeypatch) -> None:  # noqa: ANN001
    import threading

    from adjudicator.store import db as store_db

    game = new_game(seats=4)
    ids = [_store(bytes(message(f"bid {n}", to=address(game.game_id, "p1"), sender="p1@example.org")))
           for n in (1, 2)]
    locked: list[bool] = []
    real = mailprep.parse

    def watched(raw: bytes, *args: Any, **kwargs: Any) -> Any:
        locked.append(store_db._hold.thread == threading.get_ident())  # the writers' lock held here?
        return real(raw, *args, **kwargs)

    monkeypatch.setattr(mailprep, "parse", watched)
    drained = inboxdrain.drain()
    assert drained.processed == ids and [r.status for r in inbox() if r.id in ids] == ["done", "done"]
    assert locked == [False, False]
    assert game.page("p1").receipt is not None


def test_a_workers_drain_with_nothing_new_takes_no_turn_of_the_write_lock(sqlite_db, toy) -> None:  # noqa: ANN001
    """Another worker's drain took the rows: this one reads that nothing waits and ends there,
    without BEGIN IMMEDIATE (a turn of the writers' lock that every listener commit waits for)."""
    game = new_game(seats=4)
    first = _store(bytes(message("bid 1", to=address(game.game_id, "p1"), sender="p1@example.org")))
    assert inboxdrain.drain().processed == [first]
    with statements() as seen:
        drained = inboxdrain.drain()
    assert drained.processed == [] and not drained.full
    assert not [q for q in seen if "IMMEDIATE" in q], seen
    later = _store(bytes(message("bid 2", to=address(game.game_id, "p1"), sender="p1@example.org")))
    assert inboxdrain.drain().processed == [later]
