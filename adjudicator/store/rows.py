"""One row written by a single Core statement, for hot paths where building the ORM object and
flushing it cost more than the work around it (the SMTP listener stores every mail this way)."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from pydantic_core import PydanticUndefined
from sqlmodel import Session, SQLModel

from .typed import table_of

if TYPE_CHECKING:
    from sqlalchemy.dialects import postgresql, sqlite


def dialect_insert(dialect: str, table: Any) -> postgresql.Insert | sqlite.Insert:
    """The dialect's INSERT (it has ON CONFLICT DO NOTHING on both databases the project runs on)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert as postgresql_insert
        return postgresql_insert(table)
    if dialect == "sqlite":
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert
        return sqlite_insert(table)
    raise RuntimeError(f"PostgreSQL or SQLite, not {dialect}")  # pragma: no cover - the project runs on these two


def row_values(model: type[SQLModel], values: dict[str, Any]) -> dict[str, Any]:
    """Every column's value as `model(**values)` fills it: the given ones, the rest from each
    field's default or default factory (a None is left to the database, as the ORM leaves an
    unset primary key)."""
    out: dict[str, Any] = {}
    for name, field in model.model_fields.items():
        if name in values:
            value = values[name]
        elif field.default_factory is not None:
            value = field.get_default(call_default_factory=True)
        elif field.default is not PydanticUndefined:
            value = field.default
        else:
            raise TypeError(f"{model.__name__}.{name} has no default and no value")
        if value is not None:
            out[name] = value
    return out


def insert_unless_exists(
    s: Session, model: type[SQLModel], values: dict[str, Any], unique: list[str]
) -> int | None:
    """Insert one row of `model` (`row_values`) and return its id; None if a row with the same
    `unique` columns exists already, committed or being inserted by a concurrent transaction
    (ON CONFLICT DO NOTHING: no savepoint, and no aborted transaction on PostgreSQL)."""
    row = row_values(model, values)
    stmt = _insert_statement(s.get_bind().dialect.name, model, tuple(unique))
    return s.connection().execute(stmt, row).scalar()


def insert_many_unless_exist(s: Session, model: type[SQLModel], values: list[dict[str, Any]],
                             unique: str) -> dict[Any, int]:
    """Insert rows of `model` (`row_values` of each) in one statement, unless a row with the same
    `unique` column exists already (committed, or being inserted by a concurrent transaction: ON
    CONFLICT DO NOTHING); the new rows' ids by their `unique` value. The values must differ in
    `unique`."""
    rows = [row_values(model, v) for v in values]
    if not rows:
        return {}
    stmt = _insert_many_statement(s.get_bind().dialect.name, model, unique)
    if any(row.keys() != rows[0].keys() for row in rows):  # one statement binds the same columns for every row
        return {key: row_id for row in rows for key, row_id in s.connection().execute(stmt, row).all()}
    return {key: row_id for key, row_id in s.connection().execute(stmt, rows).all()}


@lru_cache(maxsize=64)
def _insert_statement(dialect: str, model: type[SQLModel], unique: tuple[str, ...]) -> Any:
    """Built once, its values bound at execution (the INSERT names the parameters' columns):
    composing the statement with its values, and its cache key, cost more than executing it."""
    table = table_of(model)
    return (
        dialect_insert(dialect, table)
        .on_conflict_do_nothing(index_elements=list(unique))
        .returning(table.c.id)
    )


@lru_cache(maxsize=64)
def _insert_many_statement(dialect: str, model: type[SQLModel], unique: str) -> Any:
    table = table_of(model)
    return dialect_insert(dialect, table).on_conflict_do_nothing(index_elements=[unique]).returning(
        table.c[unique], table.c.id)
