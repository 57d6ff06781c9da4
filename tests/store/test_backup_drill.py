"""The backup drill (docs/operations.md, "Back up and restore"): back up a live database while
games are being played, restore it elsewhere, and find every game that was committed before the
backup began, each record verifying."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url
from sqlmodel import select

from adjudicator import service, store
from adjudicator.cli.main import main as pbem
from adjudicator.store.models import Game
from tests.support.databases import Database
from tests.support.play import finished_duel, new_game


def _games() -> dict[str, tuple[str, int]]:
    with store.transaction(write=False) as s:
        return {g.public_id: (g.status, g.record_length) for g in s.exec(select(Game)).all()}


@contextmanager
def _elsewhere(db: Database, tmp_path: Path) -> Iterator[str]:
    """An empty database of the same backend: another SQLite file, another PostgreSQL database."""
    if db.backend == "sqlite":
        yield f"sqlite:///{tmp_path / 'restored.sqlite'}"
        return
    url = make_url(db.url)
    name = f"restore_{secrets.token_hex(4)}"
    admin = create_engine(url.set(query={}), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        store.configure(db.url)  # let go of the restored database before dropping it
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.mark.slow
def test_backup_mid_burst_restores_every_committed_game(db: Database, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    for i in range(3):
        finished_duel(None, (f"Ana{i}", f"Bea{i}"))
    running = new_game("toy", seats=3)
    before = _games()

    stop = threading.Event()
    played: list[str] = []
    failures: list[BaseException] = []

    def burst() -> None:  # games created and finished while the backup runs
        try:
            while not stop.is_set() and len(played) < 40:
                played.append(finished_duel(None, ("Cai", "Dan")).game_id)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failures.append(exc)

    writer = threading.Thread(target=burst)
    writer.start()
    try:
        while len(played) < 2 and writer.is_alive():
            stop.wait(0.01)
        assert pbem(["backup", str(tmp_path / "pbem.backup"), "--database", db.url]) == 0
    finally:
        stop.set()
        writer.join(timeout=60)
    assert not failures
    assert "backed up the" in capsys.readouterr().out

    with _elsewhere(db, tmp_path) as target:
        assert pbem(["restore", str(tmp_path / "pbem.backup"), "--database", target]) == 0
        said = capsys.readouterr().out
        store.configure(target)
        restored = _games()
        with store.transaction(write=False) as s:
            checked = service.check_records(s)
    # nothing committed before the backup began is lost, and each restored record verifies
    assert {gid: restored.get(gid) for gid in before} == before
    assert restored[running.game_id] == before[running.game_id]
    started = [gid for gid, (_status, length) in restored.items() if length > 0]  # a game being set up has none
    assert checked.failures == [] and checked.games == len(started)
    assert checked.replayed == sum(1 for status, _ in restored.values() if status == "finished") >= 3
    assert f"{checked.games} games" in said


def test_restore_refuses_a_database_that_holds_tables(db: Database, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    finished_duel(None, ("Ana", "Bea"))
    assert pbem(["backup", str(tmp_path / "b"), "--database", db.url]) == 0
    assert pbem(["restore", str(tmp_path / "b"), "--database", db.url]) == 1
    assert "already holds tables" in capsys.readouterr().err


def test_a_record_changed_in_the_database_is_reported(db: Database) -> None:
    game = finished_duel(None, ("Ana", "Bea"))
    with store.transaction() as s:
        s.connection().execute(text("UPDATE record_entries SET hash = 'x' || substr(hash, 2) WHERE seq = 1"))
    with store.transaction(write=False) as s:
        checked = service.check_records(s)
    assert [gid for gid, _ in checked.failures] == [game.game_id]
