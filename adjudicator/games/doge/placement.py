"""Phase one of a year: sealed rounds of area cards and ballot markers."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from typing import Any

from adjudicator.engine import N_, ChoiceGrid, Event, IllegalOrder, Message, Order, event, message

from .aims import marker_for, preferred_districts
from .data import AREAS, DISTRICTS, MAX_MARKERS_PER_CARD
from .flowbase import FLOW, DogeNode, node

State = dict[str, Any]


@lru_cache(maxsize=256)
def marker_sets(remaining: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every distinct sub-multiset of 1..4 markers, each sorted high to low."""
    ordered = tuple(sorted(remaining, reverse=True))
    found: set[tuple[int, ...]] = set()
    for size in range(1, min(MAX_MARKERS_PER_CARD, len(ordered)) + 1):
        found.update(combinations(ordered, size))
    return tuple(sorted(found))


def _placement(card: str, markers: tuple[int, ...]) -> Order:
    return {"card": card, "markers": list(markers)}


def _placement_parts(order: Order) -> tuple[Any, ...]:
    return order["card"], tuple(order["markers"])


def unused_cards(state: State, seat: str) -> list[str]:
    used = state["cards_used"][seat]
    return [a for a in AREAS if a not in used]


def remove_markers(supply: list[int], chosen: list[int]) -> list[int] | None:
    rest = list(supply)
    for value in chosen:
        if value not in rest:
            return None
        rest.remove(value)
    return rest


@node("placement")
class Placement(DogeNode):
    kind = "placement"

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        if args["round"] > state["rounds"]:
            return []
        return [s for s in state["seats"] if state["private"][s]["markers"]]

    def group(self, state: State, args: dict[str, Any], waiting: list[str]) -> str | None:
        return f"year-{state['year']}-round-{args['round']}"

    def choices(self, state: State, args: dict[str, Any], seat: str) -> ChoiceGrid:
        # Every unused card with every marker set, card by card: up to 273 choices a seat, built
        # only when listed (a lookup or a random pick builds one).
        sets = marker_sets(tuple(state["private"][seat]["markers"]))
        return ChoiceGrid((unused_cards(state, seat), sets), _placement, _placement_parts)

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message:
        return message(N_("Year %(year)s, placement round %(round)s of %(rounds)s: play one unused area card "
                          "with 1 to 4 of your ballot markers."),
                       year=state["year"], round=args["round"], rounds=state["rounds"])

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        # One marker (aims.marker_for) on the unused district card the seat's aim prefers; the
        # Quarantia card only when no district card is left.
        unused = unused_cards(state, seat)
        districts = [a for a in unused if a in DISTRICTS]
        card = preferred_districts(state, seat, districts)[0] if districts else unused[0]
        return {"card": card, "markers": [marker_for(state, seat, card)]}

    def apply(self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event]) -> None:
        self.check(state, args, orders)
        plays: dict[str, Any] = {}
        for seat in state["seats"]:
            if seat not in orders:
                continue
            order = orders[seat]
            card, markers = order["card"], list(order["markers"])
            private = state["private"][seat]
            rest = remove_markers(private["markers"], markers)
            if card in state["cards_used"][seat] or rest is None or not 1 <= len(markers) <= 4:
                raise IllegalOrder(f"{seat}: not a legal placement now")
            private["markers"] = rest
            private["ballots"][card] = sorted(markers, reverse=True)
            state["cards_used"][seat].append(card)
            state["supply"][seat]["markers"] = len(rest)
            state["ballots"][card][seat] = len(markers)
            plays[seat] = {"card": card, "count": len(markers)}
            events.append(event("markers-placed", audience=[seat], seat=seat, area=card, markers=markers))
        events.append(event("cards-revealed", year=state["year"], round=args["round"], plays=plays))
        args["round"] += 1

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        events.append(event("placement-ended", year=state["year"]))
        FLOW.goto(state, "elections")


