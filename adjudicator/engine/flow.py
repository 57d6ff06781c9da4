"""A small flow helper for game authors: named nodes, a call stack kept in the state.

A game's turn structure is a set of `Node`s. The stack lives in ``state["flow"]`` (a list of
frames ``{"node": name, "args": {...}}``, the top one last), so it is plain JSON, hashed and
replayed like everything else.

- A *waiting* node returns prompts; `Flow.apply` hands the orders to it.
- A *procedure* node returns no prompts; `Flow.settle` runs its `advance`, which usually moves
  the flow on with `goto`, `call` or `ret`. `settle` keeps running procedures until some node
  waits for seats or the stack is empty (the game is over).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Generic, TypeVar

from .protocol import (
    ChoiceGrid,
    Event,
    GameModule,
    IllegalOrder,
    Message,
    Order,
    Prompt,
    State,
    Step,
)


class Node:
    """Override `prompts` + `apply` (+ `default`) for a waiting node, `advance` for a procedure."""

    def prompts(self, state: State, args: dict[str, Any]) -> dict[str, Prompt]:
        return {}

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        """The seats this node waits for. Override with a cheap answer when building the full
        prompts (every legal choice, sorted) is costly: `settle` asks this after every step."""
        return sorted(self.prompts(state, args))

    def apply(self, state: State, args: dict[str, Any], orders: dict[str, Order], events: list[Event]) -> None:
        raise NotImplementedError(f"{type(self).__name__} does not take orders")

    def default(self, state: State, args: dict[str, Any], seat: str) -> Order:
        raise NotImplementedError(f"{type(self).__name__} has no default order")

    def advance(self, state: State, args: dict[str, Any], events: list[Event]) -> None:
        raise NotImplementedError(f"{type(self).__name__} waits for nobody but cannot advance")


def said(text: str | Message) -> dict[str, Any]:
    """A prompt's `text` and `message` from a decision's text (a message, or English only); a
    message's English is worded only when the prompt's `text` is read (`Prompt.text`)."""
    if isinstance(text, tuple):
        return {"message": text}
    return {"text": text}


class ChoiceNode(Node):
    """A waiting node whose prompts are built from three cheap answers: `waiting` (which seats
    decide; `settle` asks it after every step), `choices` (one seat's legal orders, built only
    when its prompt is) and `text` (what is being decided). `group` names a sealed round."""

    kind: ClassVar[str] = ""
    presorted: ClassVar[bool] = False  # the choices come in the game's own fixed order
    hidden: ClassVar[bool] = False  # the order names something only its seat may know (Prompt.hidden)

    def waiting(self, state: State, args: dict[str, Any]) -> list[str]:
        return []

    def choices(self, state: State, args: dict[str, Any], seat: str) -> list[Order] | ChoiceGrid:
        return []

    def group(self, state: State, args: dict[str, Any], waiting: list[str]) -> str | None:
        """The sealed group's name, or None for an open prompt."""
        return None

    def text(self, state: State, args: dict[str, Any], seat: str) -> str | Message:
        """The decision's text: a message (msgid and values, translated for the reader) or English."""
        return ""

    def worded(self, text: str | Message, choices: list[Order] | ChoiceGrid) -> str | Message:
        """The text as the prompt shows it, once the choices are known (a game may fill in examples)."""
        return text

    def prompts(self, state: State, args: dict[str, Any]) -> dict[str, Prompt]:
        waiting = self.waiting(state, args)
        group = self.group(state, args, waiting) if waiting else None
        return {seat: self.prompt(state, args, seat, group) for seat in waiting}

    def prompt(self, state: State, args: dict[str, Any], seat: str, group: str | None) -> Prompt:
        choices = self.choices(state, args, seat)
        text = self.worded(self.text(state, args, seat), choices)
        # as `said` would pass it, without building its dict: a prompt is built every step
        if isinstance(text, tuple):
            return Prompt(seat=seat, kind=self.kind, choices=choices, sealed=group is not None, group=group,
                          presorted=self.presorted, hidden=self.hidden, message=text)
        return Prompt(seat=seat, kind=self.kind, choices=choices, sealed=group is not None, group=group,
                      presorted=self.presorted, hidden=self.hidden, text=text)


NodeT = TypeVar("NodeT", bound=Node)  # a game's own node base class


