"""Boards and decks a server installs: new games choose them by name, running games keep the
version they started with, and records carry them so that they verify on any machine."""

from __future__ import annotations

import copy
import json
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.cli.playout import play_one
from adjudicator.games.china.boardfile import read_board_data
from adjudicator.games.china.state import board_of
from adjudicator.games.founding_fathers.data import deck, deck_text
from adjudicator.record import VerifyError, entry_hash, export_bytes, verify_record
from adjudicator.store import Game, InstalledContent
from tests.support.play import new_game

PBEM = str(Path(sys.executable).with_name("pbem"))


def unique(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(3)}"  # libraries are per process: never reuse a name


def transcribed_board(dropped_road: int = 0) -> dict:
    """The stand-in 3-4p side as if transcribed: marked as the print, one road fewer."""
    side = read_board_data("3-4p")
    side["stand_in"] = False
    side["provenance"] = {"everything": "transcribed for a test"}
    side["roads"].pop(dropped_road)
    return {"3-4p": side}


def printed_deck() -> dict:
    data = json.loads(deck_text("standard"))
    data["statesmen"][0]["name"] = "Washington as printed"
    return data


def _play(game, steps: int) -> None:
    for _ in range(steps):
        waiting = [seat for seat in game.tokens if game.page(seat).prompt_token]
        if not waiting:
            return
        page = game.page(waiting[0])
        game.submit(waiting[0], page.choices[0])


def test_a_new_board_is_chosen_by_name_and_running_games_keep_theirs(db):
    name = unique("printed")
    with store.transaction() as s:
        first = service.install_content(s, "china", "board", name, transcribed_board(0), source="a.json")
    early = new_game("china", 3, options={"board": name})
    _play(early, 6)
    with store.transaction() as s:
        second = service.install_content(s, "china", "board", name, transcribed_board(1))
    late = new_game("china", 3, options={"board": name})

    def state(game) -> dict:
        with store.transaction(write=False) as s:
            return s.exec(select(Game).where(Game.public_id == game.game_id)).one().state

    assert first.pin != second.pin
    assert state(early)["board_set"] == first.pin and state(late)["board_set"] == second.pin
    removed = read_board_data("3-4p")["roads"][0]
    assert removed[1] not in board_of(state(early)).neighbours[removed[0]]
    assert removed[1] in board_of(state(late)).neighbours[removed[0]]
    _play(early, 6)  # still plays on its own board
    assert state(early)["board_set"] == first.pin
    with store.transaction(write=False) as s:
        listed = service.list_content(s, "china", "board")
        assert [(i.name, i.current) for i in listed if i.name == name] == [(name, False), (name, True)]
        assert listed[0].builtin and listed[0].name == "stand-in"
        rows = s.exec(select(InstalledContent).where(InstalledContent.name == name)).all()
        assert len(rows) == 2  # installing the same data again adds nothing
        setup = service.export_record(s, early.game_id)["entries"][0]["data"]
    assert setup["content"] == {first.pin: transcribed_board(0)}
    with store.transaction() as s:
        again = service.install_content(s, "china", "board", name, transcribed_board(1))
        assert again.pin == second.pin
        assert len(s.exec(select(InstalledContent).where(InstalledContent.name == name)).all()) == 2


def test_bad_installs_say_what_to_fix_and_store_nothing(db):
    broken = transcribed_board()
    broken["3-4p"]["alliances"] = []
    with store.transaction() as s:
        with pytest.raises(service.ServiceError, match="side 3-4p"):
            service.install_content(s, "china", "board", unique("broken"), broken)
        with pytest.raises(service.ServiceError, match="comes with pbem"):
            service.install_content(s, "china", "board", "stand-in", transcribed_board())
        with pytest.raises(service.NotFound, match="no installable decks"):
            service.install_content(s, "china", "deck", "x", {})
        assert s.exec(select(InstalledContent)).all() == []
    with store.transaction() as s, pytest.raises(service.ServiceError, match="no china board 'nowhere'"):
        service.create_game(s, game="china", seats=3, options={"board": "nowhere"})


def test_a_board_with_one_side_refuses_games_on_the_other(db):
    name = unique("half")
    with store.transaction() as s:
        service.install_content(s, "china", "board", name, transcribed_board())
    with store.transaction() as s, pytest.raises(service.ServiceError, match="has no 4-5p side"):
        service.create_game(s, game="china", seats=5, options={"board": name})
    with store.transaction() as s, pytest.raises(service.ServiceError, match="3 players always use the 3-4 side"):
        service.create_game(s, game="china", seats=3, options={"side": "4-5"})
    assert new_game("china", 4, options={"board": name}).game_id


