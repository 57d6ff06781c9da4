"""A web form's order without the ORM (service/quickorder.py) leaves the database and answers as the
general path does: each step of a Doge game runs both ways from the same committed state, the
quick way's transaction rolled back, and every row of the game's tables (all columns but ids and
creation times) and the answer are compared. Refusals, reveals, civil disorder, missed
deadlines and standing orders are left to the general path."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service import orders, quickorder, steps
from adjudicator.store import Game, SealedOrder, Seat, StandingOrder
from tests.support.rows import table_rows

TABLES = ("games", "seats", "sealed_orders", "standing_orders", "record_entries", "outbox", "moderator_actions")
# sequences are not rolled back; creation times and a new record entry's `updated_at` are the
# wall clock's, not the order's `now`
LEFT_OUT = {"id", "created_at", "updated_at"}


class _Rollback(Exception):
    pass


def _rows(s: Any) -> dict[str, list[tuple]]:
    return table_rows(s, TABLES, LEFT_OUT)


def _answer(call: Callable[[Any], Any], s: Any) -> Any:
    try:
        sub = call(s)
    except service.ServiceError as exc:
        return type(exc).__name__, str(exc)
    return sub.applied, sub.receipts, sub.error, sub.choices, sub.prompt_token, sub.notes, len(sub.tasks)


@contextmanager
def _spied(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[bool]]:
    taken: list[bool] = []
    real = quickorder.submit

    def spy(*args: Any, **kwargs: Any) -> Any:
        result = real(*args, **kwargs)
        taken.append(result is not None)
        return result

    monkeypatch.setattr(quickorder, "submit", spy)
    yield taken


def both_ways(monkeypatch: pytest.MonkeyPatch, call: Callable[[Any], Any]) -> bool:
    """Run `call(session)` the quick way (rolled back) and the general way (committed); assert the
    same rows and answer; return whether the quick way answered."""
    salts = iter(f"{n:032x}" for n in range(10**6))
    fixed = [next(salts)]
    monkeypatch.setattr(quickorder, "new_salt", lambda: fixed[0])
    monkeypatch.setattr(steps, "new_salt", lambda: fixed[0])
    with _spied(monkeypatch) as taken:
        try:
            with store.transaction() as s:
                quick = _answer(call, s), _rows(s)
                raise _Rollback
        except _Rollback:
            pass
    monkeypatch.setattr(orders, "QUICK_ORDERS", False)
    with store.transaction() as s:
        general = _answer(call, s), _rows(s)
    monkeypatch.setattr(orders, "QUICK_ORDERS", True)
    assert quick[0] == general[0]
    for name in TABLES:
        for a, b in zip(quick[1][name], general[1][name], strict=False):
            assert a == b, (name, [(x, y) for x, y in zip(a, b, strict=True) if x != y])
        assert quick[1][name] == general[1][name], name
    return any(taken)


def test_the_quick_path_writes_what_the_general_path_writes(db, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    policy = service.DeadlinePolicy(step_hours=24, reminder_hours=0, disorder_after=2)
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4, policy=policy)
        tokens = {seat: service.join_game(s, created.game_id, seat, invite, seat, email=f"{seat}@example.org").seat_token
                  for seat, invite in created.invites.items()}
    game_id = created.game_id
    clock = [datetime(2031, 1, 1, tzinfo=UTC)]

    def page(seat: str) -> Any:
        with store.transaction(write=False) as s:
            return service.seat_state(s, game_id, seat, tokens[seat])

    def order(seat: str, choice: int = 0, token: str | None = None, prompt_token: Any = "page",
              chosen: Any = None) -> bool:
        shown = page(seat)
        clock[0] += timedelta(minutes=1)
        picked = shown.prompt["choices"][choice] if chosen is None else chosen
        given = shown.prompt_token if prompt_token == "page" else prompt_token
        return both_ways(monkeypatch, lambda s: service.submit_order(
            s, game_id, seat, token or tokens[seat], picked, given, now=clock[0]))

    def change(kind: type, seat: str, **values: Any) -> None:
        with store.transaction() as s:
            game = s.exec(select(Game).where(Game.public_id == game_id)).one()
            for row in s.exec(select(kind).where(kind.game_id == game.id, kind.seat == seat)):
                for key, value in values.items():
                    setattr(row, key, value)
                s.add(row)

    seats = sorted(tokens)
    first, second, third, last = seats
    assert order(first), "a first sealed order: the row inserted, the wait narrowed"
    assert order(first), "the same order again: nothing but the seat's time"
    assert order(first, 1), "a replaced order"
    assert not order(second, token="x" * 32), "a wrong link is refused by the general path"
    assert not order(second, prompt_token="0" * 32), "a stale page is refused by the general path"
    assert not order(second, chosen={"not": "a choice"}), "an illegal order is refused by the general path"
    assert order(second, prompt_token=None), "no prompt token (not checked)"
    change(SealedOrder, first, origin="standing")
    assert order(first, 1), "the same order as the seat's own: its origin changes"
    change(Seat, third, missed=1)
    assert not order(third), "a missed deadline forgiven: the general path"
    change(Seat, third, disorder=True)
    assert not order(second, 0), "a seat in civil disorder decides at once: the general path"
    change(Seat, third, disorder=False, missed=0)
    with store.transaction() as s:
        game = s.exec(select(Game).where(Game.public_id == game_id)).one()
        s.add(StandingOrder(game_id=game.id, seat=third, text="pass", kind="no such decision"))
    assert not order(second, 1), "standing orders: the general path"
    with store.transaction() as s:
        s.delete(s.exec(select(StandingOrder)).one())
    assert not order(last), "the last order of the group: the reveal, by the general path"
    for seat in seats:  # the next decision, whatever the game asks now
        shown = page(seat)
        if shown.prompt and shown.prompt["choices"]:
            order(seat)


def test_a_sealed_row_committed_while_the_quick_path_waits_for_the_lock_is_read(db, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001, E501
    """The quick path reads the seats and sealed rows after the game's lock: a row the lock's
    holder committed meanwhile counts (here it narrows the wait to the two seats still out)."""
    from adjudicator.service import core
    from tests.support.locking import while_a_sealed_row_is_committed

    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4)
        tokens = {seat: service.join_game(s, created.game_id, seat, invite, seat).seat_token
                  for seat, invite in created.invites.items()}
    game_id = created.game_id
    with store.transaction(write=False) as s:
        page = service.seat_state(s, game_id, "blue", tokens["blue"])
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        group = core.current_prompts(g)["red"].group
    answers = []

    def order() -> None:
        with store.transaction() as s:
            answers.append(service.submit_order(s, game_id, "blue", tokens["blue"], page.prompt["choices"][0],
                                                page.prompt_token))

    with _spied(monkeypatch) as taken:
        while_a_sealed_row_is_committed(game_id, group, "red", order)
    assert taken == [True] and answers and answers[0].receipts
    with store.transaction(write=False) as s:
        assert s.exec(select(Game.waiting_on).where(Game.public_id == game_id)).one() == ["green", "yellow"]
