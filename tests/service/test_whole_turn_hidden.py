"""A whole-turn line goes on past a step that changes a hidden value the seat knows anyway
(Founding Fathers keeps a pending trade in the secret part) but never tells the seat anything it
may not know: it is the same in every state the seat cannot tell from the real one (issue 24)."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine import Order, State, apply_checked, get_game
from adjudicator.games.founding_fathers.game import FoundingFathers
from adjudicator.service.common.hidden import scrambled
from adjudicator.service.history.undoable import own_step
from adjudicator.service.play import wholeturn

TRADE: Order = {"act": "trade"}


def _decisions(title: str, seed: str, steps: int = 150):
    """(state, seat, prompt) at each decision of one seat alone, in a game played at random."""
    game = get_game(title)
    state = game.setup(seed, game.seat_names(game.info.min_seats, {}), {}).state
    rnd = random.Random(seed)
    for _ in range(steps):
        prompts = game.prompts(state)
        if not prompts:
            return
        seat, prompt = next(iter(prompts.items()))
        if len(prompts) == 1 and not prompt.sealed and not prompt.hidden:
            yield state, seat, prompt
            orders = {seat: rnd.choice(prompt.choices)}
        else:
            orders = {s: game.default_order(state, s) for s in prompts}
        state = apply_checked(game, state, orders).state


def _a_trade_decision() -> tuple[State, str]:
    for state, seat, prompt in _decisions("founding-fathers", "ff-trade"):
        if prompt.allows(TRADE):
            return state, seat
    raise AssertionError("no decision offered a trade")


def test_a_listed_founding_fathers_line_goes_on_past_a_trade() -> None:
    game = get_game("founding-fathers")
    state, seat = _a_trade_decision()
    step = apply_checked(game, state, {seat: TRADE})
    # the pending trade is kept in the secret part, so the undo rule counts the step as hidden...
    assert own_step(state, step.state, step.events, {"orders": {seat: TRADE}}) is None
    # ...but the seat knows it: the line goes on with the offer's next decision
    orders = wholeturn.chain(game, state, seat, TRADE)
    assert len(orders) > 1 and orders[1]["act"] in ("cancel", "with"), orders
    assert game.prompts(step.state)[seat].allows(orders[1])


@pytest.mark.parametrize("title", ["1960", "china", "founding-fathers", "doge"])
def test_a_listed_line_is_the_same_in_every_state_the_seat_cannot_tell_apart(title: str) -> None:
    """Fails if a line depended on a hidden value (a card to draw, another seat's hand)."""
    game = get_game(title)
    rnd = random.Random(title)
    compared = 0
    for state, seat, prompt in _decisions(title, f"same-{title}", 100):
        for first in rnd.sample(list(prompt.choices), min(3, len(prompt.choices))):
            line = wholeturn.chain(game, state, seat, first)
            for n in range(2):
                assert wholeturn.chain(game, scrambled(state, seat, f"other:{n}"), seat, first) == line
            compared += len(line) > 1
    assert compared, "no order led to a follow-up: the test compared no chain"


class Peeking(FoundingFathers):
    """Founding Fathers whose deadline default, when the trade asks for a partner, follows the
    hidden order of the action deck: a line listing that default would tell the seat about it."""

    def default_order(self, state: State, seat: str) -> Order:
        prompt = self.prompts(state).get(seat)
        partners = [c for c in prompt.choices if c["act"] == "with"] if prompt is not None else []
        if partners:
            return partners[int(state["secret"]["actions"][0] >= "n")]  # which half of the alphabet the top card is in
        return super().default_order(state, seat)


def test_a_follow_up_that_follows_a_hidden_card_ends_the_line_before_it() -> None:
    game = Peeking()
    state, seat = _a_trade_decision()
    after = apply_checked(game, state, {seat: TRADE}).state
    peeks = {str(game.default_order(world, seat)) for world in
             [after, *(scrambled(after, seat, seed) for seed in wholeturn.WORLDS)]}
    assert len(peeks) > 1, "the hidden deck did not change the peeking default: the test checks nothing"
    assert wholeturn.chain(game, state, seat, TRADE) == [TRADE]
