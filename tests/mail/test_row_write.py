"""A drained order mail's sealed order and its seat's `acted_at` as Core UPDATEs (store/rowwrite.py)
instead of a flush: the rows and replies are those of the orders that stood, also across a mail
whose command wrote and then failed (its savepoint rolled back: the next mail of the chunk must
read the database's row, not the object's undone values)."""

from __future__ import annotations

from datetime import datetime
from itertools import count
from typing import Any

import pytest
from sqlalchemy import event
from sqlmodel import Session

from adjudicator import service, store
from adjudicator.service.common.errors import ServiceError
from adjudicator.service.mail import inboxdrain, mailcommands
from adjudicator.service.play import steps
from tests.mail.conftest import address, message
from tests.mail.test_drain_writes import _store
from tests.service.test_deadline_statements import statements
from tests.support.play import PlayedGame, new_game
from tests.support.rows import flushed_objects, table_rows

TABLES = ("games", "seats", "sealed_orders", "record_entries", "outbox", "inbox")
LEFT_OUT = {"id", "created_at", "updated_at", "received_at"}  # sequences and wall clocks


class _Undo(Exception):
    pass


def _game_with_orders() -> PlayedGame:
    """Four seats; p1 and p2 have sealed orders (committed): the chunk's orders replace them."""
    game = new_game(seats=4)
    for seat in ("p1", "p2"):
        _store(bytes(message("bid 1", to=address(game.game_id, seat), sender=f"{seat}@example.org")))
    store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s))
    return game


def _chunk(game: PlayedGame) -> list[int]:
    to = {seat: address(game.game_id, seat) for seat in ("p1", "p2", "p3", "p4")}
    return [_store(bytes(message(body, to=to[seat], sender=f"{seat}@example.org"))) for seat, body in (
        ("p1", "bid 2"),  # a replacement
        ("p1", "bid 3"),  # written, then refused (below): rolled back
        ("p1", "status"),  # must show bid 2, the database's row
        ("p2", "bid 1"),  # the same order again: nothing to write
        ("p2", "bid 2\nbid 3"),  # the second line replaces the first's row
        ("p3", "bid 2"),
        ("p4", "bid 0"),  # completes the round: the reveal deletes the rows
    )]


def _refuse_bid_3(monkeypatch: pytest.MonkeyPatch) -> None:
    real = mailcommands._one

    def one(s, who, cmd, now, out) -> None:  # noqa: ANN001
        real(s, who, cmd, now, out)
        if cmd.name == "orders" and cmd.text.strip() == "bid 3" and who.seat == "p1":
            raise ServiceError("written, then refused")

    monkeypatch.setattr(mailcommands, "_one", one)


def _rows(s: Any) -> dict[str, list[tuple]]:
    return table_rows(s, TABLES, LEFT_OUT)


def _drained(now: datetime) -> dict[str, list[tuple]]:
    """The rows after draining the chunk (rolled back). Every object loaded is held until the
    end, as any caller's reference may hold one: a row a rollback did not expire stays stale then
    (without a reference the identity map may let it go, and the next read loads it afresh)."""
    salts, held = count(), []

    def hold(_session: Session, instance: Any) -> None:
        held.append(instance)

    event.listen(Session, "loaded_as_persistent", hold)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(steps, "new_salt", lambda: f"salt{next(salts)}")
        try:
            with store.transaction() as s:
                inboxdrain.drain_chunk(s, now=now)
                rows = _rows(s)
                raise _Undo
        except _Undo:
            pass
        finally:
            event.remove(Session, "loaded_as_persistent", hold)
    return rows


def test_core_updates_leave_the_rows_and_replies_of_the_orders_that_stood(db, toy, monkeypatch) -> None:  # noqa: ANN001
    game = _game_with_orders()
    ids = _chunk(game)
    _refuse_bid_3(monkeypatch)
    now = service.utcnow()
    rows = _drained(now)
    # the round was revealed with the orders that stood: p1's bid 2 (its bid 3 was undone), p2's
    # second line, p3's and p4's; the sealed rows went with the reveal
    assert rows["sealed_orders"] == []
    [entry] = [r for r in rows["record_entries"] if "'orders'" in r]
    assert "{'p1': 2, 'p2': 3, 'p3': 2, 'p4': 0}" in "".join(entry), entry
    # every seat acted in this chunk, at its `now` (the undone mail's write went with its savepoint)
    acted = [r for r in rows["seats"] if repr(now) in r]
    assert len(acted) == 4, rows["seats"]
    replies = [str(r) for r in rows["outbox"] if "'reply'" in r]
    assert len(replies) == len(ids) + 2  # and the two of the committed orders
    assert sum("written, then refused" in r for r in replies) == 1
    [status] = [r for r in replies if "## Status" in r]
    assert "Your sealed order: `bid 2`" in status, status


def test_a_replacing_order_mail_flushes_no_seat_and_no_sealed_order(db, toy) -> None:  # noqa: ANN001
    game = _game_with_orders()
    ids = [_store(bytes(message(f"bid {n}", to=address(game.game_id, "p1"), sender="p1@example.org")))
           for n in (2, 3)]
    with flushed_objects() as flushed, statements() as seen:
        store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s))
    assert flushed == [], flushed
    assert sum("UPDATE sealed_orders" in q for q in seen) == len(ids)
    # the same `now` for the chunk: the second mail's acted_at changes nothing, so no statement
    assert sum("UPDATE seats" in q for q in seen) == 1
    assert game.page("p1").receipt.order_text == "bid 3"
