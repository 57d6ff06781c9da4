"""Hand-built Doge states for scenario tests."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, Order, apply_checked
from adjudicator.games.doge import GAME
from adjudicator.games.doge.board import houses_on_board
from adjudicator.games.doge.data import ADVISORS, AREAS, DISTRICTS, HOUSES, MARKERS, PALACES, RINGS
from adjudicator.games.doge.flowbase import FLOW

SEATS = ["red", "blue", "green", "yellow"]
State = dict[str, Any]


def fresh(players: int = 4, seed: str = "test") -> State:
    return GAME.setup(seed, SEATS[:players], {}).state


def board(
    *,
    players: int = 4,
    houses: dict[str, dict[str, int]] | None = None,
    palaces: dict[str, list[str]] | None = None,
    advisors: dict[str, tuple[str | None, str | None]] | None = None,
    supply_houses: dict[str, int] | None = None,
    supply_palaces: dict[str, int] | None = None,
) -> State:
    """A fresh game with the board replaced; supplies are derived so that pieces are conserved."""
    state = fresh(players)
    seats = state["seats"]
    for district, by_seat in (houses or {}).items():
        state["districts"][district]["houses"] = {s: n for s, n in by_seat.items() if n}
    for district, owners in (palaces or {}).items():
        state["districts"][district]["palaces"] = list(owners)
    for advisor, (owner, at) in (advisors or {}).items():
        state["advisors"][advisor]["owner"] = owner
        state["advisors"][advisor]["at"] = at
    for seat in seats:
        on_board = houses_on_board(state, seat)
        built = sum(state["districts"][d]["palaces"].count(seat) for d in DISTRICTS)
        state["supply"][seat]["houses"] = HOUSES - on_board
        state["supply"][seat]["palaces"] = PALACES - built
        state["supply"][seat]["rings"] = RINGS - sum(1 for a in ADVISORS if state["advisors"][a]["owner"] == seat)
    # Extra houses/palaces beyond the supply are parked "in the box" for exhaustion tests.
    for seat, n in (supply_houses or {}).items():
        state["supply"][seat]["houses"] = n
    for seat, n in (supply_palaces or {}).items():
        state["supply"][seat]["palaces"] = n
    return state


def election(state: State, area: str, ballots: dict[str, list[int]]) -> tuple[State, list[Event]]:
    """Put the given markers on `area` and run its election (the first of the year's order)."""
    for seat, values in ballots.items():
        private = state["private"][seat]
        for v in values:
            private["markers"].remove(v)
        private["ballots"][area] = sorted(values, reverse=True)
        state["ballots"][area][seat] = len(values)
        state["supply"][seat]["markers"] = len(private["markers"])
    state["voting"]["current"] = [area] + [a for a in AREAS if a != area]
    state["flow"] = [{"node": "elections", "args": {}}]
    events: list[Event] = []
    FLOW.settle(state, events)
    return state, events


def play(state: State, orders: dict[str, Order]) -> tuple[State, list[Event]]:
    step = apply_checked(GAME, state, orders)
    return step.state, step.events


def kinds(events: list[Event]) -> list[str]:
    return [e["kind"] for e in events]


def waiting(state: State) -> dict[str, str]:
    return {seat: p.kind for seat, p in GAME.prompts(state).items()}


def top(state: State) -> dict[str, Any]:
    return state["flow"][-1]


def full_markers() -> list[int]:
    return list(MARKERS)


def take_houses(state: State, events: list[Event] | None = None) -> tuple[State, list[Event]]:
    """Answer every open `place-houses` decision with 'houses' (tied winners and runners-up place
    what they may); the events of those answers are added to `events`."""
    events = list(events or [])
    while set(waiting(state).values()) == {"place-houses"}:
        state, more = play(state, {seat: {"houses": True} for seat in waiting(state)})
        events += more
    return state, events
