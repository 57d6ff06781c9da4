"""The flow object and a node base class that answers "who waits" cheaply.

`Flow.settle` asks each node which seats it waits for after every step; building a campaign prompt
(hundreds of choices) for that would be slow, so nodes answer `waiting()` and `choices()` apart.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import (
    N_,
    Event,
    Flow,
    IllegalOrder,
    Message,
    Node,
    Order,
    Prompt,
    message,
    message_text,
)

State = dict[str, Any]
Args = dict[str, Any]
Events = list[Event]


EXAMPLES = "%(examples)s"  # a decision's text with this placeholder lists some of its legal orders there


def legal_examples(choices: list[Order], count: int = 4) -> str:
    """Up to `count` legal orders of different forms (`play 12 cp`, `play 12 event`, `campaign Ohio
    1`, `travel Texas`...), in code marks: examples that work now, unlike fixed ones."""
    from .grammar import format_order  # the grammar needs no flow; imported late to keep this module light

    forms: set[tuple[str, ...]] = set()
    shown: list[str] = []
    for choice in choices:
        text = format_order(choice)
        form = tuple(w for w in text.split() if w.islower() and not w.isdigit())  # names and numbers vary
        if form not in forms:
            forms.add(form)
            shown.append(f"`{text}`")
            if len(shown) == count:
                break
    return ", ".join(shown)


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
        choices = self.choices(state, args, seat)
        said = self.text(state, args, seat)
        msg = said if isinstance(said, tuple) else None
        if msg and EXAMPLES in msg[0]:  # the text shows orders that are legal right now
            msg = (msg[0], {**msg[1], "examples": legal_examples(choices)})
        return Prompt(seat=seat, kind=self.kind, choices=choices, sealed=group is not None,
                      group=group, text=message_text(msg) if msg else str(said), message=msg)


    def apply(self, state: State, args: Args, orders: dict[str, Order], events: Events) -> None:
        if len(orders) != 1:
            raise IllegalOrder(message(N_("one order at a time here")))
        seat, order = next(iter(orders.items()))
        if seat not in self.waiting(state, args):
            raise IllegalOrder(message(N_("%(seat)s has nothing to decide now"), seat=seat))
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
