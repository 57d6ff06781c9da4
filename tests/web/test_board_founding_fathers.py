"""The Founding Fathers board: every view of a few random games draws (public and each seat),
the key facts are on it, and no seat's board shows another seat's hand."""

from __future__ import annotations

import pytest
from markupsafe import Markup

from adjudicator.cli.playout import _scramble, play_one
from adjudicator.engine import get_game, register
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.data import deck
from adjudicator.record.verify import replay_record
from web.boards import board_html


@pytest.fixture(autouse=True)
def registered():
    try:
        get_game("founding-fathers")
    except Exception:  # noqa: BLE001 - not registered in the catalogue yet: register it here
        register(GAME)


def _states(seed: str, players: int, options: dict | None = None):
    result = play_one("founding-fathers", seed, players=players, options=options or {}, check_views=False)
    assert not result.violations, result.violations[:3]
    return [state for _, state in replay_record(result.record.export(reveal_seed=True))]


def _others_scrambled(state: dict, seat: str | None) -> dict:
    changed = dict(state)
    changed["secret"] = _scramble(state.get("secret", {}))
    changed["private"] = {s: (p if s == seat else _scramble(p)) for s, p in state["private"].items()}
    return changed


@pytest.mark.parametrize("seed,players,options", [
    ("ffb-1", 3, {}), ("ffb-2", 5, {"persuasion": True}), ("ffb-3", 4, {"reduced_negotiation": True}),
    ("ffb-4", 6, {"scenario": "B"})])
def test_board_draws_every_view_and_hides_other_hands(app, seed, players, options) -> None:
    d = deck("standard")
    with app.app_context():
        states = _states(seed, players, options)
        assert len(states) > 20
        for state in states[:: max(1, len(states) // 60)] + [states[-1]]:
            for seat in [None, *state["seats"]]:
                view = GAME.view(state, seat)
                html = board_html("founding-fathers", view, seat)
                assert isinstance(html, Markup) and 'class="ff"' in html
                assert "Stand-in values" in html and "<script" not in html and "style=" not in html
                assert f"Tension</span> <b>{state['tension']} / 5</b>" in html
                assert f"Reserves</span> <b>{state['reserves']}</b>" in html
                for st in state["map"]:
                    assert d.states[st]["name"] in html
                for sid in state["statesmen"]:
                    assert d.statesmen[sid]["name"] in html
                # the seat's own hand is shown to him, and nothing of anybody else's
                assert ("Your hand:" in html) == (seat is not None)
                other = GAME.view(_others_scrambled(state, seat), seat)
                assert board_html("founding-fathers", other, seat) == html


def test_the_stand_in_notice_follows_the_decks_own_provenance(app) -> None:
    import json

    from adjudicator.games.founding_fathers.data import DECKS, deck_text

    printed = json.loads(deck_text("standard"))
    printed["id"] = "printed"
    for table in ("statesmen", "states", "offices", "taxes", "issues", "actions"):
        for card in printed[table]:
            card["stand_in"], card["provenance"] = [], "card"
    DECKS.add("printed", printed)
    with app.app_context():
        for name, expect, absent in (("printed", "every card value is taken from the printed", "Stand-in values"),
                                     ("standard", "412 values on 178 of 196 cards", "every card value")):
            state = GAME.setup("notice", ["red", "blue", "green"], GAME.info.resolve_options({"deck": name})).state
            html = board_html("founding-fathers", GAME.view(state, None), None)
            assert expect in html and absent not in html
