"""A deadline's work is a handful of SQL statements (issue 16): one snapshot of the game read
once, the writes sent together at the end (one record insert, one game update, one multi-row
outbox insert), and the count does not grow with the record's length."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timedelta

from sqlalchemy import event
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.common.clock import as_utc
from adjudicator.store import Game, SealedOrder, Seat
from tests.support.play import verify_addresses


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
    verify_addresses(*(f"{seat}@example.org" for seat in created.invites))  # their owners confirmed them
    with store.transaction() as s:
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
    assert not any(f"SELECT {table}." in s for s in first for table in ("sealed_orders", "standing_orders")), \
        "a game without sealed or standing orders reads neither table"
    reads = []
    for n in range(30):  # the record grows by an entry or more a deadline, through every kind of decision
        unmailed = _unmailed_entries(game_id)
        seen, tasks = deadline(game_id) if n else (first, tasks)
        assert len(seen) <= 10, seen
        # once, in the snapshot; none when every seat was mailed since the last entry (it would be empty)
        reads.append(sum(s.startswith("SELECT") and "record_entries" in s for s in seen))
        if n:
            assert reads[-1] == (1 if unmailed else 0), (unmailed, seen)
        assert sum(s.startswith("UPDATE") and "games" in s for s in seen) == 1, "one game update"
        assert sum(s.startswith("INSERT") and "outbox" in s for s in seen) == (1 if tasks else 0)
        assert sum(s.startswith("INSERT") and "record_entries" in s for s in seen) == 1
    with store.transaction(write=False) as s:
        assert s.exec(select(Game.record_length).where(Game.public_id == game_id)).one() > 30
    assert 0 in reads[1:] and 1 in reads[1:], reads  # both cases met


def _unmailed_entries(game_id: str) -> bool:
    """Whether some seat with an address has not been mailed the game's last record entry."""
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        seats = s.exec(select(Seat).where(Seat.game_id == g.id)).all()
        return min((r.mailed_seq for r in seats if r.email), default=g.record_length) < g.record_length


def test_the_snapshot_sees_rows_added_and_deleted_in_its_transaction(db) -> None:  # noqa: ANN001
    from adjudicator.service.common import snapshot
    from adjudicator.service.common.core import current_prompts, sealed_rows, seats_of
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


class _Undo(Exception):
    pass


def _outbox_written(game_id: str, at: datetime) -> tuple[list[dict], list[int]]:
    """The outbox rows a deadline writes, as the database holds them, and its tasks' ids; the
    deadline is rolled back after."""
    from adjudicator.store import OutboxMessage

    table = OutboxMessage.__table__
    try:
        with store.transaction() as s:
            tasks = service.sweep_game(s, game_id, at)
            s.flush()
            rows = [dict(r) for r in s.connection().execute(
                select(table).where(table.c.game_id == s.exec(select(Game.id).where(Game.public_id == game_id)).one())
                .where(table.c.kind == "turn").order_by(table.c.id)).mappings()]
            ids = [getattr(arg, "id", arg) for _kind, arg in tasks]
            raise _Undo
    except _Undo:
        return rows, ids


def test_a_deadlines_outbox_rows_are_those_the_orm_wrote(db, monkeypatch) -> None:  # noqa: ANN001
    """The deadline writes its mails in one prebuilt insert (service/play/outboxrows.py), not as ORM
    objects: every column holds what the ORM path wrote, and each task names its own row."""
    from adjudicator.service.play import outboxrows

    game_id = doge_game()
    with store.transaction(write=False) as s:
        at = as_utc(s.exec(select(Game.due_at).where(Game.public_id == game_id)).one()) + timedelta(seconds=1)
    fast, fast_ids = _outbox_written(game_id, at)
    monkeypatch.setattr(outboxrows, "queued", lambda _s, _values: None)  # the ORM path
    slow, slow_ids = _outbox_written(game_id, at)
    assert len(fast) == 4 and fast_ids == [r["id"] for r in fast] and slow_ids == [r["id"] for r in slow]
    for quick, orm in zip(fast, slow, strict=True):
        assert quick["created_at"].tzinfo is not None and orm["created_at"].tzinfo is not None
        assert {k: v for k, v in quick.items() if k not in ("id", "created_at")} == \
            {k: v for k, v in orm.items() if k not in ("id", "created_at")}


