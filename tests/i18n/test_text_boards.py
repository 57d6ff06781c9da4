"""The text board (mails and the seat page's text view) reaches a Spanish reader in Spanish (issue 12):
random states of every game, rendered for the public and for each seat, where every label the board
words as a message has a Spanish translation, and no line but a pure data line (a table row, a 1960
region's states) is left unchanged English."""

from __future__ import annotations

import re
from typing import Any

import pytest
from babel.messages.pofile import read_po

from adjudicator import i18n
from adjudicator.engine import get_game
from tests.support.play import random_game

GAMES = ["doge", "china", "1960", "founding-fathers"]
# Lines made only of data (names, numbers, seats), the same in every language; every other line has words.
DATA_LINE = re.compile(r"^(\|.*\||- \*\*\w+\*\*: .*|)$")
HAND_WORDS = {"doge": "Tus marcadores", "china": "Tu mano:", "1960": "Tu mano:", "founding-fathers": "Tu mano:"}


def _spanish() -> dict[str, str]:
    with i18n.catalog_path("es").open("rb") as f:
        return {m.id: m.string for m in read_po(f, locale="es") if m.id}


def _msgids(msg: Any) -> list[str]:
    """The msgids with words of a message and of the messages in its values (a pure join of values,
    "%(p0)s; %(p1)s", has none)."""
    msgid, values = msg
    nested = [v for v in values.values() if isinstance(v, tuple) and len(v) == 2 and isinstance(v[1], dict)]
    own = [msgid] if any(c.isalpha() for c in re.sub(r"%\(\w+\)s", "", msgid)) else []
    return [*own, *(m for v in nested for m in _msgids(v))]


def _states(game_id: str) -> list[tuple[Any, list[str | None]]]:
    """A few states of random games (every 40th step and the last), with their viewers."""
    found = []
    for seed in range(3):
        for step, (state, seats, prompts) in enumerate(random_game(game_id, seed, "boards")):
            if step % 40 == 0 or not prompts:
                found.append((state, [None, *seats]))
    return found


@pytest.mark.parametrize("game_id", GAMES)
def test_the_text_board_of_random_states_reads_in_spanish(game_id: str) -> None:
    game, spanish = get_game(game_id), _spanish()
    used: set[str] = set()

    def recording(msg: Any) -> str:
        used.update(_msgids(msg))
        return i18n.translate(msg)

    english_lines: set[str] = set()
    hands = 0
    for state, viewers in _states(game_id):
        for viewer in viewers:
            view = game.view(state, viewer)
            english = game.render_view_in(view, viewer, recording)
            assert english == game.render_view(view, viewer)  # the English board is the same either way
            with i18n.language("es"):
                board = game.render_view_in(view, viewer, recording)
            assert board != english
            english_lines.update(english.splitlines())
            unchanged = [line for line in board.splitlines() if line in english_lines and not DATA_LINE.match(line)]
            assert not unchanged, f"{game_id}: English left on the Spanish board: {unchanged[:3]}"
            hands += HAND_WORDS[game_id] in board
    assert hands, f"{game_id}: no seat's own part (hand or markers) was rendered in Spanish"
    missing = sorted(m for m in used if not spanish.get(m))
    assert not missing, f"{game_id}: board msgids without Spanish: {missing[:10]}"


def test_a_1960_hand_lists_card_effects_in_spanish() -> None:
    game = get_game("1960")
    options = game.info.resolve_options({})
    state = game.setup("boards", game.seat_names(2, options), options).state
    view = game.view(state, "kennedy")
    with i18n.language("es"):
        board = game.render_view_in(view, "kennedy", i18n.translate)
    from adjudicator.games.nineteen_sixty.text import card_message  # the card texts already in the catalog

    card = view["private"]["kennedy"]["hand"][0]
    with i18n.language("es"):
        effect = i18n.translate(card_message(card))
    assert f"): {effect}" in board.split("Tu mano:")[1]
    assert effect not in game.render_view(view, "kennedy")
