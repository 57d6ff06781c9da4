"""PostgreSQL drains on disjoint games (issue 16): a drain takes the rows of the games it can lock
without waiting, so one drain holding a game does not stop another from draining the other
games' mails; a game's mails stay in arrival order; a mail naming several games is processed,
and never starved by drains that each hold one of its games."""

from __future__ import annotations

import threading
import time

from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.mail import inboxdrain
from adjudicator.service.mail.drainclaim import pick
from adjudicator.store import Game, InboxMessage, lock_game
from tests.mail.conftest import address, inbox, message
from tests.support.play import PlayedGame, new_game


def stored(to: str | list[str], sender: str, body: str) -> int:
    raw = bytes(message(body, to=", ".join([to] if isinstance(to, str) else to), sender=sender))
    with store.transaction() as s:
        [(_kind, inbox_id)] = service.receive_mail(s, raw, "smtp", "x@client.test", [], "127.0.0.1")
    return inbox_id


def drain(limit: int = inboxdrain.CHUNK) -> inboxdrain.Drained:
    return store.run_in_transaction(lambda s: inboxdrain.drain_chunk(s, limit))


def status() -> dict[int, str]:
    return {r.id or 0: r.status for r in inbox()}


def bids(game: PlayedGame, seat: str) -> str | None:
    page = game.page(seat)
    return page.receipt.order_text if page.receipt else None


class Holder:
    """Another transaction holding a game's lock (as a drain working on that game does)."""

    def __init__(self, game_id: str) -> None:
        self.locked, self.release = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._hold, args=(game_id,))
        self.thread.start()
        assert self.locked.wait(10)

    def _hold(self, game_id: str) -> None:
        with store.transaction() as s:
            lock_game(s, game_id)
            self.locked.set()
            self.release.wait(30)

    def stop(self) -> None:
        self.release.set()
        self.thread.join(10)


def in_thread(fn):  # noqa: ANN001, ANN201 - a callable and its (thread, results) pair
    results: list[object] = []
    thread = threading.Thread(target=lambda: results.append(fn()), daemon=True)
    thread.start()
    return thread, results


def test_pick_keeps_each_games_order_and_takes_a_mail_of_several_games_only_with_all_of_them() -> None:
    games = {1: ["a"], 2: ["a", "b"], 3: ["b"], 4: ["a"], 5: ["c"], 6: [], 7: ["b"]}
    order = sorted(games)
    assert pick(order, games, {"a", "b", "c"}, set()) == ([1, 2, 3, 4, 5, 6, 7], None)
    # without b: the mail of a and b stops both games (rows 3, 4, 7 wait); c and the gameless row go
    assert pick(order, games, {"a", "c"}, set()) == ([1, 5, 6], 2)
    assert pick(order, games, {"a", "c"}, {"b"}) == ([1, 5, 6], None)
    assert pick(order, games, set(), set()) == ([6], 1)


def test_a_drain_takes_the_other_games_mails_while_one_game_is_held(pg_db, toy) -> None:  # noqa: ANN001
    one, two = new_game(seats=3), new_game(seats=3)
    ids = {(g.game_id, n): stored(address(g.game_id, "p1"), "p1@example.org", f"bid {n}")
           for n in (1, 2) for g in (one, two)}
    holder = Holder(one.game_id)
    try:
        thread, results = in_thread(drain)
        thread.join(10)
        assert not thread.is_alive(), "the drain waited for the held game instead of draining the other"
        [drained] = results
        assert drained.processed == [ids[two.game_id, 1], ids[two.game_id, 2]]
        assert drained.full, "rows were left behind: the worker drains again"
        assert [status()[ids[one.game_id, n]] for n in (1, 2)] == ["new", "new"]
    finally:
        holder.stop()
    assert drain().processed == [ids[one.game_id, 1], ids[one.game_id, 2]]
    assert set(status().values()) == {"done"}
    assert bids(one, "p1") == bids(two, "p1") == "bid 2"


def test_two_drains_at_once_work_on_different_games(pg_db, toy) -> None:  # noqa: ANN001
    """Each drain holds its games until it commits; the second gets the other game meanwhile."""
    one, two = new_game(seats=3), new_game(seats=3)
    ids = [stored(address(g.game_id, seat), f"{seat}@example.org", "bid 1")
           for g in (one, two) for seat in ("p1", "p2")]
    first_holds, go_on = threading.Event(), threading.Event()

    def slow_first(s) -> inboxdrain.Drained:  # noqa: ANN001
        drained = inboxdrain.drain_chunk(s, limit=2)  # the oldest: game one's two mails
        first_holds.set()
        go_on.wait(30)  # its transaction stays open, game one locked
        return drained

    thread, first = in_thread(lambda: store.run_in_transaction(slow_first))
    assert first_holds.wait(10)
    second, results = in_thread(drain)
    second.join(10)
    go_on.set()
    thread.join(10)
    assert not second.is_alive() and results[0].processed == ids[2:], "the second drain took game two"
    assert first[0].processed == ids[:2]
    assert set(status().values()) == {"done"}


