"""A PostgreSQL schema private to one bench run: the benches on PostgreSQL write their games there
and drop it after, so runs never see each other's rows nor leave any behind."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from urllib.parse import quote


@contextmanager
def fresh_schema(pg_url: str, prefix: str = "bench") -> Iterator[str]:
    """The database URL of a new, empty schema of `pg_url` (its search_path set to it), dropped
    with everything in it at the end; the store is unset first (its connections use the schema)."""
    from sqlalchemy import create_engine, text

    admin = create_engine(pg_url)
    schema = f"{prefix}_{secrets.token_hex(6)}"
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    sep = "&" if "?" in pg_url else "?"
    try:
        yield f"{pg_url}{sep}options={quote(f'-csearch_path={schema}')}"
    finally:
        from adjudicator import store

        store.configure(None)
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()
