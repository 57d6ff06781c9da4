"""The order composer: a long list of legal orders picked in a few short steps.

An order's text is a sequence of words ("place cannaregio 2 1 1 0", "campaign West Virginia 2").
Orders that share their first words form a tree; each step of the composer offers the next
*segment* of the orders still possible: the words up to where they part (so "West Virginia" is one
choice, not "West" and then "Virginia"). Once few enough orders remain they are listed whole, as in
a short decision. The state of the composer is the words picked so far (`pick`), carried in the
page's URL, so it works without JavaScript; with it, a pick submits itself.

Two more ways in, both plain GET parameters too:
- `where`: a word (an area, a region, a state) that a click on the board picked; only the orders
  that name it are left, however short the list.
- a *plan*: orders a game repeats within one action (1960's `campaign STATE N`, one prompt per
  state) are offered as rows, a target and a count each, sent as several lines at once; the
  service checks each line against the prompt current at that moment, as for a mailed list.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# A decision with at most this many orders is one list; the composer narrows longer ones to it.
SHORT_LIST = 60
EXACT = "="  # a pick ending in this word means "the order of exactly these words"
# A step with at most this many parts shows them as buttons (one click each, scripts or not).
STEP_BUTTONS = 10


@dataclass
class Step:
    value: str  # the words picked up to and including this segment (the next `pick`)
    label: str  # this segment's words ("" for the order of exactly the words picked so far)
    count: int  # orders it leads to

    @property
    def exact(self) -> bool:
        return self.value.split()[-1:] == [EXACT]


@dataclass
class Plan:
    verb: str  # the repeated order's first word ("campaign")
    targets: list[str]  # what may follow it, in the orders' order ("New York", "Ohio", ...)
    most: int  # the largest count one order of it takes now
    chosen: list[str] = field(default_factory=list)  # targets already picked (board clicks)
    counts: list[int] = field(default_factory=list)  # the count of each chosen target (a preview's rows)

    @property
    def rows(self) -> list[str]:
        """One row per target the plan may hold: the chosen ones first, then empty rows."""
        count = min(max(self.most, len(self.chosen), 2), MAX_PLAN_ROWS)
        return (self.chosen + [""] * count)[:count]

    @property
    def filled(self) -> list[tuple[str, int]]:
        """(target, count) per row: a row not given a count yet says 1."""
        return [(target, self.counts[i] if i < len(self.counts) else 1) for i, target in enumerate(self.rows)]


MAX_PLAN_ROWS = 6


@dataclass
class Composer:
    picked: list[str] = field(default_factory=list)  # the segments picked so far, in order
    steps: list[Step] = field(default_factory=list)  # the next segments (empty once `final` is set)
    final: list[tuple[str, str]] = field(default_factory=list)  # (value, label) of the orders left
    where: str = ""  # the board word that narrowed the orders ("" = none)
    plan: Plan | None = None  # rows for an order given several times in a row

    @property
    def buttons(self) -> bool:
        """Whether the next parts are few enough to be one button each (one click, scripts or not)."""
        return 0 < len(self.steps) <= STEP_BUTTONS

    @property
    def active(self) -> bool:
        """Whether the decision is long enough for the composer (else it is a plain list)."""
        return bool(self.picked or self.steps)


def words(label: str) -> list[str]:
    """The words of an order's text; what a label adds after " — " (card names) is not typed."""
    return label.split(" — ", 1)[0].split()


def _plain(word: str) -> str:
    return word.strip(":,;").lower()


def naming(choices: list[tuple[str, str]], where: str) -> list[tuple[str, str]]:
    """The choices whose words name `where` (one or more words, case and ':' ',' ignored)."""
    wanted = [_plain(w) for w in where.split()]
    if not wanted:
        return []
    n = len(wanted)
    out = []
    for value, label in choices:
        ws = [_plain(w) for w in words(label)]
        if any(ws[i:i + n] == wanted for i in range(len(ws) - n + 1)):
            out.append((value, label))
    return out


def plan_of(choices: list[tuple[str, str]], verbs: tuple[str, ...], chosen: list[str],
            counts: list[int] | None = None) -> Plan | None:
    """The plan rows for the first of `verbs` whose orders ("VERB TARGET N") name two targets or
    more; `chosen` keeps only targets that are offered (with their `counts`, when given)."""
    for verb in verbs:
        targets: dict[str, int] = {}
        for _value, label in choices:
            ws = words(label)
            if len(ws) >= 3 and ws[0] == verb and ws[-1].isdigit():
                target = " ".join(ws[1:-1])
                targets[target] = max(targets.get(target, 0), int(ws[-1]))
        if len(targets) >= 2:
            pairs = [(t, n) for t, n in zip(chosen, counts or [1] * len(chosen), strict=False) if t in targets]
            kept = pairs[:MAX_PLAN_ROWS]
            return Plan(verb, list(targets), max(targets.values()), [t for t, _n in kept], [n for _t, n in kept])
    return None


def compose(choices: list[tuple[str, str]], pick: str = "", where: str = "",
            plan_verbs: tuple[str, ...] = (), planned: list[str] | None = None,
            counts: list[int] | None = None) -> Composer:
    """The composer for `choices` ((value, label) pairs) after the words `pick`, among the orders
    naming `where`; a pick or a `where` that no order fits is ignored (the composer starts again).
    `plan_verbs`: the orders a game repeats within one action; `planned`: targets picked for them,
    `counts`: their counts (a previewed plan shown again). A pick of a plan's verb and one of its
    targets ("campaign Ohio") is that target added to the plan's rows."""
    narrowed = naming(choices, where) if where else []
    if narrowed:
        choices = narrowed
    else:
        where = ""
    first = pick.split()[:1]
    verbs = tuple(v for v in plan_verbs if not first or first == [v])  # not after picking another verb
    plan = plan_of(choices, verbs, planned or [], counts) if verbs else None
    target = " ".join(pick.split()[1:])
    if plan is not None and first == [plan.verb] and target in plan.targets:
        # a target picked in the step list after the plan's verb fills the plan's next row, as a
        # click on the board does: one more interaction sends it, instead of a list and a send
        if target not in plan.chosen and len(plan.chosen) < MAX_PLAN_ROWS:
            plan.chosen.append(target)
            plan.counts.append(1)
        pick = plan.verb
    composer = _compose(choices, pick)
    composer.where, composer.plan = where, plan
    return composer


def _compose(choices: list[tuple[str, str]], pick: str) -> Composer:
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
    steps = _two_levels(left, prefix, steps)
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


def _two_levels(left: list[tuple[str, str, list[str]]], prefix: list[str], steps: list[Step]) -> list[Step]:
    """Few buttons whose long parts split into few parts again ("appoint" into six offices) offer
    those sub-parts at once ("appoint special-envoy"): one click instead of two, as long as all of
    them still fit in STEP_BUTTONS."""
    if len(steps) > STEP_BUTTONS:
        return steps
    out: list[Step] = []
    for step in steps:
        if step.exact or step.count <= SHORT_LIST:
            out.append(step)
            continue
        words_in = step.value.split()
        subs = _next_steps([c for c in left if c[2][: len(words_in)] == words_in], words_in)
        if any(sub.exact for sub in subs):  # "(just this)" would lose what it belongs to
            return steps
        out += [Step(sub.value, " ".join(sub.value.split()[len(prefix):]), sub.count) for sub in subs]
    return out if len(out) <= STEP_BUTTONS else steps


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
