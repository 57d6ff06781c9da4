"""The inbox drain (issue 16): stored mails processed a chunk per transaction, each exactly once,
in arrival order; one failing mail neither rolls back nor blocks the others; two drains at once
process nothing twice; the listener's wake-ups are coalesced."""

from __future__ import annotations

import threading
import time

import pytest

from adjudicator import service, store
from adjudicator.service.mail import inboxdrain
from adjudicator.service.upkeep import recovery
from tests.mail.conftest import address, inbox, message, outbox
from tests.support.play import PlayedGame, new_game
from workers import drainwake
from workers.enqueue import outbox_id


def stored(game: PlayedGame, seat: str, body: str) -> int:
    """A mail received (as the listener stores it) and not processed."""
    raw = bytes(message(body, to=address(game.game_id, seat), sender=f"{seat}@example.org"))
    with store.transaction() as s:
        [(_kind, inbox_id)] = service.receive_mail(s, raw, "smtp", "x@client.test", [], "127.0.0.1")
    return inbox_id


def drain(limit: int = inboxdrain.CHUNK) -> inboxdrain.Drained:
    return store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s, limit))


def bids(game: PlayedGame, seat: str) -> str | None:
    page = game.page(seat)
    return page.receipt.order_text if page.receipt else None


def test_a_drain_processes_every_stored_mail_once_in_arrival_order(db, toy) -> None:  # noqa: ANN001
    one, two = new_game(seats=3), new_game(seats=3)
    ids = [stored(g, seat, f"bid {n}") for n in range(2) for g in (one, two) for seat in ("p1", "p2")]
    first = drain(limit=5)
    assert first.full and first.processed == ids[:5]
    assert drain(limit=5).processed == ids[5:] and drain(limit=5).processed == []
    assert [r.status for r in inbox()] == ["done"] * len(ids), [r.outcome for r in inbox()]
    # each seat's later mail replaced its earlier sealed bid: the order of arrival was kept
    assert [bids(g, seat) for g in (one, two) for seat in ("p1", "p2")] == ["bid 1"] * 4
    assert len(outbox(kind="reply")) == len(ids), "one reply per mail, none twice"
    replies = outbox("p1@example.org", "reply")
    assert "bid 0" in replies[0].body and "bid 1" in replies[-1].body


def test_a_failing_mail_is_answered_and_the_others_of_its_chunk_stay_applied(db, toy, monkeypatch) -> None:  # noqa: ANN001
    game = new_game(seats=4)  # p4 never bids: the round stays open
    good, bad, also_good = stored(game, "p1", "bid 1"), stored(game, "p2", "bid 9"), stored(game, "p2", "bid 2")
    drain()
    rows = {r.id: r for r in inbox()}
    assert [rows[i].status for i in (good, bad, also_good)] == ["done"] * 3
    assert bids(game, "p1") == "bid 1" and bids(game, "p2") == "bid 2"
    # the illegal bid got its clear reply, listing the legal ones
    assert "Not applied" in outbox("p2@example.org", "reply")[0].body

    # a mail whose processing fails outside the service's own error handling: rolled back alone,
    # left `new` with its error for the recovery sweep, which processes it on its own later
    later = [stored(game, "p1", "bid 0"), stored(game, "p3", "bid 3"), stored(game, "p2", "bid 1")]
    real = inboxdrain.process_locked

    def failing(s, row, now, *prepared):  # noqa: ANN001, ANN002, ANN202 - process_locked's signature
        if row.id == later[1]:
            real(s, row, now, *prepared)  # its writes are made, then lost with its savepoint
            raise RuntimeError("disk on fire")
        return real(s, row, now, *prepared)

    monkeypatch.setattr(inboxdrain, "process_locked", failing)
    drain()
    rows = {r.id: r for r in inbox()}
    assert rows[later[0]].status == rows[later[2]].status == "done"
    assert rows[later[1]].status == "new" and "disk on fire" in rows[later[1]].last_error
    assert bids(game, "p1") == "bid 0" and bids(game, "p2") == "bid 1" and bids(game, "p3") is None
    assert drain().processed == [], "a drain passes the failed row by: it cannot stall every drain"
    monkeypatch.setattr(inboxdrain, "process_locked", real)
    with store.transaction() as s:
        result = recovery.sweep(s, now=service.utcnow() + recovery.grace())
    assert result.inbox == [later[1]]
    store.run_in_transaction(lambda s: service.process_mail(s, later[1]))
    assert {r.id: r.status for r in inbox()}[later[1]] == "done" and bids(game, "p3") == "bid 3"


