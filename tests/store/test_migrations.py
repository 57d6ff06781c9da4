"""The Alembic migrations build exactly the tables the models describe, on SQLite and PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from sqlalchemy import create_engine
from sqlmodel import SQLModel

from tests.support.databases import postgres_database, sqlite_database

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_upgrade_head_matches_the_models(backend, tmp_path, monkeypatch) -> None:
    context = sqlite_database(tmp_path) if backend == "sqlite" else postgres_database()
    with context as database:
        monkeypatch.setenv("DATABASE_URL", database.url)
        command.upgrade(Config(str(ROOT / "deploy" / "alembic.ini")), "head")
        engine = create_engine(database.url)
        try:
            with engine.connect() as conn:
                differences = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
        finally:
            engine.dispose()
    assert differences == [], "the models changed: add a migration (alembic revision --autogenerate)"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_init_db_stamps_new_databases_and_upgrades_old_ones(backend, tmp_path, monkeypatch) -> None:
    from sqlalchemy import text

    from adjudicator import store
    from adjudicator.store.schema import head_revision

    context = sqlite_database(tmp_path) if backend == "sqlite" else postgres_database()
    with context as database:
        monkeypatch.setenv("DATABASE_URL", database.url)
        command.upgrade(Config(str(ROOT / "deploy" / "alembic.ini")), "0001")  # an older pbem's database
        store.configure(database.url)
        try:
            store.init_db()
            store.init_db()  # a second start changes nothing
            engine = store.get_engine()
            with engine.connect() as conn:
                version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
                differences = compare_metadata(MigrationContext.configure(conn), SQLModel.metadata)
        finally:
            store.configure(None)
    assert version == head_revision()
    assert differences == []


def test_a_new_database_is_stamped_with_the_newest_revision(tmp_path) -> None:
    from sqlalchemy import text

    from adjudicator import store
    from adjudicator.store.schema import head_revision

    with sqlite_database(tmp_path) as database:
        store.configure(database.url)
        try:
            store.init_db()
            with store.get_engine().connect() as conn:
                version = conn.execute(text("SELECT version_num FROM alembic_version")).scalar()
        finally:
            store.configure(None)
    assert version is not None and version == head_revision()