def test_an_order_committed_while_the_deadline_waits_for_the_lock_is_in_its_snapshot(db) -> None:  # noqa: ANN001
    """Every writer locks the game row first. A deadline waiting for that lock must read what its
    holder committed: on PostgreSQL the locking statement's own subqueries see the database as it
    was before the wait, so whether the game has sealed orders is asked after it."""
    from adjudicator.service.common import core, snapshot
    from tests.support.locking import while_a_sealed_row_is_committed

    game_id = doge_game()
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        group = next(p.group for p in core.current_prompts(g).values() if p.sealed)
    seen: dict = {}

    def deadline() -> None:
        with store.transaction() as s:
            locked = snapshot.load(s, game_id)
            assert locked is not None
            seen.update(core.sealed_rows(s, locked, group))

    while_a_sealed_row_is_committed(game_id, group, "red", deadline)
    assert set(seen) == {"red"}



def test_an_order_replacing_a_sealed_one_is_one_flush_and_no_game_update(db) -> None:  # noqa: ANN001
    """The hot path of `pbem bench http`: two reads after BEGIN (the locked game, then its seats
    with their sealed orders: store/gamelock.py), the sealed row's UPDATE and the seat's, each one
    Core statement (store/rowwrite.py), no flush, and an unchanged wait does not write the game
    row."""
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
            # the two UPDATEs are Core statements (store/rowwrite.py): no flush
            assert flushes == [], f"no flush per order: {seen}"
            assert len([q for q in seen if not q.startswith("BEGIN")]) == 4, seen
            assert len(writes) == 2, writes
            assert any("sealed_orders" in w for w in writes) and any("seats" in w for w in writes), writes
    finally:
        event.remove(Session, "before_flush", flushed)
    with store.transaction(write=False) as s:
        assert service.seat_state(s, game_id, "red", token).receipt.commitment == sub.receipts[0].commitment


def test_a_new_sealed_row_is_written_at_once_and_a_reveal_deletes_it(db) -> None:  # noqa: ANN001
    """Sealed orders are written by key (no ORM object waits for a flush): a new one is in the
    database as soon as it is sealed, and a reveal in the same transaction deletes it."""
    from adjudicator.service.common import snapshot
    from adjudicator.service.common.clock import utcnow
    from adjudicator.service.common.core import sealed_groups, sealed_rows
    from adjudicator.service.play.steps import apply_group, seal, sealed_of

    game_id = doge_game()
    with store.transaction() as s:
        t = snapshot.open_table(s, game_id, entries=False)
        assert t is not None
        g = t.game
        prompt = t.prompts["red"]
        assert prompt.group is not None
        receipt = seal(s, t, "red", prompt, prompt.choices[0], utcnow())
        assert [(r.seat, r.commitment) for r in s.exec(select(SealedOrder))] == [("red", receipt.commitment)]
        assert sealed_rows(s, g, prompt.group)["red"].commitment == receipt.commitment
        assert sealed_of(t, prompt.group)["red"].commitment == receipt.commitment
        members = sealed_groups(t.prompts)[prompt.group]
        apply_group(s, t, prompt.group, members, sealed_of(t, prompt.group), utcnow())
        assert not s.exec(select(SealedOrder)).all()
        assert not sealed_rows(s, g, prompt.group)
        assert not sealed_of(t, prompt.group)
    with store.transaction(write=False) as s:
        assert not s.exec(select(SealedOrder)).all()


def test_a_seat_written_by_key_is_read_as_an_object_with_its_new_values(db) -> None:  # noqa: ANN001
    """An order's snapshot reads the seats as plain rows; a use case that needs ORM objects gets
    them with what was written by key, and a write through a plain row still held reaches them."""
    from adjudicator.service.common import snapshot
    from adjudicator.service.common.core import seats_of
    from adjudicator.store.gamelock import SeatRow

    game_id = doge_game()
    with store.transaction() as s:
        g = snapshot.load(s, game_id, entries=False)

        def seat_rows(s, g):  # noqa: ANN001, ANN202  (the seats as the locked table holds them now)
            return snapshot.rows(s, g, Seat)

        plain = seat_rows(s, g)[0]
        assert isinstance(plain, SeatRow)
        store.update_row(s, plain, {"missed": 2})
        objects = seats_of(s, g)
        assert isinstance(objects[0], Seat) and objects[0].seat == plain.seat and objects[0].missed == 2
        assert seat_rows(s, g) == objects  # the snapshot holds the objects from then on
        store.update_row(s, plain, {"missed": 3})
        assert objects[0].missed == 3
    with store.transaction(write=False) as s:
        assert s.exec(select(Seat.missed).where(Seat.seat == plain.seat)).all() == [3]
