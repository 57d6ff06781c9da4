"""Cubes on the board and in the Political Capital bag: the one place that moves them.

Every cube move goes through here so conservation per colour (supply + board + rest + bag = 85,
supply allowed to run negative: the rulebook tells players to use substitutes) holds by design.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Rng, event

from .data import BAG_SEED, CARRY, REGIONS, SEATS, STATES
from .versions import since

State = dict[str, Any]
Events = list[dict[str, Any]]

KINDS = ("states", "media", "issues")  # cube locations on the board: state, region, issue


def other(seat: str) -> str:
    return SEATS[1] if seat == SEATS[0] else SEATS[0]


def holder(state: State, kind: str, key: str) -> str | None:
    """The side with cubes at a location (only one side can have any)."""
    spot = state[kind][key]
    for seat in SEATS:
        if spot[seat] > 0:
            return seat
    return None


def count(state: State, kind: str, key: str, seat: str) -> int:
    return state[kind][key][seat]


def carries(state: State, abbr: str, seat: str) -> bool:
    return state["states"][abbr][seat] >= CARRY


def media_region(abbr: str) -> str:
    return STATES[abbr].region  # AK and HI are West for every purpose but travel


def media_total(state: State, seat: str) -> int:
    return sum(state["media"][r][seat] for r in REGIONS)


def gain(state: State, kind: str, key: str, seat: str, events: Events, *, from_bag: bool = False) -> str:
    """One cube of support for `seat` at a location; removes an opposing cube first.

    `from_bag`: the cube is one just drawn in a support check (else it comes from the supply).
    """
    opp = other(seat)
    spot = state[kind][key]
    if spot[opp] > 0:
        spot[opp] -= 1
        state["supply"][opp] += 1
        if from_bag:
            state["supply"][seat] += 1  # the "spent" cube goes to its owner's supply
        events.append(event("cube", seat=seat, what=kind, at=key, did="removed", of=opp))
        return "removed"
    spot[seat] += 1
    if not from_bag:
        state["supply"][seat] -= 1
    events.append(event("cube", seat=seat, what=kind, at=key, did="placed"))
    return "placed"


def lose(state: State, kind: str, key: str, seat: str, n: int, events: Events) -> int:
    """Remove up to n of seat's cubes at a location to its supply; never more than it has."""
    taken = min(n, state[kind][key][seat])
    if taken:
        state[kind][key][seat] -= taken
        state["supply"][seat] += taken
        events.append(event("lose", seat=seat, what=kind, at=key, n=taken))
    return taken


def to_bag(state: State, seat: str, n: int) -> None:
    state["supply"][seat] -= n
    state["bag"][seat] += n


def reseed_if_empty(state: State, events: Events) -> None:
    """An empty bag is reseeded with 12 cubes of each colour at once, while reseeding is allowed.

    "Si la Bolsa ... se agota en cubos en cualquier momento antes de la fase de Estrategia de
    Campaña el Día de las Elecciones ..., se debe volver a sembrar": reseeding when the bag runs
    out (not at the next draw) means a bag emptied at the end of a turn is reseeded before the
    rest cubes go in, and one emptied by the Election Day initiative check is reseeded before
    the strategy checks draw (from then on `reseed` is off and an empty bag stays empty)."""
    bag = state["bag"]
    if state["reseed"] and bag[SEATS[0]] + bag[SEATS[1]] == 0:
        for seat in SEATS:
            to_bag(state, seat, BAG_SEED)
        events.append(event("reseed", n=BAG_SEED))


def draw(state: State, events: Events) -> str | None:
    """Draw one cube from the bag, reseeding it as soon as it runs out while that is allowed;
    None if none can be drawn."""
    bag = state["bag"]
    reseed_if_empty(state, events)  # a bag found empty (only in hand-built states) is reseeded too
    if bag[SEATS[0]] + bag[SEATS[1]] == 0:
        events.append(event("bag_empty"))
        return None
    index = Rng.of(state).weighted([bag[s] for s in SEATS])
    colour = SEATS[index]
    bag[colour] -= 1
    if since(state, "gmt-2017-2"):  # gmt-2017-1 reseeded only at the next draw
        reseed_if_empty(state, events)
    return colour


def support_check(state: State, seat: str, kind: str, key: str, events: Events, *, redraw: bool = False) -> bool:
    """Draw one cube; own colour becomes support at the location, else it goes to its owner."""
    colour = draw(state, events)
    if colour is None:
        events.append(event("check", seat=seat, what=kind, at=key, drawn=None, ok=False))
        return False
    ok = colour == seat
    events.append(event("check", seat=seat, what=kind, at=key, drawn=colour, ok=ok))
    if ok:
        gain(state, kind, key, seat, events, from_bag=True)
        return True
    state["supply"][colour] += 1
    if redraw:  # Profiles in Courage: one more draw for a failed check
        return support_check(state, seat, kind, key, events)
    return False


def initiative_check(state: State, events: Events) -> str:
    """Draw until one colour has two; all drawn cubes go to their owners' supplies."""
    drawn = {s: 0 for s in SEATS}
    order = []
    while max(drawn.values()) < 2:
        colour = draw(state, events)
        if colour is None:  # only possible once reseeding is over; never happens in practice
            colour = SEATS[0] if drawn[SEATS[0]] >= drawn[SEATS[1]] else SEATS[1]
            drawn[colour] = 2
            break
        drawn[colour] += 1
        state["supply"][colour] += 1
        order.append(colour)
    winner = SEATS[0] if drawn[SEATS[0]] >= 2 else SEATS[1]
    events.append(event("initiative", winner=winner, drawn=order))
    return winner


def leads_issue(state: State, issue: str) -> str | None:
    return holder(state, "issues", issue)


def states_led(state: State, seat: str, region: str | None = None) -> list[str]:
    return [a for a, s in STATES.items() if state["states"][a][seat] > 0 and (region is None or s.region == region)]


def bare_check(state: State, seat: str, why: str, events: Events, *, redraw: bool = False) -> bool:
    """A support check whose success is placed later (advertising): the drawn own cube goes to the
    supply and the placement takes it from there, which moves the same cubes in total."""
    colour = draw(state, events)
    ok = colour == seat
    events.append(event("check", seat=seat, what=why, at="-", drawn=colour, ok=ok))
    if colour is not None:
        state["supply"][colour] += 1
    if not ok and redraw and colour is not None:
        return bare_check(state, seat, why, events)
    return ok