class Flow(Generic[NodeT]):
    MAX_AUTOMATIC_STEPS = 100_000  # a procedure loop that never waits is a bug, not a long game

    def __init__(self, nodes: dict[str, NodeT] | None = None) -> None:
        self.nodes: dict[str, NodeT] = {} if nodes is None else nodes

    def node(self, name: str) -> Callable[[type[NodeT]], type[NodeT]]:
        """Class decorator: one instance of the node class is this flow's node `name`."""

        def register(cls: type[NodeT]) -> type[NodeT]:
            self.nodes[name] = cls()
            return cls

        return register

    # stack operations -------------------------------------------------------------------------
    @staticmethod
    def stack(state: State) -> list[dict[str, Any]]:
        return state.setdefault("flow", [])

    def top(self, state: State) -> dict[str, Any] | None:
        stack = state.get("flow")  # asked several times a step: no setdefault call when it exists
        if stack is None:
            stack = self.stack(state)
        return stack[-1] if stack else None

    def start(self, state: State, node: str, **args: Any) -> None:
        state["flow"] = []
        self.call(state, node, **args)

    # (the stack operations below run several times a step: `stack` and `_check` are inlined)
    def goto(self, state: State, node: str, **args: Any) -> None:
        """Replace the current frame."""
        if node not in self.nodes:
            self._check(node)
        stack = state.setdefault("flow", [])
        if stack:
            stack.pop()
        stack.append({"node": node, "args": args})

    def call(self, state: State, node: str, **args: Any) -> None:
        """Push a frame; the caller resumes when the callee `ret`s."""
        if node not in self.nodes:
            self._check(node)
        state.setdefault("flow", []).append({"node": node, "args": args})

    def ret(self, state: State) -> None:
        state.setdefault("flow", []).pop()

    def end(self, state: State) -> None:
        state["flow"] = []

    def schedule(self, state: State, tasks: list[tuple[str, dict[str, Any]]]) -> None:
        """Push several frames so that they run in the given order (the top of the stack first).
        Each frame gets its own copy of the task's args dict, as `call(state, name, **args)` does."""
        nodes, stack = self.nodes, state.setdefault("flow", [])
        for name, args in reversed(tasks):
            if name not in nodes:
                self._check(name)
            stack.append({"node": name, "args": dict(args)})

    def _check(self, node: str) -> None:
        if node not in self.nodes:
            raise KeyError(f"unknown flow node {node!r}")

    # protocol helpers -------------------------------------------------------------------------
    def prompts(self, state: State) -> dict[str, Prompt]:
        frame = self.top(state)
        if frame is None:
            return {}
        return self.nodes[frame["node"]].prompts(state, frame["args"])

    def apply(self, state: State, orders: dict[str, Order], events: list[Event]) -> None:
        stack = state.get("flow")  # `top`, inlined: once a step
        frame = stack[-1] if stack else self.top(state)
        if frame is None:
            raise RuntimeError("the game is over; no orders are expected")
        self.nodes[frame["node"]].apply(state, frame["args"], orders, events)
        self.settle(state, events)

    def default(self, state: State, seat: str) -> Order:
        frame = self.top(state)
        if frame is None:
            raise RuntimeError("the game is over; there is nothing to default")
        return self.nodes[frame["node"]].default(state, frame["args"], seat)

    def settle(self, state: State, events: list[Event]) -> None:
        nodes = self.nodes
        for _ in range(self.MAX_AUTOMATIC_STEPS):
            stack = state.get("flow")  # `top`, inlined: this loop runs after every step
            if not stack:
                if stack is None:
                    self.stack(state)
                return
            frame = stack[-1]
            node, args = nodes[frame["node"]], frame["args"]
            if node.waiting(state, args):
                return
            node.advance(state, args, events)
        raise RuntimeError("flow did not reach a decision point; a procedure loops")


class FlowGame(GameModule):
    """A game whose turn structure is a `Flow`: prompts, apply and defaults come from its nodes.

    Subclasses set `flow` and still answer setup, grammar, rendering and outcome themselves."""

    flow: Flow[Any]

    def prompts(self, state: State) -> dict[str, Prompt]:
        return self.flow.prompts(state)

    def apply(self, state: State, orders: dict[str, Order]) -> Step:
        if self.flow.top(state) is None:
            raise IllegalOrder("the game is over; no orders are expected")
        events: list[Event] = []
        self.flow.apply(state, orders, events)
        return Step(state, events)

    def default_order(self, state: State, seat: str) -> Order:
        frame = self.flow.top(state)
        if frame is None or seat not in self.flow.nodes[frame["node"]].waiting(state, frame["args"]):
            raise IllegalOrder(f"{seat} has nothing to decide now")
        return self.flow.default(state, seat)