def test_a_new_deck_is_played_by_new_games(db):
    name = unique("printed")
    with store.transaction() as s:
        info = service.install_content(s, "founding-fathers", "deck", name, printed_deck())
    game = new_game("founding-fathers", 3, options={"deck": name})
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game.game_id)).one()
        assert g.options["deck"] == info.pin == g.state["deck"]
        first = printed_deck()["statesmen"][0]["id"]
        assert deck(g.state["deck"]).statesmen[first]["name"] == "Washington as printed"
        assert deck("standard").statesmen[first]["name"] != "Washington as printed"


def _rehash(doc: dict) -> None:
    """Recompute every entry hash, as a forger who changed an entry's data would."""
    prev = "0" * 64
    for entry in doc["entries"]:
        entry["prev"] = prev
        entry["hash"] = entry_hash(entry)
        prev = entry["hash"]


def test_a_record_carries_its_board_and_verifies_in_a_process_that_never_saw_it(tmp_path):
    from adjudicator.games.china.boardfile import BOARDS

    name = unique("carried")
    BOARDS.add(name, transcribed_board(2))
    result = play_one("china", "carried-board", 3, {"board": name})
    assert not result.violations
    doc = result.record.export(reveal_seed=True)
    pin = doc["entries"][0]["data"]["options"]["board"]
    assert doc["entries"][0]["data"]["content"] == {pin: transcribed_board(2)}
    path = tmp_path / "game.json"
    path.write_bytes(export_bytes(doc))
    ok = subprocess.run([PBEM, "verify", str(path)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    assert "replayed" in ok.stdout

    forged = copy.deepcopy(doc)  # another board under the same pin: the pin gives it away
    forged["entries"][0]["data"]["content"][pin]["3-4p"]["roads"].pop()
    _rehash(forged)
    with pytest.raises(VerifyError, match="does not match its pin"):
        verify_record(forged)
    path.write_bytes(export_bytes(forged))
    bad = subprocess.run([PBEM, "verify", str(path)], capture_output=True, text=True)
    assert bad.returncode != 0 and "does not match its pin" in bad.stderr + bad.stdout

    stripped = copy.deepcopy(doc)  # without the board, a fresh process cannot replay it
    del stripped["entries"][0]["data"]["content"]
    _rehash(stripped)
    path.write_bytes(export_bytes(stripped))
    missing = subprocess.run([PBEM, "verify", str(path)], capture_output=True, text=True)
    assert missing.returncode == 1 and "no china board" in missing.stderr, missing.stderr
    assert "Traceback" not in missing.stderr


def test_a_game_keeps_its_built_in_board_after_an_upgrade_changes_the_shipped_file(db, monkeypatch):
    from adjudicator.games.china import boardfile
    from adjudicator.service.common import content

    game = new_game("china", 3)
    _play(game, 3)
    with store.transaction(write=False) as s:
        started_on = s.exec(select(Game).where(Game.public_id == game.game_id)).one().state["board_set"]
        kept = s.exec(select(InstalledContent).where(InstalledContent.pin == started_on)).one()
        assert kept.source == content.SNAPSHOT
        assert [i.name for i in service.list_content(s, "china", "board")] == ["stand-in"]  # not listed twice

    # a new release ships a corrected stand-in: a new pin, and this process never saw the old one
    upgraded = copy.deepcopy(boardfile.BOARDS.data(started_on))
    upgraded["3-4p"]["provenance"] = {"everything": "corrected in a later release"}
    monkeypatch.setattr(boardfile.BOARDS, "_items", {})
    monkeypatch.setattr(boardfile.BOARDS, "_current", {})
    monkeypatch.setattr(content, "_loaded_up_to", {})
    boardfile.load_board.cache_clear()
    new_pin = boardfile.BOARDS.add("stand-in", upgraded, builtin=True)
    assert new_pin != started_on

    _play(game, 3)  # the old game loads its kept version and goes on
    assert boardfile.BOARDS.resolve("stand-in") == new_pin  # new games get the new release's board
    later = new_game("china", 3)
    with store.transaction(write=False) as s:
        states = {g.public_id: g.state["board_set"] for g in s.exec(select(Game)).all()}
    assert states[game.game_id] == started_on and states[later.game_id] == new_pin
    boardfile.load_board.cache_clear()
