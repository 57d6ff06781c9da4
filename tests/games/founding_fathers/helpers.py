"""Shared helpers for the Founding Fathers tests."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import apply_checked
from adjudicator.games.founding_fathers import GAME

SEATS5 = ["red", "blue", "green", "yellow", "purple"]
State = dict[str, Any]


def fresh(players: int = 5, seed: str = "test") -> State:
    return GAME.setup(seed, GAME.seat_names(players, {}), {}).state


def act(state: State, seat: str, text: str) -> State:
    prompts = GAME.prompts(state)
    assert seat in prompts, f"{seat} is not prompted; waiting: {sorted(prompts)} ({[p.kind for p in prompts.values()]})"
    order = GAME.parse_order(text, prompts[seat])
    return apply_checked(GAME, state, {seat: order}).state


def waiting(state: State) -> dict[str, str]:
    return {s: p.kind for s, p in GAME.prompts(state).items()}


def give_card(state: State, seat: str, cid: str) -> None:
    """Move an action card from wherever it is into `seat`'s hand (places stay consistent)."""
    if cid in state["secret"]["actions"]:
        state["secret"]["actions"].remove(cid)
        state["actions"]["left"] -= 1
    for pile in (state["actions"]["discard"], state["actions"]["future"], state["secret"]["packet"]):
        if cid in pile:
            pile.remove(cid)
    for s in state["seats"]:
        if cid in state["private"][s]["hand"]:
            state["private"][s]["hand"].remove(cid)
            state["factions"][s]["hand"] -= 1
    state["private"][seat]["hand"] = sorted([*state["private"][seat]["hand"], cid])
    state["factions"][seat]["hand"] += 1
