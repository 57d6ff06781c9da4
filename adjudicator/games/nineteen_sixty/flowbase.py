"""The flow object and a node base class that answers "who waits" cheaply.

`Flow.settle` asks each node which seats it waits for after every step; building a campaign prompt
(hundreds of choices) for that would be slow, so nodes answer `waiting()` and `choices()` apart.
"""

from __future__ import annotations

from typing import Any

from adjudicator.engine import (
    N_,
    ChoiceGrid,
    ChoiceNode,
    Event,
    Flow,
    IllegalOrder,
    Message,
    Order,
    message,
)

State = dict[str, Any]
Args = dict[str, Any]
Events = list[Event]


EXAMPLES = "%(examples)s"  # a decision's text with this placeholder lists some of its legal orders there


def legal_examples(choices: list[Order] | ChoiceGrid, count: int = 4) -> str:
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


class N(ChoiceNode):
    """A 1960 node: prompts from `waiting` and `choices`; a text with `EXAMPLES` shows legal orders."""

    def text(self, state: State, args: Args, seat: str) -> str | Message:
        return self.kind

    def worded(self, text: str | Message, choices: list[Order] | ChoiceGrid) -> str | Message:
        if isinstance(text, tuple) and EXAMPLES in text[0]:  # the text shows orders that are legal right now
            return (text[0], {**text[1], "examples": legal_examples(choices)})
        return text

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


FLOW: Flow[N] = Flow()
node = FLOW.node
