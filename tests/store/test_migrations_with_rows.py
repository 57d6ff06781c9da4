"""Upgrading from every earlier schema keeps the rows a running server holds.

For each published revision: a database at that revision gets a row in every table (values made
from the column types, parents before children), is upgraded to the newest revision, and every
row is still there and loads through the current models. A migration that adds a NOT NULL column
without a default, or drops or rewrites a table carelessly, fails here even though an empty
database upgrades fine.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    Integer,
    LargeBinary,
    MetaData,
    Numeric,
    String,
    Text,
    create_engine,
    func,
    select,
)
from sqlalchemy.engine import Connection
from sqlmodel import Session, SQLModel

from adjudicator.store import models  # noqa: F401  (the tables on SQLModel.metadata)
from tests.support.databases import postgres_database, sqlite_database

ROOT = Path(__file__).resolve().parents[2]
CONFIG = Config(str(ROOT / "deploy" / "alembic.ini"))
EARLIER = [rev.revision for rev in ScriptDirectory.from_config(CONFIG).walk_revisions()][1:]  # all but head


def _value(column: Any, table: str) -> Any:
    kind = column.type
    if column.foreign_keys:
        return 1  # every parent table got its row with id 1 first
    if isinstance(kind, Boolean):
        return False
    if isinstance(kind, Integer):
        return 1
    if isinstance(kind, Float | Numeric):
        return 1.0
    if isinstance(kind, DateTime | Date):
        return datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    if isinstance(kind, JSON):
        return {}
    if isinstance(kind, LargeBinary):
        return b"From: a@example.org\r\n\r\nhello\r\n"
    if isinstance(kind, String | Text):
        length = getattr(kind, "length", None) or 32
        return f"{table[:4]}-{column.name}"[:length]
    return None


def _fill(conn: Connection) -> dict[str, int]:
    meta = MetaData()
    meta.reflect(conn)
    counts: dict[str, int] = {}
    for table in meta.sorted_tables:
        if table.name == "alembic_version":
            continue
        row = {c.name: _value(c, table.name) for c in table.columns
               if not (c.primary_key and isinstance(c.type, Integer))}
        conn.execute(table.insert().values(**{k: v for k, v in row.items() if v is not None}))
        counts[table.name] = 1
    return counts


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("revision", EARLIER)
def test_upgrade_from_an_earlier_schema_keeps_every_row(backend: str, revision: str, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    context = sqlite_database(tmp_path) if backend == "sqlite" else postgres_database()
    with context as database:
        monkeypatch.setenv("DATABASE_URL", database.url)
        command.upgrade(CONFIG, revision)
        engine = create_engine(database.url)
        try:
            with engine.begin() as conn:
                before = _fill(conn)
            command.upgrade(CONFIG, "head")
            with engine.connect() as conn:
                after = {name: conn.execute(select(func.count()).select_from(SQLModel.metadata.tables[name])).scalar()
                         for name in before}
            with Session(engine) as session:  # every current model loads the upgraded rows
                for mapper in SQLModel._sa_registry.mappers:  # type: ignore[attr-defined]
                    if mapper.local_table.name in before:
                        assert session.scalars(select(mapper.class_)).all()
        finally:
            engine.dispose()
    assert after == before, json.dumps({"before": before, "after": after})
