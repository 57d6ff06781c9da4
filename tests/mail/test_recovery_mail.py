"""Inbound mail survives a broker outage, a sender's retry and concurrent mails for one game:
stored means processed, exactly once (issue 15)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta
from types import SimpleNamespace

import pytest

from adjudicator import service, store
from adjudicator.service.upkeep import recovery
from tests.mail.conftest import address, inbox, message, outbox, send
from tests.support.play import PlayedGame, new_game
from workers import inbound
from workers.enqueue import enqueue
from workers.smtp import Handler


def bids(game: PlayedGame, seat: str) -> str | None:
    page = game.page(seat)
    return page.receipt.order_text if page.receipt else None


@contextmanager
def broker_down() -> Iterator[None]:
    def refuse(tasks, app=None) -> None:  # noqa: ANN001 - the enqueue signature
        if list(tasks):
            raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(inbound, "enqueue", refuse)
        yield


def sweep_later(minutes: int = 3) -> recovery.SweepResult:
    with store.transaction() as s:
        result = recovery.sweep(s, now=service.utcnow() + timedelta(minutes=minutes))
    enqueue(result.tasks)  # inline (PBEM_EAGER=1), as a worker would run them
    return result


def test_a_mail_stored_during_a_broker_outage_is_processed_after_it(game: PlayedGame) -> None:
    with broker_down():
        assert send(message("bid 2", to=address(game.game_id, "p1"))) is True  # stored: accepted
    assert [r.status for r in inbox()] == ["new"] and bids(game, "p1") is None
    # the broker is back; nobody sends the task again but the sweep
    assert sweep_later(minutes=0).inbox == []  # a fresh row's own task may still be in flight
    assert sweep_later().inbox == [inbox()[0].id]
    assert inbox()[0].status == "done" and bids(game, "p1") == "bid 2"
    assert len(outbox("p1@example.org", "reply")) == 1
    assert sweep_later(minutes=30).inbox == []  # done: never handed on again


def test_a_retried_delivery_of_a_stored_message_is_processed_once(game: PlayedGame) -> None:
    msg = message("bid 3", to=address(game.game_id, "p2"), mid="<retry@client.test>")
    with broker_down():
        assert send(msg) is True  # stored; the old listener answered 451 here, so senders retried
    assert send(msg) is True  # the retry is no duplicate: the stored message is processed now
    assert bids(game, "p2") == "bid 3" and [r.status for r in inbox()] == ["done"]
    assert send(msg) is False  # now it is a duplicate
    assert len(inbox()) == 1 and len(outbox("p2@example.org", "reply")) == 1


def _smtp(handler: Handler, raw: bytes) -> str:
    session = SimpleNamespace(peer=("127.0.0.1", 4000))
    envelope = SimpleNamespace(original_content=raw, content=raw, mail_from="sender@client.test",
                               rcpt_tos=["pbem@pbem.test"])
    return asyncio.run(handler.handle_DATA(None, session, envelope))


def test_smtp_answers_250_once_stored_even_without_a_broker(game: PlayedGame) -> None:
    raw = bytes(message("bid 1", to=address(game.game_id, "p1")))
    with broker_down():
        assert _smtp(Handler(), raw).startswith("250")
    assert [r.status for r in inbox()] == ["new"]


def test_smtp_answers_451_when_the_database_is_down(game: PlayedGame) -> None:
    raw = bytes(message("bid 1", to=address(game.game_id, "p1")))
    url = store.database_url()
    store.configure("postgresql+psycopg://postgres@127.0.0.1:1/down?connect_timeout=2")  # nobody listens
    try:
        assert _smtp(Handler(), raw).startswith("451")
    finally:
        store.configure(url)
    assert inbox() == []


def test_concurrent_mails_for_one_game_all_apply(db, toy) -> None:  # noqa: ANN001 - fixtures
    """Mails for every seat of one game processed at once: on PostgreSQL the inbox row's foreign
    key used to take a share lock on the game row before the order's FOR UPDATE (deadlocks, mails
    dropped as "internal error"). Now the game row is locked first and a deadlock is retried."""
    game = new_game(seats=4)
    ids: list[int] = []
    for round_ in range(3):
        for seat in ("p1", "p2", "p3", "p4"):
            raw = bytes(message(f"bid {(round_ + int(seat[1])) % 4}", to=address(game.game_id, seat),
                                sender=f"{seat}@example.org"))
            with store.transaction() as s:
                [(_kind, inbox_id)] = service.receive_mail(s, raw, "smtp", "x@client.test", [], "127.0.0.1")
            ids.append(inbox_id)
    barrier = threading.Barrier(len(ids))
    errors: list[BaseException] = []

    def work(inbox_id: int) -> None:
        barrier.wait(30)
        try:
            store.run_in_transaction(lambda s: service.process_mail(s, inbox_id))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work, args=(i,)) for i in ids]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert errors == []
    rows = inbox()
    assert [r.status for r in rows] == ["done"] * len(ids), [r.outcome for r in rows]
    assert not any("internal error" in r.outcome for r in rows)
    # a group completed by the fourth bid is revealed in the same transaction, so a seat's pending
    # bid is one of its own, or none (its round was revealed)
    for seat in ("p1", "p2", "p3", "p4"):
        assert bids(game, seat) in {f"bid {(r + int(seat[1])) % 4}" for r in range(3)} | {None}
    assert game.public().record_length > 1, "the first complete round was revealed"
    assert len(outbox(kind="reply")) == len(ids)
