"""The Founding Fathers board: every view of a few random games draws (public and each seat),
the key facts are on it, and no seat's board shows another seat's hand."""

from __future__ import annotations

import pytest
from markupsafe import Markup, escape

from adjudicator.cli.playout import _scramble, play_one
from adjudicator.engine import get_game, register
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.data import deck
from adjudicator.record.verify import replay_record
from web.boards import board_html, hand_html


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
                # the seat's own hand is drawn beside the decision, not in the board, and only for its seat;
                # neither depends on anybody else's hand
                hand = hand_html("founding-fathers", view, seat)
                assert "Your hand" not in html and ("Your hand" in (hand or "")) == (seat is not None)
                for cid in view["private"].get(seat, {}).get("hand", []) if seat else []:
                    assert escape(d.name(cid)) in hand
                other = GAME.view(_others_scrambled(state, seat), seat)
                assert board_html("founding-fathers", other, seat) == html
                assert hand_html("founding-fathers", other, seat) == hand


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


def test_the_map_draws_every_state_admitted_or_not_with_its_votes_and_cubes():
    """A picture beside the tables: each state of the deck is a tile; the admitted ones are
    filled, the rest dashed; the current era's electoral votes and the election cubes are on it."""
    import re

    from web.boards.founding_fathers import MAX_CUBES

    states = _states("ffmap-1", 3)
    state = next(s for s in reversed(states) if any(GAME.view(s, None).get("election", {}).get("cubes", {}).values()))
    view = GAME.view(state, None)
    html = str(board_html("founding-fathers", view, None))
    d = deck(view["deck"])
    tiles = re.findall(r'<g class="state (admitted|future)"><title>([^<]*)</title>', html)
    assert len(tiles) == len(d.states)
    assert sum(kind == "admitted" for kind, _ in tiles) == len(set(view["map"]) & set(d.states))
    era = view["era"]
    ohio = next(title for _, title in tiles if title.startswith(d.states["OH"]["name"] + ":"))
    assert f"{d.states['OH']['ev'][era]} electoral votes in era {era}" in ohio
    cubes = view["election"]["cubes"]
    assert html.count('<circle class="cube') == sum(min(len(v), MAX_CUBES) for v in cubes.values()) > 0
    assert 'role="img" aria-label="Map of the states' in html
