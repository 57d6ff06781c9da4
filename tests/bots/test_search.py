"""The substitute's search (issue 28): forced decisions, detours, the default's head start."""

from __future__ import annotations

import random

from adjudicator.bots.search import choose, drop_detours
from adjudicator.cli.playout import choose_group
from adjudicator.engine import apply_checked, get_game


def _founding_fathers_with_a_trade_offer():
    """A Founding Fathers state, some random steps in, where red alone decides and may offer a
    trade (which, cancelled at once, changes nothing)."""
    game = get_game("founding-fathers")
    options = game.info.resolve_options({})
    seats = game.seat_names(5, options)
    for seed in range(20):
        state = game.setup(f"detour:{seed}", seats, options).state
        rnd = random.Random(seed)
        for _ in range(600):
            prompts = game.prompts(state)
            if not prompts:
                break
            choices = prompts["red"].choices if set(prompts) == {"red"} else []
            if {"act": "trade"} in choices and len(choices) > 2:
                return game, state
            seat = rnd.choice(sorted(prompts))
            prompt = prompts[seat]
            group = (sorted(s for s, p in prompts.items() if p.sealed and p.group == prompt.group) if prompt.sealed
                     else [seat])
            state = apply_checked(game, state, {s: rnd.choice(prompts[s].choices) for s in group}, prompts).state
    raise AssertionError("no trade offer found")


def test_a_trade_offered_and_cancelled_is_a_detour_and_never_chosen():
    game, state = _founding_fathers_with_a_trade_offer()
    prompt = game.prompts(state)["red"]
    default = game.default_order(state, "red")
    options = [prompt.find(default), *[c for c in prompt.choices if c != default]]
    kept = drop_detours(game, state, "red", options, default_first=True)
    assert {"act": "trade"} not in kept
    assert kept[0] == options[0] and len(kept) >= 2  # the default and the real alternatives stay
    for public in ("a", "b", "c"):
        assert choose(game, state, "red", public=public) != {"act": "trade"}


def test_a_forced_decision_is_answered_without_search():
    game = get_game("1960")
    seats = game.seat_names(2, game.info.resolve_options({}))
    state = game.setup("forced", seats, game.info.resolve_options({})).state
    rnd = random.Random(3)
    for _ in range(400):
        prompts = game.prompts(state)
        forced = [s for s, p in prompts.items() if len(p.choices) == 1]
        if forced:
            assert choose(game, state, forced[0]) == prompts[forced[0]].choices[0]
            return
        group = choose_group(rnd, prompts)
        state = apply_checked(game, state, {s: rnd.choice(prompts[s].choices) for s in group}, prompts).state
    raise AssertionError("no forced decision found")
