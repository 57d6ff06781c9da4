"""Two transactions on one game: one holds the game's lock with a sealed order written, the other
starts while it waits (lock order tests: rows read after the lock include what its holder committed)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from adjudicator import store
from adjudicator.service.common import core
from adjudicator.store import SealedOrder


def while_a_sealed_row_is_committed(game_id: str, group: str, seat: str, waiter: Callable[[], None]) -> None:
    """`waiter()` runs once another transaction holds the game's lock with `seat`'s sealed row in
    `group` written; that transaction commits half a second later."""
    holding = threading.Event()

    def holder() -> None:
        with store.transaction() as s:
            locked = core.locked_game(s, game_id)
            s.add(SealedOrder(game_id=locked.id, group=group, seat=seat, order={}, salt="s", commitment="c"))
            s.flush()
            holding.set()
            time.sleep(0.5)  # the waiter now waits for the lock

    def waiting() -> None:
        holding.wait(10)
        waiter()

    threads = [threading.Thread(target=holder), threading.Thread(target=waiting)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
