"""Checked application of orders: the one place that enforces the protocol's contract."""

from __future__ import annotations

from .canonical import copy_json
from .protocol import GameModule, IllegalOrder, Order, Prompt, State, Step


def check_orders(prompts: dict[str, Prompt], orders: dict[str, Order]) -> dict[str, Order]:
    """Refuse orders from seats without a prompt, incomplete sealed groups and illegal choices.

    Returns the orders as the prompts' own choice values (fresh copies)."""
    if not orders:
        raise IllegalOrder("no orders given")
    if not prompts:
        raise IllegalOrder("the game is over; no orders are expected")
    checked: dict[str, Order] = {}
    one_open = False
    for seat, order in orders.items():
        prompt = prompts.get(seat)
        if prompt is None:
            waiting = ", ".join(sorted(prompts)) or "nobody"
            raise IllegalOrder(f"{seat} has nothing to decide now; waiting for: {waiting}")
        found = prompt.own_copy(order)
        if found is None:
            raise IllegalOrder(f"{seat}: that is not a legal {prompt.kind} order now")
        checked[seat] = found
        one_open = not prompt.sealed
    if len(checked) == 1 and one_open:  # the common step: one seat's open order, nothing to match up
        return checked
    sealed = {p.group for s, p in prompts.items() if s in orders and p.sealed}
    if len(sealed) > 1:
        raise IllegalOrder("orders for two sealed groups cannot be applied together")
    if sealed:
        group = sealed.pop()
        members = {s for s, p in prompts.items() if p.sealed and p.group == group}
        if set(orders) != members:
            missing = ", ".join(sorted(members - set(orders)))
            extra = ", ".join(sorted(set(orders) - members))
            raise IllegalOrder(
                f"a sealed group is applied whole; missing: {missing or '-'}; not in it: {extra or '-'}"
            )
    elif len(orders) > 1:
        raise IllegalOrder("open (not sealed) orders are applied one seat at a time")
    return checked


def apply_checked(
    game: GameModule,
    state: State,
    orders: dict[str, Order],
    prompts: dict[str, Prompt] | None = None,
    *,
    owned: bool = False,
) -> Step:
    """Check `orders` against the open prompts, then apply them to a copy of `state`.

    `prompts`: the open prompts of this very `state`, when the caller has already built them
    (building them again is most of the cost of a step). Never pass prompts of another state.

    `owned`: the caller hands `state` over and never reads it (or those prompts) again, as a
    replay or a random playout does; it is then applied in place instead of copied (the copy was
    a third of a step). If the apply raises, that state is left half changed: such a caller
    drops it, which is why the service, whose state must survive a refused order, never owns."""
    checked = check_orders(game.prompts(state) if prompts is None else prompts, orders)
    # Games are checked for JSON-only states by self-play and the conformance tests, not here:
    # this is the hot path of every step and every replay.
    return game.apply(state if owned else copy_json(state), checked)


def hidden_seats(prompts: dict[str, Prompt], orders: dict[str, Order]) -> list[str]:
    """The seats among `orders` whose prompt is hidden: the record marks them, and the public
    export withholds the entry while the game runs."""
    return sorted(seat for seat in orders if seat in prompts and prompts[seat].hidden)


def defaults_for(game: GameModule, state: State, seats: list[str] | None = None) -> dict[str, Order]:
    """Default orders for the given waiting seats (all waiting seats if None)."""
    prompts = game.prompts(state)
    chosen = prompts if seats is None else {s: prompts[s] for s in seats if s in prompts}
    return {seat: game.default_order(state, seat) for seat in chosen}
