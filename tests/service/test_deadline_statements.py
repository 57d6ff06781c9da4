"""A deadline's work is a handful of SQL statements (issue 16): one snapshot of the game read
once, the writes sent together at the end (one record insert, one game update, one multi-row
outbox insert), and the count does not grow with the record's length."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

from sqlalchemy import event
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.clock import as_utc
from adjudicator.store import Game, SealedOrder


@contextmanager
def statements() -> Iterator[list[str]]:
    seen: list[str] = []

    def note(_conn, _cursor, statement, *_args) -> None:  # noqa: ANN001
        seen.append(statement.split(None, 1)[0].upper() + " " + statement.split("\n")[0][:60])

    engine = store.get_engine()
    event.listen(engine, "before_cursor_execute", note)
    try:
        yield seen
    finally:
        event.remove(engine, "before_cursor_execute", note)


def doge_game() -> str:
    policy = service.DeadlinePolicy(step_hours=24, reminder_hours=0, disorder_after=0)
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4, policy=policy)
        for seat, invite in created.invites.items():
            service.join_game(s, created.game_id, seat, invite, seat, email=f"{seat}@example.org")
    return created.game_id


def deadline(game_id: str) -> tuple[list[str], list]:
    with store.transaction(write=False) as s:
        due = as_utc(s.exec(select(Game.due_at).where(Game.public_id == game_id)).one())
    with statements() as seen, store.transaction() as s:
        tasks = service.sweep_game(s, game_id, due + timedelta(seconds=1))
    return seen, tasks


def test_a_deadline_is_a_handful_of_statements_that_does_not_grow_with_the_record(db) -> None:  # noqa: ANN001
    game_id = doge_game()
    first, tasks = deadline(game_id)
    assert len(tasks) == 4, "a 'your move' mail to each of the four seats"
    assert sum(s.startswith("INSERT") and "outbox" in s for s in first) == 1, f"one multi-row outbox insert: {first}"
    for n in range(30):  # the record grows by an entry or more a deadline, through every kind of decision
        seen, tasks = deadline(game_id) if n else (first, tasks)
        assert len(seen) <= 12, seen
        assert sum(s.startswith("SELECT") and "record_entries" in s for s in seen) == 1, "read once, in the snapshot"
        assert sum(s.startswith("UPDATE") and "games" in s for s in seen) == 1, "one game update"
        assert sum(s.startswith("INSERT") and "outbox" in s for s in seen) == (1 if tasks else 0)
        assert sum(s.startswith("INSERT") and "record_entries" in s for s in seen) == 1
    with store.transaction(write=False) as s:
        assert s.exec(select(Game.record_length).where(Game.public_id == game_id)).one() > 30


def test_the_snapshot_sees_rows_added_and_deleted_in_its_transaction(db) -> None:  # noqa: ANN001
    from adjudicator.service import snapshot
    from adjudicator.service.core import current_prompts, sealed_rows, seats_of
    from adjudicator.store import SealedOrder, Seat

    game_id = doge_game()
    with store.transaction() as s:
        g = snapshot.load(s, game_id)
        assert g is not None
        group = next(p.group for p in current_prompts(g).values() if p.sealed)
        assert sealed_rows(s, g, group) == {}
        row = SealedOrder(game_id=g.id, group=group, seat="red", order={}, salt="s", commitment="c")
        s.add(row)
        assert set(sealed_rows(s, g, group)) == {"red"}, "a row added, not yet written"
        s.flush()
        assert set(sealed_rows(s, g, group)) == {"red"}, "and once written"
        s.delete(row)
        assert sealed_rows(s, g, group) == {}, "a row deleted, not yet written"
        s.flush()
        assert sealed_rows(s, g, group) == {}, "and once written"
        fresh = s.exec(select(Seat).where(Seat.game_id == g.id).order_by(Seat.position)).all()
        assert seats_of(s, g) == list(fresh), "the seats, in seat order"



def test_an_order_replacing_a_sealed_one_is_one_flush_and_no_game_update(db) -> None:  # noqa: ANN001
    """The hot path of `pbem bench http`: the sealed row's UPDATE goes out with the seat's in the
    transaction's one flush, and an unchanged wait does not write the game row."""
    from sqlalchemy.orm import Session

    policy = service.DeadlinePolicy(step_hours=24, reminder_hours=0, disorder_after=0)
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4, policy=policy)
        tokens = {seat: service.join_game(s, created.game_id, seat, invite, seat).seat_token
                  for seat, invite in created.invites.items()}
    game_id, token = created.game_id, tokens["red"]
    flushes: list[set[str]] = []

    def flushed(session, *_args) -> None:  # noqa: ANN001, ANN002
        flushes.append({type(o).__name__ for o in session.dirty})

    event.listen(Session, "before_flush", flushed)
    try:
        for n in range(3):
            with store.transaction(write=False) as s:
                page = service.seat_state(s, game_id, "red", token)
            flushes.clear()
            with statements() as seen, store.transaction() as s:
                sub = service.submit_order(s, game_id, "red", token, page.prompt["choices"][n % 2], page.prompt_token)
            assert sub.receipts and not sub.error
            if n == 0:
                continue  # the first order inserts the row, flushed at once for a reveal to delete
            writes = [w for w in seen if w.split()[0] in ("INSERT", "UPDATE", "DELETE")]
            assert len(flushes) == 1, f"one flush per order: {seen}"
            assert flushes[0] == {"SealedOrder", "Seat"}, "an unchanged wait leaves the game row out of the flush"
            assert len(writes) == 2, writes
            assert any("sealed_orders" in w for w in writes) and any("seats" in w for w in writes), writes
    finally:
        event.remove(Session, "before_flush", flushed)
    with store.transaction(write=False) as s:
        assert service.seat_state(s, game_id, "red", token).receipt.commitment == sub.receipts[0].commitment


def test_a_sealed_row_not_yet_written_is_written_when_replaced(db) -> None:  # noqa: ANN001
    """Only a row already in the database waits for the last flush: a reveal may delete the row
    in the same transaction, which a row never written cannot be."""
    from sqlalchemy import inspect

    from adjudicator.engine import get_game
    from adjudicator.service import snapshot
    from adjudicator.service.clock import utcnow
    from adjudicator.service.core import current_prompts
    from adjudicator.service.orders import seal

    game_id = doge_game()
    with store.transaction() as s:
        g = snapshot.load(s, game_id)
        prompt = current_prompts(g)["red"]
        pending = SealedOrder(game_id=g.id, group=prompt.group, seat="red", order=prompt.choices[0], salt="s",
                              commitment="c")
        s.add(pending)
        seal(s, g, get_game("doge"), "red", prompt, prompt.choices[1], utcnow())
        assert inspect(pending).persistent
        s.delete(pending)  # as a reveal does
    with store.transaction(write=False) as s:
        assert not s.exec(select(SealedOrder)).all()
