"""The game's flow object and a node base class with a cheap "who is waiting" test.

`Flow.settle` asks each node which seats it waits for after every step; building the placement
prompts (hundreds of sorted choices per seat) for that would make every apply slow, so Doge's nodes
answer `waiting()` cheaply and build their prompts from it.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Flow, IllegalOrder, Message, Node, Order, Prompt, message_text

State = dict[str, Any]


class DogeNode(Node):
    kind = ""

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        return []

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        return []

    def group(self, state: State, args: dict[str, Any], waiting: list[str]) -> str | None:
        """The sealed group name, or None for an open prompt."""
        return None

    def message(self, state: State, args: dict[str, Any], seat: str) -> Message | None:
        """What is being decided, as a msgid and values (the reader's language, issue 12)."""
        return None

    def prompts(self, state: State, args: dict[str, Any]) -> dict[str, Prompt]:
        waiting = self.waiting(state, args)
        group = self.group(state, args, waiting) if waiting else None
        prompts = {}
        last: tuple[Message | None, str] = (None, "")  # a sealed round words every seat's prompt alike
        for seat in waiting:
            msg = self.message(state, args, seat)
            if msg != last[0]:
                last = (msg, message_text(msg) if msg else "")
            prompts[seat] = Prompt(
                seat=seat,
                kind=self.kind,
                choices=self.choices(state, args, seat),
                sealed=group is not None,
                group=group,
                text=last[1],
                presorted=True,  # enumerated in a fixed order: cards, then marker sets
                message=msg,
            )
        return prompts

    def check(self, state: State, args: dict[str, Any], orders: dict[str, Order]) -> None:
        """A cheap guard for direct callers; `apply_checked` has already checked the choices."""
        waiting = self.waiting(state, args)
        expected = set(waiting) if self.group(state, args, waiting) else None
        if expected is not None and set(orders) != expected:
            raise IllegalOrder(f"this sealed group needs orders from exactly: {', '.join(waiting)}")
        if expected is None and (len(orders) != 1 or next(iter(orders)) not in waiting):
            raise IllegalOrder(f"waiting for: {', '.join(waiting) or 'nobody'}")


FLOW = Flow({})


def node(name: str):
    """Class decorator: register one instance of the node under `name`."""

    def register(cls: type[Node]) -> type[Node]:
        FLOW.nodes[name] = cls()
        return cls

    return register
