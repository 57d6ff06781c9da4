"""Bringing a database to the current schema.

A new database gets every table from the models at once and is stamped with the newest Alembic
revision. A database stamped with an older revision (made by an earlier pbem) is upgraded by the
Alembic migrations in `deploy/migrations`, so `pbem run` keeps working across upgrades with the
same `var/pbem.sqlite`. Production runs `alembic -c deploy/alembic.ini upgrade head` itself.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from sqlalchemy import inspect, text
from sqlalchemy.engine import Engine
from sqlmodel import SQLModel

ALEMBIC_INI = Path(__file__).resolve().parents[2] / "deploy" / "alembic.ini"
VERSION_TABLE = "alembic_version"


@cache
def head_revision() -> str | None:
    """The newest migration, or None when the migrations are not shipped (a bare wheel)."""
    if not ALEMBIC_INI.exists():
        return None
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(Config(str(ALEMBIC_INI))).get_current_head()


def current_revision(engine: Engine) -> tuple[set[str], str | None]:
    with engine.connect() as conn:
        tables = set(inspect(conn).get_table_names())
        if VERSION_TABLE not in tables:
            return tables, None
        return tables, conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).scalar()


def ensure_schema(engine: Engine) -> None:
    tables, current = current_revision(engine)
    head = head_revision()
    if head is not None and current is not None and current != head:
        _upgrade(engine)
        return
    SQLModel.metadata.create_all(engine)  # a new database, or one that is current: adds nothing
    if head is not None and current is None and not (tables - {VERSION_TABLE}):
        with engine.begin() as conn:
            conn.execute(text(f"CREATE TABLE IF NOT EXISTS {VERSION_TABLE} "
                              "(version_num VARCHAR(32) NOT NULL PRIMARY KEY)"))
            conn.execute(text(f"INSERT INTO {VERSION_TABLE} (version_num) VALUES (:v)"), {"v": head})


def _upgrade(engine: Engine) -> None:
    from alembic import command
    from alembic.config import Config

    config = Config(str(ALEMBIC_INI))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "head")
