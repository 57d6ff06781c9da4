"""The initial state and the per-year reset."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, Rng, event, seed_state

from .data import (
    ADVISOR_HOME,
    ADVISORS,
    AREAS,
    DISTRICTS,
    HOUSES,
    MARKERS,
    PALACES,
    RINGS,
    ROUNDS,
    RULES_VERSION,
)

State = dict[str, Any]


def new_state(seed: str, seats: list[str], options: dict[str, Any]) -> State:
    state: State = {
        "game": "doge",
        "rules_version": RULES_VERSION,
        "seats": list(seats),
        "options": dict(options),
        "year": 1,
        "rounds": ROUNDS[len(seats)],
        "districts": {d: {"houses": {}, "palaces": []} for d in DISTRICTS},
        "advisors": {a: {"home": ADVISOR_HOME[a], "at": None, "owner": None} for a in ADVISORS},
        "supply": {
            s: {"houses": HOUSES, "palaces": PALACES, "rings": RINGS, "markers": len(MARKERS)} for s in seats
        },
        "cards_used": {s: [] for s in seats},
        "ballots": {a: {} for a in AREAS},
        "voting": {"current": [], "next": [], "used": []},
        "election": None,
        "serial": 0,
        "result": None,
        "flow": [],
        "private": {s: {"markers": list(MARKERS), "ballots": {}} for s in seats},
        "secret": {"rng": seed_state(seed), "hidden": []},
    }
    # Both voting-order sets are shuffled: one lies face up (this year's order), one face down.
    rng = Rng.of(state)
    face_up = list(AREAS)
    rng.shuffle(face_up)
    face_down = list(AREAS)
    rng.shuffle(face_down)
    state["voting"]["current"] = face_up
    state["secret"]["hidden"] = face_down
    return state


def start_year(state: State, events: list[Event]) -> None:
    """Markers and cards come back; the turned-up set becomes this year's order; the used cards
    are shuffled face down."""
    for seat in state["seats"]:
        state["private"][seat] = {"markers": list(MARKERS), "ballots": {}}
        state["supply"][seat]["markers"] = len(MARKERS)
        state["cards_used"][seat] = []
    state["ballots"] = {a: {} for a in AREAS}
    voting = state["voting"]
    if voting["used"]:
        voting["current"] = voting["next"]
        voting["next"] = []
        used = voting["used"]
        Rng.of(state).shuffle(used)
        state["secret"]["hidden"] = used
        voting["used"] = []
        events.append(event("voting-reshuffled", year=state["year"], order=list(voting["current"])))
    events.append(event("year-started", year=state["year"], order=list(voting["current"])))
