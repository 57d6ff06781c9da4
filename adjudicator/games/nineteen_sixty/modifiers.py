"""Rest-of-turn events and prevention read as rule modifiers (CP, travel, checks, bans).

A rest-of-turn event leaves `{"card": id, "seat": affected}` in `state["effects"]` until the end
of the turn; these helpers are the only readers, so each card's lasting effect lives in one place.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, event

from .board import carries, count, gain, other, support_check
from .data import STATES, travel_cost

State = dict[str, Any]
Events = list[Event]

# card -> (seat whose cards change, delta, use it applies to or None for every use)
CP_MODS = {
    4: ("nixon", +1, None),
    54: ("kennedy", +1, None),
    26: ("kennedy", +1, "campaign"),
    69: ("kennedy", -2, None),
    88: ("kennedy", -2, "position"),
}
PREVENTS = {1: (9, 44, 73), 18: (74,)}


def active(state: State, card: int) -> dict[str, Any] | None:
    for eff in state["effects"]:
        if eff["card"] == card:
            return eff
    return None


def cp_value(state: State, seat: str, printed: int, use: str | None) -> int:
    """Printed CP changed by rest-of-turn modifiers in the order they were played; +1 caps at 5,
    -2 never goes below 1 (each modifier is clamped as it applies)."""
    value = printed
    for eff in state["effects"]:
        mod = CP_MODS.get(eff["card"])
        if not mod or mod[0] != seat or (mod[2] is not None and mod[2] != use):
            continue
        value = min(5, value + mod[1]) if mod[1] > 0 else max(1, value + mod[1])
    return value


def prevented(state: State, card: int) -> bool:
    return any(card in PREVENTS.get(c, ()) for c in state["boxes"]["prevention"])


def may_spend_momentum(state: State, seat: str) -> bool:
    if seat == "kennedy" and active(state, 44):
        return False
    return not (seat == "nixon" and active(state, 65))


def free_preempt(state: State, seat: str) -> bool:
    return seat == "kennedy" and active(state, 81) is not None


def free_travel(state: State, seat: str) -> bool:
    if seat == "kennedy" and active(state, 26):
        return True
    eff = active(state, 79)
    return eff is not None and eff["seat"] == seat


def campaign_banned(state: State, seat: str, abbr: str) -> bool:
    region = STATES[abbr].region
    if seat == "nixon" and active(state, 20) and region == "Midwest":
        return True
    if seat == "kennedy" and active(state, 30) and region == "South":
        return True
    if seat == "kennedy" and active(state, 87) and region in ("West", "Midwest"):
        return True
    if seat == "nixon" and active(state, 74) and count(state, "states", abbr, "kennedy") > 0:
        return True
    eff = active(state, 19)
    return eff is not None and eff["seat"] == seat and region == "South"


def needs_check(state: State, seat: str, abbr: str, campaigning: bool) -> bool:
    """Adding state support needs checks where the opponent carries the state or has its token,
    unless the adder has media in the region (the rule covers events as well as campaigning)."""
    if campaigning:
        eff = active(state, 79)
        if eff is not None and eff["seat"] == seat:
            return False
        if seat == "nixon" and active(state, 55):
            return True
    opp = other(seat)
    if state["media"][STATES[abbr].region][seat] > 0:
        return False
    return carries(state, abbr, opp) or state["tokens"][opp] == abbr


def redraws(state: State, seat: str) -> bool:
    return seat == "kennedy" and active(state, 31) is not None


def travel(state: State, seat: str, dst: str) -> int:
    if free_travel(state, seat):
        return 0
    return travel_cost(state["tokens"][seat], dst)


def add_state_support(state: State, seat: str, abbr: str, n: int, events: Events, *, campaigning: bool) -> None:
    """n cubes of state support, by support checks (declared n) where the rule asks for them.

    Here beside `needs_check` and `redraws` because both campaigning and event placements apply
    the same modifiers."""
    if needs_check(state, seat, abbr, campaigning):
        events.append(event("declare", seat=seat, at=abbr, n=n))
        for _ in range(n):
            support_check(state, seat, "states", abbr, events, redraw=redraws(state, seat))
    else:
        for _ in range(n):
            gain(state, "states", abbr, seat, events)
