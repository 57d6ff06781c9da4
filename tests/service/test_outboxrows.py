"""A deadline's outbox rows are queued as plain values and written in one insert
(service/play/outboxrows.py): each task names its own row once written, and a batch inside another
hands the session back to the outer one."""

from __future__ import annotations

from sqlmodel import select

from adjudicator import store
from adjudicator.service.play import notify, outboxrows
from adjudicator.store import Game, OutboxMessage


def test_queued_mails_are_written_at_once_and_their_tasks_name_their_rows(db) -> None:  # noqa: ANN001
    with store.transaction() as s:
        with outboxrows.batch(s) as mails:
            tasks = [
                notify.queue_mail(s, None, f"p{n}@example.org", f"subject {n}", f"body {n}", kind="t")
                for n in range(3)
            ]
            held = notify.queue_mail(s, None, "h@example.org", "held", "body", status="held")
            assert held is None, "a held row is no task"
            assert s.exec(select(OutboxMessage)).all() == [], "nothing written before the batch is"
            written = mails.write(s, tasks)
        assert notify.queue_mail(s, None, "x@example.org", "s", "b") is not None
        rows = {r.id: r for r in s.exec(select(OutboxMessage))}
    assert [kind for kind, _id in written] == ["deliver"] * 3
    assert [rows[row_id].to for _kind, row_id in written] == [
        "p0@example.org",
        "p1@example.org",
        "p2@example.org",
    ]
    assert {r.status for r in rows.values()} == {"pending", "held"} and len(rows) == 5


def test_a_batch_inside_another_hands_the_session_back_to_it(db) -> None:  # noqa: ANN001
    with store.transaction() as s:
        with outboxrows.batch(s) as outer:
            with outboxrows.batch(s) as inner:
                first = outboxrows.queued(s, {"to": "a"})
            second = outboxrows.queued(s, {"to": "b"})
        assert inner.rows == [first] and outer.rows == [second]
        assert outboxrows.queued(s, {"to": "c"}) is None, "no batch: the caller writes an ORM row"


def test_a_queued_row_has_every_column_as_the_model_fills_it(db) -> None:  # noqa: ANN001
    """The unsent defaults come from the model: a column added with a default cannot drift from
    what the ORM path writes, and every row names every column (one multi-row insert)."""
    values = {"game_id": None, "to": "a@example.org", "subject": "s", "body": "b", "headers": {"X": "1"},
              "kind": "turn", "seat": "red"}
    table = OutboxMessage.__table__
    with store.transaction() as s, outboxrows.batch(s):
        queued = outboxrows.queued(s, values)
    orm = OutboxMessage(**values)
    assert queued is not None
    assert set(queued.values) == {c.name for c in table.columns} - {"id"}
    assert queued.values["created_at"].tzinfo is not None
    assert {k: v for k, v in queued.values.items() if k != "created_at"} == \
        {c.name: getattr(orm, c.name) for c in table.columns if c.name not in ("id", "created_at")}


def test_a_batch_larger_than_one_statement_gives_each_task_its_own_row(db) -> None:  # noqa: ANN001
    """SQLite writes at most outboxrows._SQLITE_ROWS rows a statement; ids stay in the rows' order
    across statements, and rows with and without a game go into the same insert."""
    from adjudicator import service

    with store.transaction() as s:
        game_id = service.create_game(s, game="doge", seats=4).game_id
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        count = outboxrows._SQLITE_ROWS * 2 + 3
        with outboxrows.batch(s) as mails:
            tasks = [notify.queue_mail(s, g if n % 3 else None, f"p{n}@example.org", f"s{n}", "b")
                     for n in range(count)]
            written = mails.write(s, tasks)
        rows = {r.id: r for r in s.exec(select(OutboxMessage))}
    assert [rows[row_id].to for _kind, row_id in written] == [f"p{n}@example.org" for n in range(count)]
    assert [rows[row_id].game_id is None for _kind, row_id in written] == [n % 3 == 0 for n in range(count)]
