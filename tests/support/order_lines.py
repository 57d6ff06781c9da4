"""The order lines a game meets in random play, for checking `order_problem` against `parse_order`.

Standing orders are checked with `order_problem(text)` before any decision they fit is open, so it
must never refuse a line that `parse_order` accepts for some prompt. These helpers play random
games through the protocol (setup, prompts, apply; as adjudicator/cli/playout.py does) and collect
every legal choice's canonical text, plus forgiving variants that the prompt's own `parse_order`
reads as that same choice.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine import GameModule, IllegalOrder, Prompt, canonical_json, get_game

Variants = Callable[[str, Any], Iterable[str]]  # (canonical text, order) -> lines to try


@dataclass
class Lines:
    canonical: set[str] = field(default_factory=set)  # format_order of every legal choice met
    variants: set[str] = field(default_factory=set)  # other lines parse_order read as a legal choice
    kinds: set[str] = field(default_factory=set)  # prompt kinds met
    prompts: int = 0


def _common_variants(text: str) -> list[str]:
    return [text.upper(), text.title(), f"  {text}  ", text.replace(" ", "  ")]


def collect(game_id: str, seeds: Iterable[str], variants: Variants | None = None, *,
            variant_choices: int = 2, variant_rate: float = 1.0, step_limit: int = 5000,
            players: int | None = None) -> Lines:
    """Play one random game per seed; every choice's text goes into `canonical`, and for up to
    `variant_choices` random choices of a `variant_rate` share of the prompts the variants
    `parse_order` accepts go into `variants` (parsing is the slow part)."""
    game: GameModule = get_game(game_id)
    out = Lines()
    for seed in seeds:
        rnd = random.Random(seed)
        count = players or rnd.randint(game.info.min_seats, game.info.max_seats)
        options = game.info.resolve_options({})
        state = game.setup(seed, game.seat_names(count, options), options).state
        for _ in range(step_limit):
            prompts = game.prompts(state)
            if not prompts:
                break
            for prompt in prompts.values():
                out.prompts += 1
                out.kinds.add(prompt.kind)
                out.canonical.update(game.format_order(c) for c in prompt.choices)
                if rnd.random() >= variant_rate:
                    continue
                for choice in rnd.sample(prompt.choices, min(variant_choices, len(prompt.choices))):
                    text = game.format_order(choice)
                    extra = list(variants(text, choice)) if variants else []
                    out.variants.update(_accepted(game, prompt, choice, [*_common_variants(text), *extra]))
            state = game.apply(state, _orders(rnd, prompts)).state
    return out


def _accepted(game: GameModule, prompt: Prompt, choice: Any, lines: list[str]) -> list[str]:
    """The lines that `parse_order` reads as `choice` for this prompt."""
    found = []
    for line in lines:
        try:
            order = game.parse_order(line, prompt)
        except IllegalOrder:
            continue
        if canonical_json(order) == canonical_json(choice):
            found.append(line)
    return found


def _orders(rnd: random.Random, prompts: dict[str, Prompt]) -> dict[str, Any]:
    """A whole sealed group, or one open seat, with random legal choices."""
    seat = rnd.choice(sorted(prompts))
    prompt = prompts[seat]
    seats = [seat]
    if prompt.sealed:
        seats = sorted(s for s, p in prompts.items() if p.sealed and p.group == prompt.group)
    return {s: rnd.choice(prompts[s].choices) for s in seats}


NOT_ORDERS = ("fly to the moon", "hello", "   ", "", "Dear all, see you next week!", "???")


def refused(game: GameModule, lines: Iterable[str] = NOT_ORDERS) -> dict[str, str | None]:
    return {line: game.order_problem(line) for line in lines}
