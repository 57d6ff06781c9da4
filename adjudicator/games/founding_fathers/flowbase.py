"""The flow object and the node base class (cheap `waiting`, prompts built from `choices`)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import ChoiceNode, Flow, Order, said

State = dict[str, Any]


class FFNode(ChoiceNode):
    presorted = True  # every node lists its choices in a fixed order
    sealed = False  # a sealed node's seats decide together, in the group of the node's kind and turn

    def group(self, state: State, args: dict[str, Any], waiting: list[str]) -> str | None:
        return f"{self.kind}-{state['turn']}" if self.sealed else None

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        return self.choices(state, args, seat)[0]


FLOW: Flow[FFNode] = Flow()
node = FLOW.node

__all__ = ["FFNode", "FLOW", "node", "said"]
