"""Alembic environment: the project's SQLModel metadata, the database from DATABASE_URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import adjudicator.store.models  # noqa: F401  (registers the tables on SQLModel.metadata)
from adjudicator.store.db import database_url

target_metadata = SQLModel.metadata


def run_offline() -> None:
    context.configure(url=database_url(), target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    given = context.config.attributes.get("connection")
    if given is not None:  # called by adjudicator.store.schema inside its own transaction
        context.configure(connection=given, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
        return
    engine = create_engine(database_url())
    with engine.connect() as connection:
        context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


if context.is_offline_mode():
    run_offline()
else:
    run_online()
