"""The flow object and a node base class that answers "who waits" cheaply.

`Flow.settle` asks each node which seats it waits for after every step; building a campaign prompt
(hundreds of choices) for that would be slow, so nodes answer `waiting()` and `choices()` apart.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Event, Flow, IllegalOrder, Message, Node, Order, Prompt, message_text

State = dict[str, Any]
Args = dict[str, Any]
Events = list[Event]


class N(Node):
    kind = ""

    def waiting(self, state: State, args: Args) -> list[str]:
        return []

    def choices(self, state: State, args: Args, seat: str) -> list[Order]:
        return []

    def group(self, state: State, args: Args) -> str | None:
        """The sealed group's name, or None for an open prompt."""
        return None

    def text(self, state: State, args: Args, seat: str) -> str | Message:
        """The decision's text: a message (msgid and values, translated for the reader) or English."""
        return self.kind

    def prompts(self, state: State, args: Args) -> dict[str, Prompt]:
        waiting = self.waiting(state, args)
        group = self.group(state, args) if waiting else None
        return {seat: self._prompt(state, args, seat, group) for seat in waiting}

    def _prompt(self, state: State, args: Args, seat: str, group: str | None) -> Prompt:
        said = self.text(state, args, seat)
        msg = said if isinstance(said, tuple) else None
        return Prompt(seat=seat, kind=self.kind, choices=self.choices(state, args, seat), sealed=group is not None,
                      group=group, text=message_text(msg) if msg else str(said), message=msg)

    def apply(self, state: State, args: Args, orders: dict[str, Order], events: Events) -> None:
        if len(orders) != 1:
            raise IllegalOrder("one order at a time here")
        seat, order = next(iter(orders.items()))
        if seat not in self.waiting(state, args):
            raise IllegalOrder(f"{seat} has nothing to decide now")
        self.act(state, args, seat, order, events)

    def act(self, state: State, args: Args, seat: str, order: Order, events: Events) -> None:
        raise NotImplementedError

    def default(self, state: State, args: Args, seat: str) -> Order:
        return self.choices(state, args, seat)[0]


NODES: dict[str, N] = {}


def node(name: str):
    """Class decorator: register a node instance under `name`."""

    def wrap(cls: type[N]) -> type[N]:
        NODES[name] = cls()
        return cls

    return wrap


FLOW = Flow(NODES)  # type: ignore[arg-type]