def test_two_drains_at_once_process_nothing_twice(db, toy) -> None:  # noqa: ANN001
    games = [new_game(seats=3) for _ in range(2)]
    ids = [stored(g, seat, f"bid {n % 4}") for n in range(6) for g in games for seat in ("p1", "p2", "p3")]
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []
    processed: list[int] = []

    def work() -> None:
        barrier.wait(30)
        try:
            while True:
                result = drain(limit=4)
                processed.extend(result.processed)
                if not result.full:
                    return
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=work) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert errors == []
    assert sorted(processed) == ids, "every row handled by exactly one drain"
    rows = inbox()
    assert [r.status for r in rows] == ["done"] * len(ids)
    assert not any("internal error" in r.outcome for r in rows)
    assert len(outbox(kind="reply")) == len(ids)


class CountingApp:
    """Stands in for a Celery app: counts the drain messages published."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send_task(self, name: str, args: tuple = (), expires: float | None = None) -> None:
        self.sent.append(name)


def test_the_listeners_wake_ups_are_coalesced_and_none_is_lost(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PBEM_EAGER", raising=False)
    app = CountingApp()
    waker = drainwake.DrainWaker(app)  # type: ignore[arg-type]
    for _ in range(200):  # a burst of stored mails
        waker.request()
    deadline = time.monotonic() + 10
    while not app.sent and time.monotonic() < deadline:
        time.sleep(0.01)
    time.sleep(3 * drainwake.WINDOW)
    assert app.sent and set(app.sent) == {"workers.tasks.drain_inbox"}
    assert len(app.sent) <= 2, "one drain for the burst (and at most one for the mails during its publish)"
    before = len(app.sent)
    waker.request()  # a mail after the publishes: it gets a drain of its own
    while len(app.sent) == before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(app.sent) == before + 1


def test_the_listener_stores_a_mail_and_wakes_a_drain_that_answers_it(game: PlayedGame,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    from workers import inbound
    from workers.tasks import drain_inbox

    monkeypatch.delenv("PBEM_EAGER", raising=False)
    app = CountingApp()
    raw = bytes(message("bid 2", to=address(game.game_id, "p1")))
    assert inbound.accept(raw, "smtp", "x@client.test", [], "127.0.0.1", app=app) is True  # type: ignore[arg-type]
    deadline = time.monotonic() + 10
    while not app.sent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert app.sent == ["workers.tasks.drain_inbox"] and [r.status for r in inbox()] == ["new"]
    monkeypatch.setenv("PBEM_EAGER", "1")  # the drain's own tasks (the reply's delivery) inline
    drain_inbox()
    assert [r.status for r in inbox()] == ["done"] and bids(game, "p1") == "bid 2"
    assert [r.status for r in outbox("p1@example.org", "reply")] == ["sent"]


def test_a_drain_that_empties_the_inbox_sends_its_replies_itself(db, toy, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    """No `deliver_batch` through the broker for the replies of a drain that found no more rows
    (issue 31); one that stops at DRAIN_SECONDS publishes its replies with the next drain."""
    from workers import tasks

    monkeypatch.delenv("PBEM_EAGER", raising=False)
    published: list[tuple] = []
    monkeypatch.setattr(tasks, "enqueue", lambda batch, **_kw: published.extend(batch))
    game = new_game(seats=3)
    ids = [stored(game, seat, "bid 1") for seat in ("p1", "p2")]
    tasks.drain_inbox()
    assert [r.status for r in inbox()] == ["done", "done"]
    assert [r.status for r in outbox(kind="reply")] == ["sent", "sent"], "sent by the drain"
    assert not [t for t in published if t[0] in ("deliver", "deliver_batch")]
    tasks.deliver_here([("deliver", r.id) for r in outbox(kind="reply")])  # run twice: sent once
    assert [(r.status, r.attempts) for r in outbox(kind="reply")] == [("sent", 1), ("sent", 1)]

    later = stored(game, "p3", "bid 2")
    monkeypatch.setattr(tasks, "DRAIN_SECONDS", 0.0)
    monkeypatch.setattr(tasks.service, "drain_inbox", lambda: inboxdrain.drain(limit=1))  # a full chunk
    published.clear()
    tasks.drain_inbox()
    assert [r.id for r in inbox() if r.status == "done"] == [*ids, later]
    [pending] = [r.id for r in outbox(kind="reply") if r.status == "pending"]
    sent_on = [(t[0], outbox_id(t[1])) for t in published if t[0] in ("deliver", "deliver_batch")]
    assert sent_on == [("deliver", pending)]
    assert published[-1] == ("drain",)
