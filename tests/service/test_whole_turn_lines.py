"""A whole turn in one order line (issue 24): `play 23 cp; campaign New York 1; ...` is applied
part after part like lines, but whole or not at all; the "your move" list offers such lines
where an order leads to more decisions of the seat's own, never across a draw or a reveal."""

from __future__ import annotations

import random
import re

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.engine import GameModule, Order, State, Step, apply_checked, canonical_json, get_game
from adjudicator.service.common.core import current_prompts, module_of, seat_row
from adjudicator.service.common.hidden import draws_nothing, scrambled
from adjudicator.service.play import notify, wholeturn
from adjudicator.service.play.orders import SEPARATOR, order_line_parts, order_lines
from adjudicator.store import Game
from tests.support.play import PlayedGame, kennedy_to_play, new_game

GAME = get_game("1960")


def _length(game: PlayedGame) -> int:
    with store.transaction(write=False) as s:
        return s.exec(select(Game.record_length).where(Game.public_id == game.game_id)).one()


def test_a_line_splits_into_its_orders_and_a_standing_line_stays_one() -> None:
    text = "play 20 cp — #20 Nixon Egged; campaign Ohio 1 // mine\nLATER cp: campaign Ohio 1; x\n\n first kennedy "
    assert order_line_parts(text) == [["play 20 cp", "campaign Ohio 1"], ["LATER cp: campaign Ohio 1; x"],
                                      ["first kennedy"]]
    assert order_lines("a ;; b ;") == ["a", "b"]


def test_a_whole_turn_line_is_applied_part_after_part(db) -> None:
    """Kennedy's token starts in Massachusetts: campaigning in the East needs no travel."""
    game, play = kennedy_to_play(3)
    before = _length(game)
    sub = game.submit("kennedy", f"{play}; campaign New York 1; campaign Pennsylvania 1")
    assert sub.error is None
    assert sub.applied == [play, "campaign New York 1", "campaign Pennsylvania 1"]
    assert _length(game) == before + 3


def test_a_refused_later_part_leaves_the_whole_line_unapplied_and_says_why(db) -> None:
    game, play = kennedy_to_play(3)
    before = _length(game)
    sub = game.submit("kennedy", f"{play}; campaign Ohio 9")
    assert sub.applied == [] and sub.error is not None
    assert sub.error.startswith("`campaign Ohio 9`")
    assert f"order 2 of the line `{play}; campaign Ohio 9`" in sub.error and "nothing of that line" in sub.error
    assert sub.suggestions and all(s.startswith("campaign Ohio") for s in sub.suggestions[:1])
    assert _length(game) == before
    assert game.page("kennedy").prompt["kind"] == "play"  # the card is still in his hand to play


def test_the_lines_before_a_refused_line_stay_applied(db) -> None:
    """A mail's lines are applied one after another (the first bad line stops the rest): a line of
    several orders is one line there."""
    game, play = kennedy_to_play(3)
    before = _length(game)
    sub = game.submit("kennedy", f"{play}\ncampaign New York 1; campaign Ohio 9")
    assert sub.applied == [play] and "order 2 of the line" in (sub.error or "")
    assert _length(game) == before + 1
    assert game.page("kennedy").prompt["kind"] == "cp"


def _hides_nothing(game: GameModule, before: State, step: Step, seat: str, order: Order) -> bool:
    """The step drew nothing and the seat's view after it is the same from two scrambled states."""
    if not draws_nothing(before, step.state, step.events, seat):
        return False
    seen = canonical_json(game.view(step.state, seat))
    return all(canonical_json(game.view(apply_checked(game, scrambled(before, seat, f"leak-test:{n}"),
                                                      {seat: order}).state, seat)) == seen for n in range(2))


def _listed(game: PlayedGame, seat: str) -> list[str]:
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game.game_id)).one()
        return notify.useful_choices(g, module_of(g), seat_row(s, g, seat), current_prompts(g)[seat])


def test_the_your_move_list_offers_a_1960_card_play_as_its_whole_turn(db) -> None:
    game, _play = kennedy_to_play(3)
    listed = _listed(game, "kennedy")
    whole = [line for line in listed if re.match(r"play \d+ cp; ", line)]
    assert whole, listed
    sub = game.submit("kennedy", whole[0])  # and such a line is applied as listed
    assert sub.error is None and sub.applied == whole[0].split(f"{SEPARATOR} ")


def test_the_your_move_list_offers_a_china_play_with_its_space(db) -> None:
    game = new_game("china", seats=3)
    [seat] = [s for s in game.tokens if game.page(s).prompt]
    listed = _listed(game, seat)
    assert any(re.match(r"play .* to \w+: house; space \S+", line) for line in listed), listed


@pytest.mark.parametrize("title", ["1960", "china", "founding-fathers", "doge"])
def test_a_listed_line_never_goes_on_after_a_draw_or_a_reveal(title: str) -> None:
    """Played at random: at each decision of one seat alone, every chain the mail would list is
    replayed; each step before the last must draw nothing (no draw, shuffle or die, no other
    seat's private part, no private message) and reveal nothing: the seat sees the same after it
    when the hidden parts before it are scrambled (with seeds of this test's own). The seat must
    be the one deciding. Fails if a listed line leaked what a draw or a reveal brought."""
    game = get_game(title)
    seats = game.seat_names(game.info.min_seats, {})
    state = game.setup(f"leak-{title}", seats, {}).state
    rnd = random.Random(title)
    chains = drawn = 0
    for _ in range(150):
        prompts = game.prompts(state)
        if not prompts:
            break
        seat, prompt = next(iter(prompts.items()))
        if len(prompts) == 1 and not prompt.sealed and not prompt.hidden:
            for first in rnd.sample(list(prompt.choices), min(3, len(prompt.choices))):
                orders = wholeturn.chain(game, state, seat, first)
                chains += len(orders) > 1
                at = state
                for index, order in enumerate(orders):
                    opened = game.prompts(at)
                    assert set(opened) == {seat} and opened[seat].allows(order)
                    step = apply_checked(game, at, {seat: order})
                    hides = _hides_nothing(game, at, step, seat, order)
                    if index < len(orders) - 1:
                        assert hides, (title, [game.format_order(o) for o in orders], index)
                    drawn += not hides
                    at = step.state
            orders_now = {seat: rnd.choice(prompt.choices)}
        else:
            orders_now = {s: game.default_order(state, s) for s in prompts}
        state = apply_checked(game, state, orders_now).state
    assert chains, "no order led to a follow-up: the test saw no chain"
    assert drawn or title == "doge", "no chain ended with a draw: the test saw none to stop at"
