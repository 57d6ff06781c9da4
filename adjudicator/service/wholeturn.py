"""A whole turn as one order line, for the "your move" mail's list (issue 24).

A card play in 1960 (then its campaign points, step by step), a play in China (then its space
and its draw) or a Founding Fathers action is a chain of one seat's decisions. A player who
reads once a day and answers with one line from the list would answer one link a day; so where
an order leads straight to more decisions of the same seat, the listed line is the whole chain:
the order, then each follow-up the deadline would choose (`GameModule.default_order`, or a
choice that draws nothing where the default would draw: `_follow_up`), joined by
`SEPARATOR` (applied whole or not at all, orders.py).

**Nothing hidden leaks.** The follow-ups are worked out on the full state, so the chain goes on
only while its steps change nothing the seat cannot see: each step must pass the test a step
must pass to be taken back (`undoable.own_step`: no draw, shuffle or die, no other seat's
private part changed, no private message). A step that draws may end a line (it is chosen
before the draw, as the player would), never sit inside one. It goes on only while the seat's
is the one open decision, not sealed nor hidden.
"""

from __future__ import annotations

from adjudicator.engine import GameModule, IllegalOrder, Order, Prompt, State, Step, apply_checked

from .undoable import own_step

SEPARATOR = ";"  # several orders of one seat in one line: a whole turn, applied whole or not at all
MAX_PARTS = 8  # orders in one listed line at most (a mail line stays readable)
CANDIDATES = 6  # other choices tried for a follow-up when the default draws


def _alone(prompts: dict[str, Prompt], seat: str) -> Prompt | None:
    """The seat's prompt when it is the only open decision and one a line may answer."""
    prompt = prompts.get(seat)
    if prompt is None or len(prompts) != 1 or prompt.sealed or prompt.hidden:
        return None
    return prompt


def chain(game: GameModule, state: State, seat: str, first: Order,
          prompts: dict[str, Prompt] | None = None) -> list[Order]:
    """`first`, then the follow-ups of the same seat it leads to with nothing hidden in between
    (see the module doc); [first] when it leads to none. The engine is pure: nothing changes.
    `prompts`: the open prompts of this very `state`, if the caller has them."""
    orders = [first]
    prompts = game.prompts(state) if prompts is None else prompts
    if _alone(prompts, seat) is None:
        return orders
    try:
        step = apply_checked(game, state, {seat: first}, prompts)
        while len(orders) < MAX_PARTS and _hides_nothing(state, step, seat, orders[-1]):
            state, prompts = step.state, game.prompts(step.state)
            follow = _alone(prompts, seat)
            if follow is None:
                break
            order, step = _follow_up(game, state, seat, follow, prompts)
            orders.append(order)
    except (IllegalOrder, ValueError, KeyError, IndexError):  # a game that cannot say: the order alone
        return [first]
    return orders


def _hides_nothing(before: State, step: Step, seat: str, order: Order) -> bool:
    return own_step(before, step.state, step.events, {"orders": {seat: order}}) is not None


def _follow_up(game: GameModule, state: State, seat: str, prompt: Prompt,
               prompts: dict[str, Prompt]) -> tuple[Order, Step]:
    """The follow-up to list, with its step: the default (what the deadline would play); but when
    the default draws or reveals, and so would end the line while the turn may go on, the first
    of a spread of the other choices that does not: while the seat has points to spend step by
    step (`GameModule.budget`: 1960's CP) any such choice (a campaign step instead of advertising,
    which draws); otherwise only the same order taken in the open (China's `draw green` for the
    blind `draw deck`), not another action (FF's appointments instead of ending the agenda with
    its draw would go on without end). Whether a step draws is the rules' doing, not the cards'."""
    default = game.default_order(state, seat)
    if not prompt.allows(default):
        default = prompt.choices[0]
    first = apply_checked(game, state, {seat: default}, prompts)
    if _hides_nothing(state, first, seat, default):
        return default, first
    budget = game.budget(game.view(state, seat), seat)
    verb = game.format_order(default).split(maxsplit=1)[:1]
    step_size = max(1, len(prompt.choices) // CANDIDATES)
    for choice in prompt.choices[::step_size][:CANDIDATES]:
        if choice == default or not (budget or game.format_order(choice).split(maxsplit=1)[:1] == verb):
            continue
        step = apply_checked(game, state, {seat: choice}, prompts)
        if _hides_nothing(state, step, seat, choice):
            return choice, step
    return default, first


def line(game: GameModule, orders: list[Order]) -> str:
    return f"{SEPARATOR} ".join(game.format_order(order) for order in orders)
