"""A whole turn as one order line, for the "your move" mail's list (issue 24).

A card play in 1960 (then its campaign points, step by step), a play in China (then its space
and its draw) or a Founding Fathers action is a chain of one seat's decisions. A player who
reads once a day and answers with one line from the list would answer one link a day; so where
an order leads straight to more decisions of the same seat, the listed line is the whole chain:
the order, then each follow-up the deadline would choose (`GameModule.default_order`, or a
choice that draws nothing where the default would draw: `_follow_up`), joined by
`SEPARATOR` (applied whole or not at all, orders.py).

**Nothing hidden leaks.** The line must be the same in every state the seat cannot tell from the
real one, so it is worked out on the real state and, beside it, on `WORLDS` states whose hidden
parts are scrambled (hidden.py: decks shuffled, the generator reseeded, the other hands dealt
again). The chain goes on past a step only if the step drew nothing (`hidden.draws_nothing`:
the generator, the decks and the other seats' private parts untouched, no private message) and
left the seat's view, what it is asked and the follow-up chosen the same in every world. A step
may change a hidden value the seat knows anyway (Founding Fathers keeps a pending trade in the
secret part): the line goes on. A step that draws or reveals may end a line (it is chosen before
the draw, as the player would), never sit inside one. It goes on only while the seat's is the
one open decision, not sealed nor hidden.
"""

from __future__ import annotations

from adjudicator.engine import GameModule, IllegalOrder, Order, Prompt, State, Step, apply_checked, canonical_json

from ..common.hidden import draws_nothing, scrambled

SEPARATOR = ";"  # several orders of one seat in one line: a whole turn, applied whole or not at all
MAX_PARTS = 8  # orders in one listed line at most (a mail line stays readable)
CANDIDATES = 6  # other choices tried for a follow-up when the default draws
WORLDS = ("wholeturn:a", "wholeturn:b")  # seeds of the scrambled states a line is checked against
ERRORS = (IllegalOrder, ValueError, KeyError, IndexError, TypeError)  # a game (or a world) that cannot say


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
        worlds = [state, *(scrambled(state, seat, seed) for seed in WORLDS)]
        steps = _steps(game, worlds, seat, first, prompts)
        while steps is not None and len(orders) < MAX_PARTS and _hides_nothing(game, worlds, steps, seat):
            worlds = [step.state for step in steps]
            prompts = game.prompts(worlds[0])
            follow = _alone(prompts, seat)
            if follow is None or not _asked_alike(game, worlds, seat):
                break
            picked = _follow_up(game, worlds, seat, follow, prompts)
            if picked is None:
                break
            order, steps = picked
            orders.append(order)
    except ERRORS:  # a game that cannot say: the order alone
        return [first]
    return orders


def _steps(game: GameModule, worlds: list[State], seat: str, order: Order,
           prompts: dict[str, Prompt]) -> list[Step] | None:
    """`order` applied in every world (the real one first; its errors are the caller's); None
    when a scrambled world refuses it (the seat could not be sure of it: the line ends)."""
    real = apply_checked(game, worlds[0], {seat: order}, prompts)
    try:
        return [real, *(apply_checked(game, world, {seat: order}) for world in worlds[1:])]
    except ERRORS:
        return None


def _hides_nothing(game: GameModule, worlds: list[State], steps: list[Step], seat: str) -> bool:
    """The step drew nothing and the seat sees the same after it whatever the hidden parts were."""
    if not all(draws_nothing(world, step.state, step.events, seat) for world, step in zip(worlds, steps, strict=True)):
        return False
    seen = {canonical_json([game.view(step.state, seat), step.events]) for step in steps}
    return len(seen) == 1


def _asked_alike(game: GameModule, worlds: list[State], seat: str) -> bool:
    """The seat is asked the same in every world (who decides, and its choices)."""
    asked = set()
    for world in worlds:
        opened = game.prompts(world)
        mine = opened[seat]
        asked.add(canonical_json([sorted(opened), mine.kind, mine.choices, mine.sealed, mine.hidden]))
    return len(asked) == 1


def _follow_up(game: GameModule, worlds: list[State], seat: str, prompt: Prompt,
               prompts: dict[str, Prompt]) -> tuple[Order, list[Step]] | None:
    """The follow-up to list, with its steps in every world: the default (what the deadline would
    play); but when the default draws or reveals, and so would end the line while the turn may go
    on, the first of a spread of the other choices that does not: while the seat has points to
    spend step by step (`GameModule.budget`: 1960's CP) any such choice (a campaign step instead
    of advertising, which draws); otherwise only the same order taken in the open (China's `draw
    green` for the blind `draw deck`), not another action (FF's appointments instead of ending the
    agenda with its draw would go on without end). Whether a step draws is the rules' doing, not
    the cards'. None when the default is not the same in every world (it would tell the seat
    something hidden)."""
    defaults = [game.default_order(world, seat) for world in worlds]
    if any(canonical_json(d) != canonical_json(defaults[0]) for d in defaults[1:]):
        return None
    default = defaults[0] if prompt.allows(defaults[0]) else prompt.choices[0]
    first = _steps(game, worlds, seat, default, prompts)
    if first is None:
        return None
    if _hides_nothing(game, worlds, first, seat):
        return default, first
    budget = game.budget(game.view(worlds[0], seat), seat)
    verb = game.format_order(default).split(maxsplit=1)[:1]
    step_size = max(1, len(prompt.choices) // CANDIDATES)
    for choice in prompt.choices[::step_size][:CANDIDATES]:
        if choice == default or not (budget or game.format_order(choice).split(maxsplit=1)[:1] == verb):
            continue
        steps = _steps(game, worlds, seat, choice, prompts)
        if steps is not None and _hides_nothing(game, worlds, steps, seat):
            return choice, steps
    return default, first


def line(game: GameModule, orders: list[Order]) -> str:
    return f"{SEPARATOR} ".join(game.format_order(order) for order in orders)
