"""On a SQLite file, write transactions queue on an flock of `<database>-writers` (woken by the
kernel, not by SQLite's sleeping busy handler); reads do not take it."""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from adjudicator import store


@pytest.fixture
def sqlite_file(tmp_path: Path) -> Iterator[Path]:
    path = tmp_path / "queue.sqlite"
    store.configure(f"sqlite:///{path}")
    store.init_db()
    try:
        yield path
    finally:
        store.configure(None)


def _free(lock_file: Path) -> bool:
    """Whether another open file description can take the writers' lock now."""
    fd = os.open(lock_file, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


def test_a_write_holds_the_writers_lock_and_a_read_does_not(sqlite_file: Path) -> None:
    lock_file = Path(f"{sqlite_file}-writers")
    with store.transaction(write=False):
        assert _free(lock_file)
    with store.transaction():
        assert not _free(lock_file)
        with store.transaction(write=False):  # a read inside a write: no second lock
            assert not _free(lock_file)
    assert _free(lock_file)
