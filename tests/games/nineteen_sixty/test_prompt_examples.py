"""Every order a 1960 decision shows as an example (in `code` marks) is legal in that decision
(issue 12: "examples shown are taken from the seat's current legal choices"), over random games."""

from __future__ import annotations

import random
import re

from adjudicator.cli.playout import choose_group
from adjudicator.engine import IllegalOrder, get_game
from adjudicator.engine.play import apply_checked
from adjudicator.games.nineteen_sixty.grammar import parse_order


def test_every_example_in_a_decision_is_a_legal_order_of_it() -> None:
    game = get_game("1960")
    illegal: dict[str, str] = {}
    kinds: set[str] = set()
    for seed in range(4):
        rnd = random.Random(seed)
        options = game.info.resolve_options({})
        state = game.setup(f"examples:{seed}", game.seat_names(2, options), options).state
        for _ in range(4000):
            prompts = game.prompts(state)
            if not prompts:
                break
            for prompt in prompts.values():
                for example in re.findall(r"`([^`]+)`", prompt.text):
                    kinds.add(prompt.kind)
                    try:
                        parse_order(example, prompt)
                    except IllegalOrder as exc:
                        illegal.setdefault(prompt.kind, f"{example!r} in {prompt.text!r}: {exc}")
            orders = {s: rnd.choice(prompts[s].choices) for s in choose_group(rnd, prompts)}
            state = apply_checked(game, state, orders, prompts).state
    assert {"play", "cp", "support", "strategy", "media"} <= kinds
    assert illegal == {}
