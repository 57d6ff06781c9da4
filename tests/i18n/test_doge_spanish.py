"""Doge's own texts (decisions, refusals, log, board, outcome) in the Spanish rulebook's words,
while their English stays as before: the game names msgids, the service translates (issue 12)."""

from __future__ import annotations

import pytest

from adjudicator import i18n
from adjudicator.engine import IllegalOrder, get_game
from adjudicator.games.doge.data import DISTRICTS


def test_the_outcome_reads_in_spanish_and_stays_english() -> None:
    game = get_game("doge")
    state = {"result": {"winners": ["red"], "palaces": {"red": 4, "blue": 2}, "reason": "doge", "year": 3},
             "districts": {d: {"houses": {"red": 1}, "palaces": []} for d in DISTRICTS}}
    outcome = game.outcome(state)
    assert outcome.summary == "red is the new Doge with 4 palaces and 6 houses after year 3."
    with i18n.language("es"):
        assert i18n.prompt_text(outcome.summary, outcome.message) == \
            "red es el nuevo Doge con 4 palacios y 6 casas tras el año 3."


def test_log_lines_nest_their_parts() -> None:
    game = get_game("doge")
    ev = {"kind": "advisor-taken", "data": {"seat": "red", "advisor": "adv-quarantia-2", "area": "castello",
                                           "previous": "blue"}}
    assert game.render_event(ev) == ("**red** takes Quarantia advisor 2 and stands it in Castello "
                                     "(ring returned to blue).")
    with i18n.language("es"):
        assert i18n.prompt_text("", game.event_message(ev)) == (
            "**red** toma el asesor 2 de la Cuarentena y lo coloca en Castello (el anillo vuelve a blue).")


def test_a_refusal_carries_its_message() -> None:
    game = get_game("doge")
    state = game.setup("s", ["red", "blue", "green"], game.info.resolve_options({})).state
    prompt = game.prompts(state)["red"]
    with pytest.raises(IllegalOrder) as caught:
        game.parse_order("place atlantis 3", prompt)
    assert str(caught.value).startswith("could not read 'place atlantis 3': 'atlantis' is not an area")
    with i18n.language("es"):
        assert i18n.error_text(caught.value).startswith(
            "no se pudo leer 'place atlantis 3': 'atlantis' no es un área; las áreas son")
        assert "Año 1, ronda de colocación 1 de 4" in i18n.prompt_text(prompt.text, prompt.message)
        board = game.render_view_in(game.view(state, "red"), "red", i18n.translate)
    assert "## Doge - año 1" in board and "**Tus marcadores (red)**" in board
