"""Palace building: offered whenever a player's house arrives in a district.

Several players who got houses at the same moment (a tie) decide together in a sealed group and
all pay the cost of the lowest free space, taking the next free spaces in turn (the rulebook's
San Marco example). A player who builds is asked again while he can still afford the next space;
one who declines is not asked again in this check.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import N_, Event, Message, Order, event, message

from .board import add_houses, can_build, houses_in, next_palace_cost, next_serial
from .data import AREA_NAMES
from .flowbase import FLOW, DogeNode, node

State = dict[str, Any]


def build_task(state: State, seats: list[str], district: str) -> tuple[str, dict[str, Any]]:
    group = f"year-{state['year']}-build-{next_serial(state)}"
    return "build", {"seats": list(seats), "area": district, "group": group, "round": 1}


@node("build")
class Build(DogeNode):
    kind = "build"

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        return [s for s in args["seats"] if can_build(state, args["area"], s)]

    def group(self, state: State, args: dict[str, Any], waiting: list[str]) -> str | None:
        return f"{args['group']}-{args['round']}" if len(waiting) > 1 else None

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        return [{"build": True}, {"build": False}]

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message:
        area = args["area"]
        return message(N_("You have %(houses)s houses in %(area)s: build a palace there for %(cost)s houses?"),
                       houses=houses_in(state, area, seat), area=AREA_NAMES[area], cost=next_palace_cost(state, area))

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        return {"build": True}  # a missed deadline should not throw a palace away

    def apply(self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event]) -> None:
        self.check(state, args, orders)
        area = args["area"]
        cost = next_palace_cost(state, area)
        assert cost is not None
        seat_index = {s: i for i, s in enumerate(state["seats"])}
        builders = [s for s in orders if orders[s]["build"]]
        for seat in sorted(orders, key=seat_index.__getitem__):
            if not orders[seat]["build"]:
                args["seats"].remove(seat)
                events.append(event("palace-declined", seat=seat, area=area, cost=cost))
        # Spaces go to the builder with more houses there first (Anna before Bernd), then seat order.
        builders.sort(key=lambda s: (-houses_in(state, area, s), seat_index[s]))
        palaces = state["districts"][area]["palaces"]
        for seat in builders:
            if len(palaces) >= 5:
                args["seats"].remove(seat)
                events.append(event("palace-no-space", seat=seat, area=area))
                continue
            add_houses(state, area, seat, -cost)
            supply = state["supply"][seat]
            supply["houses"] += cost
            supply["palaces"] -= 1
            palaces.append(seat)
            events.append(event("palace-built", seat=seat, area=area, cost=cost, space=2 + len(palaces)))
        args["round"] += 1

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        FLOW.ret(state)
