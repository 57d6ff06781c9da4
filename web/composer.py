"""The order composer: a long list of legal orders picked in a few short steps.

An order's text is a sequence of words ("place cannaregio 2 1 1 0", "campaign West Virginia 2").
Orders that share their first words form a tree; each step of the composer offers the next
*segment* of the orders still possible: the words up to where they part (so "West Virginia" is one
choice, not "West" and then "Virginia"). Once few enough orders remain they are listed whole, as in
a short decision. The state of the composer is the words picked so far (`pick`), carried in the
page's URL, so it works without JavaScript; with it, a pick submits itself.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A decision with at most this many orders is one list; the composer narrows longer ones to it.
SHORT_LIST = 60
EXACT = "="  # a pick ending in this word means "the order of exactly these words"


@dataclass
class Step:
    value: str  # the words picked up to and including this segment (the next `pick`)
    label: str  # this segment's words ("" for the order of exactly the words picked so far)
    count: int  # orders it leads to

    @property
    def exact(self) -> bool:
        return self.value.split()[-1:] == [EXACT]


@dataclass
class Composer:
    picked: list[str] = field(default_factory=list)  # the segments picked so far, in order
    steps: list[Step] = field(default_factory=list)  # the next segments (empty once `final` is set)
    final: list[tuple[str, str]] = field(default_factory=list)  # (value, label) of the orders left

    @property
    def active(self) -> bool:
        """Whether the decision is long enough for the composer (else it is a plain list)."""
        return bool(self.picked or self.steps)


def words(label: str) -> list[str]:
    """The words of an order's text; what a label adds after " — " (card names) is not typed."""
    return label.split(" — ", 1)[0].split()


def compose(choices: list[tuple[str, str]], pick: str = "") -> Composer:
    """The composer for `choices` ((value, label) pairs) after the words `pick`; a pick that no
    order starts with is ignored (the composer starts again)."""
    if len(choices) <= SHORT_LIST:
        return Composer(final=list(choices))
    split = [(value, label, words(label)) for value, label in choices]
    prefix = pick.split()
    if prefix[-1:] == [EXACT]:
        prefix = prefix[:-1]
        left = [c for c in split if c[2] == prefix]
    else:
        left = [c for c in split if c[2][: len(prefix)] == prefix]
    if not left:
        prefix, left = [], split
    steps = _next_steps(left, prefix) if len(left) > SHORT_LIST else []
    while len(steps) == 1 and not steps[0].exact:  # one way on: take it
        prefix = steps[0].value.split()
        steps = _next_steps(left, prefix)
    picked = _segments(split, prefix)
    if not steps:
        return Composer(picked=picked, final=[(value, label) for value, label, _ in left])
    return Composer(picked=picked, steps=steps)


def _next_steps(left: list[tuple[str, str, list[str]]], prefix: list[str]) -> list[Step]:
    """The next segments after `prefix`, each extended while every order under it agrees."""
    depth = len(prefix)
    groups: dict[str, list[list[str]]] = {}
    for _value, _label, ws in left:
        groups.setdefault(ws[depth] if len(ws) > depth else "", []).append(ws)
    steps = []
    for first, members in groups.items():
        segment = [first] if first else []
        while first and all(len(ws) > depth + len(segment) for ws in members):
            following = {ws[depth + len(segment)] for ws in members}
            if len(following) != 1:
                break
            segment.append(following.pop())
        value = " ".join(prefix + (segment or [EXACT]))
        steps.append(Step(value, " ".join(segment), len(members)))
    return steps


def _segments(split: list[tuple[str, str, list[str]]], prefix: list[str]) -> list[str]:
    """`prefix` cut into the segments the composer offered on the way to it."""
    out: list[str] = []
    taken: list[str] = []
    while len(taken) < len(prefix):
        left = [c for c in split if c[2][: len(taken)] == taken]
        step = next((s for s in _next_steps(left, taken)
                     if s.value.split() == prefix[: len(s.value.split())] and not s.exact), None)
        if step is None:  # cannot happen for a prefix some order starts with; stop safely anyway
            out.append(" ".join(prefix[len(taken):]))
            break
        out.append(step.label)
        taken = step.value.split()
    return out
