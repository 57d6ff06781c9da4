"""Concurrent writers to one game: the game-row lock lets exactly one apply."""

from __future__ import annotations

import threading
import time
from datetime import timedelta

from adjudicator import service, store
from adjudicator.service import StaleOrder
from tests.support.play import PlayedGame, new_game


def _to_choose(tg: PlayedGame) -> str:
    tg.submit("p1", "bid 3")
    tg.submit("p2", "bid 1")
    tg.reveal("round-1")
    token = tg.prompt_token("p1")
    assert token
    return token


def test_two_threads_same_order_apply_once(db, toy) -> None:
    tg = new_game(seats=2)
    token = _to_choose(tg)
    inside = threading.Event()
    results: dict[str, object] = {}

    def slow_first() -> None:
        with store.transaction() as s:
            results["a"] = service.submit(s, tg.game_id, "p1", tg.tokens["p1"], "double", token)
            inside.set()
            time.sleep(0.5)  # hold the lock while the other thread tries

    def second() -> None:
        inside.wait(5)
        try:
            with store.transaction() as s:
                results["b"] = service.submit(s, tg.game_id, "p1", tg.tokens["p1"], "double", token)
        except StaleOrder as exc:
            results["b"] = exc

    threads = [threading.Thread(target=slow_first), threading.Thread(target=second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results["a"].applied == ["double"]  # type: ignore[attr-defined]
    assert isinstance(results["b"], StaleOrder)
    assert tg.public().record_length == 3


def test_racing_threads_apply_once(db, toy) -> None:
    tg = new_game(seats=2)
    token = _to_choose(tg)
    barrier = threading.Barrier(4)
    outcomes: list[str] = []
    lock = threading.Lock()

    def go() -> None:
        barrier.wait()
        try:
            with store.transaction() as s:
                sub = service.submit(s, tg.game_id, "p1", tg.tokens["p1"], "keep", token)
            result = "applied" if sub.applied else f"error {sub.error}"
        except StaleOrder:
            result = "stale"
        with lock:
            outcomes.append(result)

    threads = [threading.Thread(target=go) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    assert [e["kind"] for e in tg.export()["entries"]] == ["setup", "orders", "orders"]


def test_concurrent_sweeps_apply_defaults_once(db, toy) -> None:
    tg = new_game(seats=2)
    due = tg.public().deadline
    barrier = threading.Barrier(3)

    def go() -> None:
        barrier.wait()
        with store.transaction() as s:
            service.sweep_deadlines(s, due + timedelta(seconds=1))

    threads = [threading.Thread(target=go) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert tg.public().record_length == 2
