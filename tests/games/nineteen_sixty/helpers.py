"""Building and driving 1960 states for tests."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import apply_checked, copy_json, scripted_state
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.data import SEATS

State = dict[str, Any]


def start(seed: str = "t", first: str = "kennedy", options: dict[str, Any] | None = None) -> State:
    """A new game at turn 1, activity phase 1, with `first` to play."""
    state = GAME.setup(seed, list(SEATS), GAME.info.resolve_options(options or {})).state
    seat = state["initiative"]
    for side in SEATS:  # put the initiative draws back: every test starts from a 12 + 12 bag
        state["supply"][side] -= 12 - state["bag"][side]
        state["bag"][side] = 12
    return act(state, seat, {"first": first})


def act(state: State, seat: str, order: Any) -> State:
    return apply_checked(GAME, state, {seat: order}).state


def give(state: State, seat: str, *cards: int) -> State:
    """Put cards into seat's hand (taken from wherever they are)."""
    state = copy_json(state)
    for card in cards:
        for pile in (state["secret"]["deck"], state["discard"], state["removed"],
                     *(p["hand"] for p in state["private"].values())):
            if card in pile:
                pile.remove(card)
        state["private"][seat]["hand"].append(card)
    state["private"][seat]["hand"].sort()
    return state


def script(state: State, *draws: int) -> State:
    state = copy_json(state)
    state["secret"]["rng"] = scripted_state(list(draws))
    return state


def waiting(state: State) -> dict[str, Any]:
    return GAME.prompts(state)


def clear_board(state: State) -> State:
    """No state support anywhere (cubes back to the supply) so effects can be read exactly."""
    state = copy_json(state)
    for spot in state["states"].values():
        for seat in SEATS:
            state["supply"][seat] += spot[seat]
            spot[seat] = 0
    return state


def cubes(state: State, abbr: str) -> dict[str, int]:
    return dict(state["states"][abbr])
