"""Backing up and restoring the whole database, on either backend, while the server runs.

- SQLite: the library's online backup API (`sqlite3.Connection.backup`) copies a consistent
  snapshot page by page while writers keep going; restore copies a backup file into the target
  the same way, so the target's WAL and open readers stay coherent.
- PostgreSQL: `pg_dump --format=custom` takes one consistent snapshot (a repeatable-read
  transaction) without blocking writers; `pg_restore` loads it into an empty database.

A PostgreSQL URL whose connection options set a `search_path` (one schema per tenant, as the
tests use) backs up and restores that schema only.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import inspect
from sqlalchemy.engine import URL, make_url

from .db import make_engine


class BackupError(RuntimeError):
    """A backup or restore that could not be done; the message says what to do."""


@dataclass(frozen=True)
class BackupResult:
    backend: str
    path: Path
    size: int


def backend_of(url: str) -> str:
    return "sqlite" if make_url(url).get_backend_name() == "sqlite" else "postgres"


def backup(url: str, dest: Path) -> BackupResult:
    """Write a consistent snapshot of the database at `url` to `dest` (overwritten)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    if backend_of(url) == "sqlite":
        source = _sqlite_path(url)
        if not source.exists():
            raise BackupError(f"there is no database file at {source}")
        partial = dest.with_name(dest.name + ".partial")
        with sqlite3.connect(source) as src, sqlite3.connect(partial) as out:
            src.backup(out)
        out.close()
        partial.replace(dest)  # a reader of `dest` never sees half a backup
    else:
        _pg_tool("pg_dump", "--format=custom", "--no-owner", f"--file={dest}",
                 *_schema_args(url), _libpq_url(url))
    return BackupResult(backend_of(url), dest, dest.stat().st_size)


def restore(source: Path, url: str, *, replace: bool = False) -> None:
    """Load the backup `source` into the database at `url`. The target must hold no tables
    unless `replace` is given (then its tables are replaced). Stop the server first: a restore
    under running workers would mix their writes with the backup's rows."""
    if not source.exists():
        raise BackupError(f"there is no backup file at {source}")
    if not replace and holds_tables(url):
        raise BackupError("the target database already holds tables; restore into an empty one, "
                          "or pass --replace to overwrite it (stop the server first)")
    if backend_of(url) == "sqlite":
        target = _sqlite_path(url)
        target.parent.mkdir(parents=True, exist_ok=True)
        with sqlite3.connect(source) as src, sqlite3.connect(target) as out:
            src.backup(out)
        out.close()
    else:
        _pg_tool("pg_restore", "--no-owner", "--exit-on-error", "--single-transaction",
                 *(["--clean", "--if-exists"] if replace else []),
                 f"--dbname={_libpq_url(url)}", str(source))


def holds_tables(url: str) -> bool:
    if backend_of(url) == "sqlite" and not _sqlite_path(url).exists():
        return False
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            return bool(inspect(conn).get_table_names())
    finally:
        engine.dispose()


def _sqlite_path(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError("an in-memory SQLite database cannot be backed up; set DATABASE_URL to a file")
    return Path(database)


def _libpq_url(url: str) -> str:
    """The SQLAlchemy URL as libpq reads it (no `+driver`), options such as search_path kept."""
    parsed: URL = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def _schema_args(url: str) -> list[str]:
    """`--schema=S` when the URL's connection options pin the search_path to schema S."""
    options = make_url(url).query.get("options", "")
    words = " ".join(options if isinstance(options, tuple) else [options]).split()
    for word in words:
        if word.startswith("-csearch_path="):
            schema = word.split("=", 1)[1].split(",")[0].strip()
            if schema:
                return [f"--schema={schema}"]
    return []


def _pg_tool(tool: str, *args: str) -> None:
    if shutil.which(tool) is None:
        raise BackupError(f"{tool} is not installed; install the PostgreSQL client of the server's "
                          "major version (Debian: postgresql-client)")
    done = subprocess.run([tool, *args], capture_output=True, text=True)
    if done.returncode != 0:
        said = done.stderr.strip().splitlines()
        raise BackupError(f"{tool} failed: {said[-1] if said else f'exit {done.returncode}'}")
