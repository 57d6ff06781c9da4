"""The HTML boards of China, 1960 and Founding Fathers read in Spanish on a Spanish page (issue 12):
every label the board asks Flask-Babel for has a Spanish translation, and the English labels are
gone from the Spanish board."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
from babel.messages.pofile import read_po

from adjudicator import i18n
from adjudicator.engine import get_game
from tests.support.play import random_game
from web.boards import board_html, hand_html

MODULES = {"doge": "web.boards.doge", "china": "web.boards.china", "1960": "web.boards.nineteen_sixty",
           "founding-fathers": "web.boards.founding_fathers"}
PARTS = {"doge": ("web.boards.venice",)}  # modules a board draws its parts with
# labels (with their markup, so a card's name is no match) each English board shows, the Spanish one must not
LABELS = {"doge": [">Areas as a list<", ">Voting order<", ">Venice: the six districts and the Quarantia<",
                   ">Cards used<"],
          "china": [">Face-up<", ">Discard pile<", ">Players (pieces still in supply)<", ">Regions as a table<",
                    ">Your hand<"],
          "1960": [">Events in play<", ">Candidate card<", '"Map of the 50 states"', ">Your hand<", ">Momentum<"],
          "founding-fathers": [">Public support<", ">Offices<", ">Election cubes<", ">Your hand<", ">Popularity<"]}


@pytest.fixture
def app(tmp_path):
    from web import create_app

    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'b.sqlite3'}", "SECRET_KEY": "t",
                       "PBEM_BOARD_STRICT": True})


def _views(game_id: str) -> list[tuple[dict[str, Any], str | None]]:
    game, found = get_game(game_id), []
    for seed in range(2):
        for step, (state, seats, prompts) in enumerate(random_game(game_id, seed, "html")):
            if step % 80 == 0 or not prompts:
                found += [(game.view(state, viewer), viewer) for viewer in [None, *seats]]
    return found


@pytest.mark.parametrize("game_id", sorted(MODULES))
def test_the_html_board_reads_in_spanish(app, monkeypatch, game_id: str) -> None:
    with i18n.catalog_path("es").open("rb") as f:
        spanish = {m.id: m.string for m in read_po(f, locale="es") if m.id}
    used: set[str] = set()
    for name in (MODULES[game_id], *PARTS.get(game_id, ())):
        module = importlib.import_module(name)

        def recording(msgid: str, real: Any = module._, **values: Any) -> str:
            used.add(msgid)
            return real(msgid, **values)

        monkeypatch.setattr(module, "_", recording)
    seen = {label: False for label in LABELS[game_id]}
    for view, seat in _views(game_id):
        # a game's hand, drawn beside the decision (hand_html), is checked with its board
        with app.test_request_context("/?lang=en"):
            english = str(board_html(game_id, view, seat)) + str(hand_html(game_id, view, seat) or "")
        with app.test_request_context("/?lang=es"):
            board = str(board_html(game_id, view, seat)) + str(hand_html(game_id, view, seat) or "")
        assert board != english
        for label in LABELS[game_id]:
            seen[label] |= label in english
            assert label not in board, f"{game_id}: {label!r} left in English on the Spanish board"
    assert all(seen.values()), f"{game_id}: labels never shown, so never checked: {seen}"
    missing = sorted(m for m in used if not spanish.get(m))
    assert used and not missing, f"{game_id}: board labels without Spanish: {missing[:10]}"
