"""Real databases for tests: a temp SQLite file, or a fresh schema on the PostgreSQL test server.

PostgreSQL (and Redis) being unreachable skips a test with the reason shown; with
PBEM_REQUIRE_SERVICES=1 (CI) it fails instead.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

import pytest
from sqlalchemy import create_engine, text

PG_URL = os.environ.get("PBEM_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("PBEM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


@dataclass
class Database:
    backend: str  # "sqlite" or "postgres"
    url: str


def unavailable(reason: str) -> None:
    if os.environ.get("PBEM_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{reason} (PBEM_REQUIRE_SERVICES=1)")
    pytest.skip(reason)


@contextmanager
def sqlite_database(directory: Path) -> Iterator[Database]:
    yield Database("sqlite", f"sqlite:///{directory / 'pbem-test.sqlite'}")


@contextmanager
def postgres_database() -> Iterator[Database]:
    """A fresh schema per test, selected through the connection's search_path."""
    admin = create_engine(PG_URL, connect_args={"connect_timeout": 3})
    schema = f"t_{secrets.token_hex(6)}"
    try:
        with admin.begin() as conn:
            conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    except Exception as exc:  # noqa: BLE001 - any connection problem means "not reachable"
        admin.dispose()
        unavailable(f"PostgreSQL not reachable at {PG_URL}: {type(exc).__name__}")
    sep = "&" if "?" in PG_URL else "?"
    try:
        yield Database("postgres", f"{PG_URL}{sep}options={quote(f'-csearch_path={schema}')}")
    finally:
        with admin.begin() as conn:
            conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


def redis_or_skip() -> str:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001
        unavailable(f"Redis not reachable at {REDIS_URL}: {type(exc).__name__}")
    return REDIS_URL
