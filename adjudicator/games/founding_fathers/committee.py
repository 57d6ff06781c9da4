"""Variant: reduced negotiation (option ``reduced_negotiation``) — the office committee.

After the cabinet resigns at the start of the Issues phase, the players take turns claiming the
vacant offices for their own statesmen (``claim OFFICE STATESMAN``), from the most Congress
votes to the fewest (ties: more votes in the President's party, Coalition Building included, then
the oldest statesman), round after round until no vacancy can be filled. The usual eligibility
holds (not the President or VP, one office each, at most one office outside the President's
party, the General's military requirement). The President appoints nobody. An office that falls
vacant by a death is claimed by the player with the fewest Congress votes who can fill it (then
the next fewest...). When a President dies and one of the other party succeeds him, the cabinet
is vacated and drafted again.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, event, message

from .data import APPOINTED, CABINET
from .flowbase import FLOW, FFNode, node
from .offices import appoint
from .state import D, congress_votes, eligible_appointees, number, owned, party, president_party

State = dict[str, Any]


def enabled(state: State) -> bool:
    return bool(state["options"].get("reduced_negotiation"))


def claims(state: State, seat: str) -> list[dict[str, Any]]:
    mine = set(owned(state, seat))
    return [{"act": "claim", "office": o, "statesman": s} for o in APPOINTED if state["offices"][o] is None
            for s in eligible_appointees(state, o, movers=False) if s in mine]


def draft_order(state: State, fewest_first: bool = False) -> list[str]:
    d = D(state)
    pp = president_party(state)

    def key(seat: str) -> tuple[int, int, int]:
        own = sum(d.statesmen[s]["votes"] for s in owned(state, seat) if party(state, s) == pp)
        own += state["term"]["coalition"].get(seat, 0)
        oldest = min((number(state, s) for s in owned(state, seat)), default=999)
        votes = congress_votes(state, seat)
        return (votes if fewest_first else -votes, -own, oldest)

    return sorted(state["seats"], key=key)


@node("committee")
class Committee(FFNode):
    """args: order (seats), k (whose turn), mode ``draft`` (round after round) or ``replace``
    (the first player in order who can claims; then the order starts again)."""
    kind = "committee"

    def _seat(self, state, args):
        order = args["order"]
        n = len(order)
        for i in range(n):
            seat = order[(args["k"] + i) % n]
            if claims(state, seat):
                return seat
        return None

    def waiting(self, state, args):
        if state["offices"]["president"] is None:
            return []
        seat = self._seat(state, args)
        return [seat] if seat else []

    def choices(self, state, args, seat):
        return claims(state, seat)

    def text(self, state, args, seat):
        return message(N_("Committee: claim a vacant office for one of your statesmen."))

    def apply(self, state, args, orders, events):
        seat, order = next(iter(orders.items()))
        events.append(event("office-claimed", seat=seat, office=order["office"], statesman=order["statesman"]))
        appoint(state, order["office"], order["statesman"], events)
        if args["mode"] == "draft":
            args["k"] = (args["order"].index(seat) + 1) % len(args["order"])
        else:
            args["order"] = draft_order(state, fewest_first=True)
            args["k"] = 0

    def advance(self, state, args, events):
        FLOW.ret(state)


def start_committee(state: State, mode: str, events: list[Event]) -> None:
    order = draft_order(state, fewest_first=(mode == "replace"))
    events.append(event("committee", mode=mode, order=order))
    FLOW.call(state, "committee", order=order, k=0, mode=mode)


def redraft(state: State, events: list[Event]) -> None:
    """A President of the other party succeeded: the cabinet is vacated and drafted again."""
    for office in CABINET:
        if state["offices"][office]:
            events.append(event("resigned", office=office, statesman=state["offices"][office]))
            state["offices"][office] = None
    start_committee(state, "draft", events)
