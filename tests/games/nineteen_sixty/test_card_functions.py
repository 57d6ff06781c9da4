"""Each card's event is one function named after the card, its docstring the card's text, and a
condition's frame is saved as records made before hold it (their state hashes include it)."""

from __future__ import annotations

import re

import pytest

from adjudicator.engine import copy_json, message_text
from adjudicator.games.nineteen_sixty.data import CARDS
from adjudicator.games.nineteen_sixty.effects import EVENTS
from adjudicator.games.nineteen_sixty.text import event_effect

from .helpers import act, clear_board, give, start, waiting

K, X = "kennedy", "nixon"


def function_name(card: int) -> str:
    """The card's name in lower case with underscores; a leading number goes to the end."""
    name = re.sub(r"[^a-z0-9]+", "_", CARDS[card].name.lower().replace("'", "")).strip("_")
    number = re.match(r"(\d+)_(.*)", name)
    return f"{number.group(2)}_{number.group(1)}" if number else name


def test_every_card_has_one_function_named_after_it():
    assert sorted(EVENTS) == sorted(CARDS)
    assert {card: EVENTS[card].__name__ for card in CARDS} == {card: function_name(card) for card in CARDS}
    assert EVENTS[25].__name__ == "civil_rights_act_1960" and EVENTS[2].__name__ == "nixons_knee"


@pytest.mark.parametrize("card", sorted(CARDS))
def test_the_docstring_is_the_cards_text(card):
    effect = event_effect(card)
    assert effect is not None
    assert " ".join((EVENTS[card].__doc__ or "").split()) == message_text(effect)


def leading(state: dict, issue: str, seat: str, cubes: int) -> dict:
    state = copy_json(state)
    state["issues"][issue][seat] = cubes
    state["supply"][seat] -= cubes
    return state


def event_frames(state: dict) -> list[dict]:
    return [frame["args"] for frame in state["flow"] if frame["node"] == "event"]


def test_a_condition_that_holds_saves_its_steps_in_its_own_frame():
    state = give(clear_board(start(first=X)), X, 72)
    state = act(leading(state, "Civil Rights", K, 1), X, {"play": 72, "as": "event"})
    card_frame, condition_frame = event_frames(state)
    assert card_frame["card"] == 72 and card_frame["i"] == 1 and "inline" not in card_frame
    assert condition_frame == {"card": 72, "seat": X, "i": 1, "picked": None,
                               "inline": [["support", X, 5, 2, ["regions", ["South"]]]]}
    assert waiting(state)[X].kind == "support"


def test_the_steps_of_a_condition_run_in_order_in_its_frame():
    state = give(clear_board(start()), K, 94, 5, 9)
    state = leading(leading(state, "Economy", X, 1), "Defense", X, 1)
    momentum = state["momentum"][K]
    state = act(state, K, {"play": 94, "as": "event"})
    assert event_frames(state)[-1]["inline"] == [["momentum", K, 1], ["cycle", K]]
    assert state["momentum"][K] == momentum + 1 and waiting(state)[K].kind == "discard"
    state = act(state, K, {"done": True})
    assert not event_frames(state) and 94 in state["removed"]


def test_a_condition_that_fails_ends_the_event():
    state = give(clear_board(start(first=X)), X, 72)
    state = act(state, X, {"play": 72, "as": "event"})
    assert not event_frames(state) and 72 in state["removed"] and list(waiting(state)) == [K]
