"""A web form's sealed order and the rows it leaves (steps.seal, pace.settle: the one path): the
sealed row inserted, kept, replaced or made the seat's own again, the seat's `acted_at`, the
game's wait narrowed, the reveal; and the rows read after the game's lock include what its
previous holder committed."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import Game, SealedOrder, Seat


def _game() -> tuple[str, dict[str, str]]:
    policy = service.DeadlinePolicy(step_hours=24, reminder_hours=0, disorder_after=2)
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4, policy=policy)
        tokens = {seat: service.join_game(s, created.game_id, seat, invite, seat).seat_token
                  for seat, invite in created.invites.items()}
    return created.game_id, tokens


def _rows(game_id: str) -> tuple[Game, dict[str, Seat], dict[str, SealedOrder]]:
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        seats = {r.seat: r for r in s.exec(select(Seat).where(Seat.game_id == g.id))}
        sealed = {r.seat: r for r in s.exec(select(SealedOrder).where(SealedOrder.game_id == g.id))}
    return g, seats, sealed


def test_a_sealed_order_inserted_kept_replaced_and_revealed(db) -> None:  # noqa: ANN001
    game_id, tokens = _game()
    clock = [datetime(2031, 1, 1, tzinfo=UTC)]

    def order(seat: str, choice: int = 0) -> Any:
        with store.transaction(write=False) as s:
            page = service.seat_state(s, game_id, seat, tokens[seat])
        clock[0] += timedelta(minutes=1)
        with store.transaction() as s:
            sub = service.submit_order(s, game_id, seat, tokens[seat], page.prompt["choices"][choice],
                                       page.prompt_token, now=clock[0])
        assert not sub.error and sub.receipts, sub
        return sub, page.prompt["choices"][choice]

    first, *others = sorted(tokens)
    g, _seats, _sealed = _rows(game_id)
    waiting, length = list(g.waiting_on), g.record_length
    assert first in waiting

    sub, chosen = order(first)
    g, seats, sealed = _rows(game_id)
    assert sealed[first].order == chosen and sealed[first].origin == ""
    assert sub.receipts[0].commitment == sealed[first].commitment
    assert g.waiting_on == [seat for seat in waiting if seat != first], "the wait narrowed"
    assert seats[first].acted_at == clock[0]

    kept = sealed[first].commitment
    order(first)
    _g, seats, sealed = _rows(game_id)
    assert sealed[first].commitment == kept, "the same order again keeps its row"
    assert seats[first].acted_at == clock[0]

    sub, chosen = order(first, 1)
    _g, _seats, sealed = _rows(game_id)
    assert sealed[first].order == chosen and sealed[first].commitment != kept
    assert sub.receipts[0].commitment == sealed[first].commitment

    with store.transaction() as s:  # as if the seat's standing orders had sealed it
        row = s.exec(select(SealedOrder).where(SealedOrder.seat == first)).one()
        row.origin = "standing"
        s.add(row)
    replaced = sealed[first].commitment
    order(first, 1)
    _g, _seats, sealed = _rows(game_id)
    assert sealed[first].origin == "" and sealed[first].commitment == replaced, "the seat's own order now"

    for seat in others[:-1]:
        order(seat)
    sub, _chosen = order(others[-1])
    g, _seats, sealed = _rows(game_id)
    assert sub.receipts[0].revealed and sealed == {}, "the last order of the group reveals it"
    assert g.record_length == length + 1
    assert g.waiting_on == sorted(service.common.core.current_prompts(g)), "the next decision's wait"


def test_a_sealed_row_committed_while_an_order_waits_for_the_lock_is_read(db) -> None:  # noqa: ANN001
    """The seats and sealed rows are read after the game's lock (store/gamelock.py): a row the
    lock's holder committed meanwhile counts (here it narrows the wait to the two seats still out)."""
    from adjudicator.service.common import core
    from tests.support.locking import while_a_sealed_row_is_committed

    game_id, tokens = _game()
    with store.transaction(write=False) as s:
        page = service.seat_state(s, game_id, "blue", tokens["blue"])
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        group = core.current_prompts(g)["red"].group
    answers = []

    def order() -> None:
        with store.transaction() as s:
            answers.append(service.submit_order(s, game_id, "blue", tokens["blue"], page.prompt["choices"][0],
                                                page.prompt_token))

    while_a_sealed_row_is_committed(game_id, group, "red", order)
    assert answers and answers[0].receipts
    g, _seats, _sealed = _rows(game_id)
    assert g.waiting_on == ["green", "yellow"]
