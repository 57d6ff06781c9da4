"""On a SQLite file, write transactions queue on an flock of `<database>-writers` (woken by the
kernel, not by SQLite's sleeping busy handler); reads do not take it."""

from __future__ import annotations

import fcntl
import gc
import os
import threading
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


def test_a_write_on_a_held_connection_holds_the_writers_lock(sqlite_file: Path) -> None:
    """`store.db.connection()` serves loops of short writes (the mailer's `sent` records): each of
    its transactions queues on the same lock as `store.transaction`."""
    lock_file = Path(f"{sqlite_file}-writers")
    with store.db.connection(lazy=True) as conn:
        with store.db.begin(conn):
            assert not _free(lock_file)
        assert _free(lock_file)
        with store.db.begin(conn):
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


def test_a_child_forked_while_another_thread_writes_keeps_neither_the_lock_nor_the_collector_off(
    sqlite_file: Path,
) -> None:
    """A process forked (a Celery prefork child) while another of its parent's threads held the
    writers' lock: the child has no such thread to release its copy of the lock file, which kept
    every writer out while the child lived, nor to switch the collector on again."""
    lock_file = Path(f"{sqlite_file}-writers")
    holding, done = threading.Event(), threading.Event()

    def writer() -> None:
        with store.transaction():
            holding.set()
            done.wait(30)

    thread = threading.Thread(target=writer)
    thread.start()
    assert holding.wait(30)
    report_r, report_w = os.pipe()
    go_r, go_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, then wait until the parent has looked at the lock
        try:
            os.write(report_w, b"on" if gc.isenabled() else b"off")
            os.read(go_r, 1)
        finally:
            os._exit(0)
    try:
        assert os.read(report_r, 3) == b"on"
        done.set()
        thread.join(30)
        assert _free(lock_file)  # released although the child still lives
    finally:
        os.write(go_w, b"x")
        os.waitpid(pid, 0)
        for fd in (report_r, report_w, go_r, go_w):
            os.close(fd)
