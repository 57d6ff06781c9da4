"""`pbem boards install|list` and `pbem decks install|list` against a server database: what they
install, new games can choose at once (no restart); what they refuse, they say why."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

from adjudicator import service, store
from adjudicator.games.china.boardfile import read_board_data
from adjudicator.games.founding_fathers.data import deck_text
from tests.support.play import new_game

PBEM = str(Path(sys.executable).with_name("pbem"))


def pbem(*args: str, db_url: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": db_url}
    return subprocess.run([PBEM, *args], capture_output=True, text=True, env=env, cwd=cwd)


def test_boards_install_then_list_then_play(sqlite_db, tmp_path):
    name = f"printed-{secrets.token_hex(3)}"
    for side in ("3-4p", "4-5p"):
        data = read_board_data(side)
        data["stand_in"] = False
        (tmp_path / f"{side}.json").write_text(json.dumps(data))
    done = pbem("boards", "install", name, "3-4p.json", "4-5p.json", db_url=sqlite_db.url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"installed china board {name!r} as {name}@" in done.stdout
    listed = pbem("boards", "list", db_url=sqlite_db.url, cwd=tmp_path)
    assert listed.stdout.splitlines()[0].startswith("stand-in ")
    assert "installed from 3-4p.json, 4-5p.json; new games get it" in listed.stdout
    game = new_game("china", 5, options={"board": name})  # this process never ran the install
    assert game.public().status == "running"

    twice = pbem("boards", "install", name, "3-4p.json", "3-4p.json", db_url=sqlite_db.url, cwd=tmp_path)
    assert twice.returncode == 1 and "one file per side" in twice.stderr
    data = read_board_data("3-4p")
    data["roads"].append(["nowhere-1", "nowhere-2"])
    (tmp_path / "bad.json").write_text(json.dumps(data))
    bad = pbem("boards", "install", "other", "bad.json", db_url=sqlite_db.url, cwd=tmp_path)
    assert bad.returncode == 1 and "nowhere-1" in bad.stderr
    builtin = pbem("boards", "install", "stand-in", "4-5p.json", db_url=sqlite_db.url, cwd=tmp_path)
    assert builtin.returncode == 1 and "install yours under another name" in builtin.stderr
    with store.transaction(write=False) as s:
        assert [i.name for i in service.list_content(s, "china", "board")] == ["stand-in", name]


def test_decks_install_takes_the_decks_own_id_unless_named(sqlite_db, tmp_path):
    data = json.loads(deck_text("standard"))
    data["id"] = f"printed-{secrets.token_hex(3)}"
    (tmp_path / "deck.json").write_text(json.dumps(data))
    done = pbem("decks", "install", "deck.json", db_url=sqlite_db.url, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"deck {data['id']!r}" in done.stdout
    named = pbem("decks", "install", "deck.json", "--name", "house-rules", db_url=sqlite_db.url, cwd=tmp_path)
    assert named.returncode == 0, named.stderr
    listed = pbem("decks", "list", db_url=sqlite_db.url, cwd=tmp_path).stdout
    assert data["id"] in listed and "house-rules" in listed
    game = new_game("founding-fathers", 3, options={"deck": "house-rules"})
    assert game.public().status == "running"
    del data["statesmen"]
    (tmp_path / "bad.json").write_text(json.dumps(data))
    bad = pbem("decks", "install", "bad.json", db_url=sqlite_db.url, cwd=tmp_path)
    assert bad.returncode == 1 and "statesmen" in bad.stderr
