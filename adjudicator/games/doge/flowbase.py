"""The game's flow object and a node base class with a cheap "who is waiting" test.

`Flow.settle` asks each node which seats it waits for after every step; building the placement
prompts (hundreds of sorted choices per seat) for that would make every apply slow, so Doge's nodes
answer `waiting()` cheaply and build their prompts from it (`ChoiceNode`).
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import ChoiceNode, Flow, IllegalOrder, Message, Order

State = dict[str, Any]


class DogeNode(ChoiceNode):
    presorted = True  # enumerated in a fixed order: cards, then marker sets

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message | None:
        """What is being decided, as a msgid and values (the reader's language, issue 12)."""
        return None

    def text(self, state: State, args: dict[str, Any], seat: str) -> str | Message:
        return self.message(state, args, seat) or ""

    def check(self, state: State, args: dict[str, Any], orders: dict[str, Order]) -> None:
        """A cheap guard for direct callers; `apply_checked` has already checked the choices."""
        waiting = self.waiting(state, args)
        expected = set(waiting) if self.group(state, args, waiting) else None
        if expected is not None and set(orders) != expected:
            raise IllegalOrder(f"this sealed group needs orders from exactly: {', '.join(waiting)}")
        if expected is None and (len(orders) != 1 or next(iter(orders)) not in waiting):
            raise IllegalOrder(f"waiting for: {', '.join(waiting) or 'nobody'}")


FLOW: Flow[DogeNode] = Flow()
node = FLOW.node
