"""Offices: appointing a statesman and the vacancies the President or the committee may fill.

Shared by the issue phase, the committee of the reduced-negotiation variant and the
re-appointment after a change of party, so that none of them imports another for it."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, Order, event

from .data import APPOINTED
from .effects import add_cubes
from .state import D, eligible_appointees, mark_vacated, vacated

State = dict[str, Any]


def appoint(state: State, office: str, sid: str, events: list[Event]) -> None:
    """Appoint `sid` (leaving any other office he held); popularity unless a death replacement.

    A holder named to an office vacated by death or election leaves his own office vacant in
    turn; it is refilled the same way (holders may move into it too) and, like a death
    replacement, without the popularity ("hasta que todos los departamentos estén nuevamente
    ocupados"; reading: the same for an election's chain, so moving holders round never pays)."""
    d = D(state)
    left = None
    for o, h in state["offices"].items():
        if h == sid:
            state["offices"][o] = None
            left = o
    previous = state["offices"][office]
    state["offices"][office] = sid
    events.append(event("appointed", office=office, statesman=sid, replaced=previous))
    repl = state["term"]["replacements"]
    gap = vacated(state)
    chain = office in gap and left in APPOINTED
    if office in gap:
        gap.remove(office)
    if office in repl:
        repl.remove(office)
    else:
        add_cubes(state, sid, d.offices[office]["appointment_popularity"], events, f"appointed {office}")
    if chain and left is not None:  # chain holds only when he left an office
        mark_vacated(state, left)
        repl.append(left)


def appointment_choices(state: State, offices: tuple[str, ...] | list[str] = APPOINTED) -> list[Order]:
    if state["options"].get("reduced_negotiation"):
        return []  # the variant's committee fills the offices, never the President
    return [{"act": "appoint", "office": o, "statesman": s} for o in offices for s in eligible_appointees(state, o)]


def fillable_vacancies(state: State) -> list[str]:
    """Vacant offices a statesman without office can take (moving a holder only moves the gap)."""
    return [o for o in APPOINTED if state["offices"][o] is None and eligible_appointees(state, o, movers=False)]


def committee_due(state: State) -> bool:
    """Reduced negotiation: a vacancy someone can fill goes to the committee before the President acts."""
    return bool(state["options"].get("reduced_negotiation") and state["offices"]["president"]
                and fillable_vacancies(state))
