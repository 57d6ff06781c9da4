"""The store on SQLite and PostgreSQL: schema, JSON columns, constraints, transactions."""

from __future__ import annotations

import pytest
from sqlalchemy.exc import IntegrityError
from sqlmodel import select

from adjudicator import store
from adjudicator.store import Game, InboxMessage, RecordEntry, SealedOrder


def test_init_db_is_idempotent(db) -> None:
    store.init_db()
    store.init_db()


def test_json_round_trip_and_timezones(db) -> None:
    value = {"a": [1, {"b": None, "c": "ü"}], "flag": True}
    with store.transaction() as s:
        s.add(Game(public_id="gjson", game_type="toy", options={"x": 1}, state=value))
    with store.transaction(write=False) as s:
        g = s.exec(select(Game)).one()
    assert g.state == value and g.options == {"x": 1}
    assert g.created_at.utcoffset() is not None


def test_rollback_on_error(db) -> None:
    with pytest.raises(RuntimeError), store.transaction() as s:
        s.add(Game(public_id="gfail", game_type="toy"))
        s.flush()
        raise RuntimeError
    with store.transaction(write=False) as s:
        assert s.exec(select(Game)).all() == []


def test_unique_constraints(db) -> None:
    with store.transaction() as s:
        g = Game(public_id="guniq", game_type="toy")
        s.add(g)
        s.flush()
        gid = g.id
        s.add(RecordEntry(game_id=gid, seq=0, kind="setup", data={}, prev="0", state_hash="h", hash="x"))
        s.add(SealedOrder(game_id=gid, group="r1", seat="p1", order={"bid": 1}, salt="s", commitment="c"))
        s.add(InboxMessage(message_id="<m1@x>", raw=b"raw"))
    for row in (
        RecordEntry(game_id=gid, seq=0, kind="note", data={}, prev="0", state_hash="h", hash="y"),
        SealedOrder(game_id=gid, group="r1", seat="p1", order={"bid": 2}, salt="t", commitment="d"),
        InboxMessage(message_id="<m1@x>", raw=b"again"),
    ):
        with pytest.raises(IntegrityError), store.transaction() as s:
            s.add(row)


def test_lock_game(db) -> None:
    with store.transaction() as s:
        s.add(Game(public_id="glock", game_type="toy"))
    with store.transaction() as s:
        assert store.lock_game(s, "glock").public_id == "glock"
        assert store.lock_game(s, "missing") is None


def test_default_url_creates_var(tmp_path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    try:
        store.configure(None)
        assert store.database_url() == "sqlite:///var/pbem.sqlite"
        store.init_db()
        assert (tmp_path / "var" / "pbem.sqlite").exists()
        with store.get_engine().connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    finally:
        store.configure(None)
