"""Typed access to what SQLModel leaves untyped: a table model's Core `Table`, a saved row's id."""

from __future__ import annotations

from typing import Protocol

from sqlalchemy import Table, inspect
from sqlmodel import SQLModel


def table_of(model: type[SQLModel]) -> Table:
    """The Core table a table model maps (its `__table__`, which SQLModel does not declare)."""
    table = inspect(model).local_table
    if not isinstance(table, Table):
        raise TypeError(f"{model.__name__} is not a table model")
    return table


class _Row(Protocol):
    @property
    def id(self) -> int | None: ...


def id_of(row: _Row) -> int:
    """The primary key of a row already in the database (flushed): the `id` SQLModel types as
    optional because a new object has none yet."""
    key = row.id
    if key is None:
        raise ValueError(f"{type(row).__name__} has no id yet: flush it first")
    return key
