"""The flow object and the node base class (cheap `waiting`, prompts built from `choices`)."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import Flow, Message, Node, Order, Prompt, message_text

State = dict[str, Any]


class FFNode(Node):
    kind = ""
    sealed = False
    hidden = False  # the order names something only its seat may know: the public record withholds it

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        return []

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order]:
        return []

    def text(self, state: State, args: dict[str, Any], seat: str) -> str | Message:
        """The decision's text: a message (msgid and values, translated for the reader) or English."""
        return ""

    def prompts(self, state: State, args: dict[str, Any]) -> dict[str, Prompt]:
        waiting = self.waiting(state, args)
        group = f"{self.kind}-{state['turn']}" if self.sealed and waiting else None
        return {
            seat: Prompt(seat=seat, kind=self.kind, choices=self.choices(state, args, seat),
                         sealed=group is not None, group=group, **said(self.text(state, args, seat)),
                         presorted=True, hidden=self.hidden)
            for seat in waiting
        }

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        return self.choices(state, args, seat)[0]


def said(text: str | Message) -> dict[str, Any]:
    """A prompt's `text` and `message` from a decision's text (a message, or English only)."""
    if isinstance(text, tuple):
        return {"text": message_text(text), "message": text}
    return {"text": text}


FLOW = Flow({})


def node(name: str):
    def register(cls: type[Node]) -> type[Node]:
        FLOW.nodes[name] = cls()
        return cls

    return register