def test_a_games_later_mail_waits_for_its_earlier_one_of_several_games(pg_db, toy) -> None:  # noqa: ANN001
    one, two, three = (new_game(seats=3) for _ in range(3))
    early = stored(address(two.game_id, "p1"), "p1@example.org", "bid 1")
    both = stored([address(two.game_id, "p1"), address(one.game_id, "p1")], "p1@example.org", "bid 2")
    later = stored(address(two.game_id, "p1"), "p1@example.org", "bid 3")
    other = stored(address(three.game_id, "p1"), "p1@example.org", "bid 1")
    holder = Holder(one.game_id)
    try:
        thread, results = in_thread(drain)
        thread.join(10)
        assert not thread.is_alive()
        assert results[0].processed == [early, other]
        assert [status()[i] for i in (both, later)] == ["new", "new"], "game two's later mail waits"
    finally:
        holder.stop()
    assert drain().processed == [both, later]
    assert bids(two, "p1") == "bid 3", "game two's mails applied in arrival order"
    assert set(status().values()) == {"done"}


def test_the_oldest_mail_of_several_games_is_not_starved_by_a_split(pg_db, toy) -> None:  # noqa: ANN001
    """A drain that got only some of the oldest mail's games lets them all go and waits for them,
    in order, holding none: that mail is processed first once the holder commits."""
    first, second = sorted((new_game(seats=3), new_game(seats=3)), key=lambda g: g.game_id)
    both = stored([address(second.game_id, "p1"), address(first.game_id, "p1")], "p1@example.org", "bid 1")
    rest = [stored(address(second.game_id, "p2"), "p2@example.org", "bid 2"),
            stored(address(first.game_id, "p2"), "p2@example.org", "bid 2")]
    holder = Holder(first.game_id)  # the drain gets the second game only, without waiting
    try:
        thread, results = in_thread(drain)
        time.sleep(0.5)
        assert thread.is_alive(), "it waits for the oldest mail's games"
        with store.transaction() as s:  # waiting for the first game, it let the second go
            found = s.exec(select(Game).where(Game.public_id == second.game_id).with_for_update(nowait=True))
            assert found.first() is not None
    finally:
        holder.stop()
    thread.join(10)
    assert results[0].processed == [both, *rest]
    assert set(status().values()) == {"done"}


def test_a_mail_locked_elsewhere_holds_back_its_games_later_mails(pg_db, toy) -> None:  # noqa: ANN001
    """The recovery sweep locks inbox rows without their games: a drain passes such a row by, and
    its game's later mails with it (not before it), and drains again."""
    one, two = new_game(seats=3), new_game(seats=3)
    locked = stored(address(one.game_id, "p1"), "p1@example.org", "bid 1")
    later = stored(address(one.game_id, "p1"), "p1@example.org", "bid 2")
    other = stored(address(two.game_id, "p1"), "p1@example.org", "bid 1")
    with store.transaction() as s:
        s.exec(select(InboxMessage).where(InboxMessage.id == locked).with_for_update()).one()
        thread, results = in_thread(drain)
        thread.join(10)
        assert not thread.is_alive()
    assert results[0].processed == [other] and results[0].full
    assert [status()[i] for i in (locked, later)] == ["new", "new"]
    assert drain().processed == [locked, later] and bids(one, "p1") == "bid 2"


def test_a_signon_mail_is_one_of_the_games_mails_it_names(pg_db, toy) -> None:  # noqa: ANN001
    """A mail that names its game only by a SIGNON in its body is locked and ordered with that
    game's mails: it waits while the game is held, and a later mail of the game waits for it."""
    from adjudicator.service.common.core import find_game, seat_row
    from adjudicator.service.common.tokens import signon_password

    one, two = new_game(seats=3), new_game(seats=3)
    with store.transaction(write=False) as s:
        password = signon_password(seat_row(s, find_game(s, one.game_id), "p1").seat_token_hash, one.game_id, "p1")
    signon = stored("pbem@pbem.test", "p1@example.org", f"SIGNON {one.game_id} p1 {password}\nbid 1")
    later = stored(address(one.game_id, "p1"), "p1@example.org", "bid 2")
    other = stored(address(two.game_id, "p1"), "p1@example.org", "bid 1")
    holder = Holder(one.game_id)
    try:
        thread, results = in_thread(drain)
        thread.join(10)
        assert not thread.is_alive() and results[0].processed == [other]
        assert [status()[i] for i in (signon, later)] == ["new", "new"]
    finally:
        holder.stop()
    assert drain().processed == [signon, later]
    assert {r.id: r.auth.get("via") for r in inbox()}[signon] == "password" and bids(one, "p1") == "bid 2"
