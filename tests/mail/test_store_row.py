"""The listener stores a mail with one Core INSERT (store/rows.py), not an ORM object: the row
must hold exactly what the model would have written, and a Message-ID stored meanwhile by
another receiver must be skipped without spoiling the transaction (PostgreSQL aborts one after a
failed statement)."""

from __future__ import annotations

from datetime import datetime

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import InboxMessage
from adjudicator.store.rows import insert_unless_exists, row_values
from tests.mail.conftest import message

ENVELOPE = ["game-x+red-abc@pbem.test", "b" * 400] + [f"r{i}@pbem.test" for i in range(25)]


def _stored(s, mid: str) -> InboxMessage:  # noqa: ANN001 - a session
    return s.exec(select(InboxMessage).where(InboxMessage.message_id == mid)).one()


@pytest.mark.parametrize("size", [0, 3_000_000])
def test_a_received_mail_is_stored_as_the_model_would(db, size: int, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("PBEM_MAIL_MAX_BYTES", "2000000")
    raw = bytes(
        message("place x 1\n" + "y" * size, sender="=?utf-8?q?J=C3=B6rg?= <j@example.org>", mid="<row@t>")
    )
    with store.transaction() as s:
        [(kind, row_id)] = service.receive_mail(s, raw, "smtp", "env@client.test", ENVELOPE, "192.0.2.1" * 10)
    with store.transaction(write=False) as s:
        row = _stored(s, "<row@t>")
    # what receive() built before, as an ORM object from the same values
    oversized = len(raw) if size else 0
    expected = InboxMessage(
        message_id="<row@t>",
        raw=raw[:65536] if size else raw,
        source="smtp",
        envelope_from="env@client.test",
        envelope_to=[t[:320] for t in ENVELOPE][:20],
        peer=("192.0.2.1" * 10)[:64],
        from_addr="=?utf-8?q?J=C3=B6rg?= <j@example.org>",
        subject="orders",
        auth={"oversized": oversized} if oversized else {},
    )
    got, want = row.model_dump(), expected.model_dump()
    assert kind == "ingest" and got.pop("id") == row_id and want.pop("id") is None
    assert isinstance(got.pop("received_at"), datetime)  # the model's default factory, at the insert
    want.pop("received_at")
    assert got == want
    assert (
        bytes(row.raw) == want["raw"] and row.status == "new" and row.attempts == 0 and row.last_error == ""
    )


def test_a_message_id_stored_meanwhile_is_skipped_and_the_transaction_goes_on(db) -> None:  # noqa: ANN001
    with store.transaction() as s:
        first = insert_unless_exists(s, InboxMessage, {"message_id": "<race@t>", "raw": b"a"}, ["message_id"])
    with store.transaction() as s:
        assert (
            insert_unless_exists(s, InboxMessage, {"message_id": "<race@t>", "raw": b"b"}, ["message_id"])
            is None
        )
        other = insert_unless_exists(
            s, InboxMessage, {"message_id": "<other@t>", "raw": b"c"}, ["message_id"]
        )
    with store.transaction(write=False) as s:
        assert bytes(_stored(s, "<race@t>").raw) == b"a" and _stored(s, "<race@t>").id == first
        assert _stored(s, "<other@t>").id == other != first


def test_row_values_fill_the_models_defaults() -> None:
    values = row_values(InboxMessage, {"message_id": "<m@t>"})
    assert "id" not in values and "game_id" not in values and "processed_at" not in values
    assert values["status"] == "new" and values["auth"] == {} and values["envelope_to"] == []
    assert isinstance(values["received_at"], datetime) and values["attempts"] == 0
    with pytest.raises(TypeError, match="message_id"):
        row_values(InboxMessage, {})


def _received_rows(s) -> list[tuple]:  # noqa: ANN001 - a session
    rows = s.exec(select(InboxMessage).order_by(InboxMessage.id)).all()  # ids from the run's first (PostgreSQL's
    return [(r.id - rows[0].id, r.message_id, bytes(r.raw), r.status, r.envelope_to, r.auth) for r in rows]  # go on)


def _batch() -> list[bytes]:
    """Mails for a batch after `_before`: new ones, a second copy of one of them, a copy of a stored
    unprocessed mail, a copy of a processed one (same bytes) and its Message-ID with other bytes."""
    return [bytes(message("a", mid="<n1@t>")), bytes(message("b", mid="<n2@t>")), bytes(message("c", mid="<n1@t>")),
            bytes(message("d", mid="<stored@t>")), bytes(message("e", mid="<done@t>")),
            bytes(message("other", mid="<done@t>")), bytes(message("f", mid="<n3@t>"))]


def _before(s) -> None:  # noqa: ANN001 - a session
    service.receive_mail(s, bytes(message("d", mid="<stored@t>")), "smtp")
    service.receive_mail(s, bytes(message("e", mid="<done@t>")), "smtp")
    s.exec(select(InboxMessage).where(InboxMessage.message_id == "<done@t>")).one().status = "done"


def test_a_batch_is_stored_as_its_mails_one_after_the_other(db) -> None:  # noqa: ANN001
    """What the listener's group stores (`receive_mails`: one read, one INSERT) is what `receive`
    of each mail in turn stores: the same rows with the same ids, tasks and duplicate counts."""
    from sqlalchemy import event

    with store.transaction() as s:
        _before(s)
        first = s.exec(select(InboxMessage.id)).first()
        one_by_one = [[(kind, i - first) for kind, i in service.receive_mail(s, raw, "smtp", None, ["x@pbem.test"])]
                      for raw in _batch()]
        expected = _received_rows(s)
        s.rollback()
    statements: list[str] = []
    with store.transaction() as s:
        _before(s)
        first = s.exec(select(InboxMessage.id)).first()
        event.listen(s.connection(), "before_cursor_execute", lambda *a: statements.append(a[2].split()[0]))
        batch = [[(kind, i - first) for kind, i in tasks] for tasks in service.receive_mails(
            s, [service.arrived_mail(raw, "smtp", None, ["x@pbem.test"]) for raw in _batch()])]
        got = _received_rows(s)
    assert batch == one_by_one
    assert batch[:4] == [[("ingest", 2)], [("ingest", 3)], [("ingest", 2)], [("ingest", 0)]] and batch[4:6] == [[], []]
    assert got == expected
    assert statements[:2] == ["SELECT", "INSERT"] and statements.count("INSERT") == 1
