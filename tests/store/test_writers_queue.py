"""On a SQLite file, write transactions queue on an flock of `<database>-writers` (woken by the
kernel, not by SQLite's sleeping busy handler); reads do not take it."""

from __future__ import annotations

import fcntl
import gc
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


def _cycles(count: int) -> None:
    """Allocate `count` reference cycles (garbage only the cyclic collector frees)."""
    for _ in range(count):
        a: list[object] = []
        a.append(a)


def test_no_cyclic_collection_starts_while_a_write_holds_the_lock(sqlite_file: Path) -> None:
    """A collection of the whole heap took 70-90 ms in a web worker; inside a write it held every
    writer of every process behind it. It is put off until the lock is released."""
    started: list[bool] = []
    holding = {"now": False}

    def seen(phase: str, _info: dict[str, int]) -> None:
        if phase == "start":
            started.append(holding["now"])

    assert gc.isenabled()
    gc.callbacks.append(seen)
    try:
        with store.transaction():
            holding["now"] = True
            assert not gc.isenabled()
            _cycles(50 * gc.get_threshold()[0])  # would start dozens of collections
            holding["now"] = False
        assert gc.isenabled()
        _cycles(2 * gc.get_threshold()[0])  # the collection put off runs now
        with store.transaction(write=False):
            assert gc.isenabled()  # a read takes no lock and leaves the collector alone
    finally:
        gc.callbacks.remove(seen)
    assert started and not any(started)


def test_a_write_leaves_the_collector_off_if_it_was_off(sqlite_file: Path) -> None:
    gc.disable()
    try:
        with store.transaction():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
