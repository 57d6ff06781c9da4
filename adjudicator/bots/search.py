"""A determinized flat Monte Carlo search that sees only its own seat.

For one decision of `seat`, the bot:

1. reads `game.view(state, seat)` and nothing else of the state;
2. seeds its own generator from that view and the public record (`decision_seed`), never from
   the game's generator, so the same record always gives the same move;
3. samples the parts it cannot see (`determinize`): the secret part and the other seats'
   private parts come from a fresh setup of the same game under a seed of its own, with its own
   seat's part and every public part taken from its view;
4. tries a handful of candidate choices (always the documented default among them), plays each
   on to the end a fixed number of times with random play for every seat, and keeps the choice
   that won most often (ties broken by the score margin, then by the candidates' order).

The number of playouts is fixed, so a decision is deterministic and its cost bounded.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from adjudicator.engine import GameModule, Order, Prompt, State, apply_checked, canonical_json, copy_json


@dataclass(frozen=True)
class BotConfig:
    candidates: int = 6  # choices tried at most (the default is always one of them)
    # Engine steps one decision may spend in playouts, counted (not timed) so that the move never
    # depends on the machine's speed; rounds of one playout per candidate go on until it is spent.
    step_budget: int = 9000
    min_rounds: int = 2  # rounds played even past the budget, so each candidate is tried
    max_rounds: int = 24
    step_limit: int = 4000  # a playout longer than this counts as a draw


DEFAULT_CONFIG = BotConfig()
# Games whose steps cost more CPU (1960's events and modifiers) get fewer of them, so every
# title's decision stays within a second of one core (docs/bots.md, measured with `pbem bench bots`).
GAME_CONFIG = {
    "1960": BotConfig(step_budget=3500),
    # a China turn offers about 20 choices (a random game, 4 seats): try more of them
    "china": BotConfig(candidates=12, step_budget=6500),
}


def config_for(game: GameModule) -> BotConfig:
    return GAME_CONFIG.get(game.info.id, DEFAULT_CONFIG)


def decision_seed(view: State, seat: str, public: str = "") -> str:
    """The bot's seed for one decision: a hash of what the seat sees and of public data (the
    record's last hash), so the move is reproducible and independent of any hidden value."""
    digest = hashlib.sha256()
    for part in (seat, public, canonical_json(view)):
        digest.update(part.encode() if isinstance(part, str) else part)
        digest.update(b"\0")
    return digest.hexdigest()


def determinize(game: GameModule, view: State, seat: str, seed: str) -> State:
    """A full state consistent with what `seat` sees: its view, with the secret part and the
    other seats' private parts sampled from a fresh setup seeded by `seed`."""
    seats = _seats(game, view)
    fresh = game.setup(f"bot:{seed}", seats, view.get("options") or {}).state if seats else {}
    state = copy_json(view)
    state["secret"] = copy_json(fresh.get("secret") or {})
    private = dict(fresh.get("private") or {})
    private.update(view.get("private") or {})
    state["private"] = copy_json(private)
    return state


def _seats(game: GameModule, view: State) -> list[str]:
    """The game's seats, from the view (a game of fixed seats may not list them)."""
    seats = view.get("seats")
    if isinstance(seats, dict):
        return list(seats)
    if isinstance(seats, list) and all(isinstance(s, str) for s in seats):
        return list(seats)
    options = view.get("options") or {}
    return game.seat_names(game.info.min_seats, options)


def _group(rnd: random.Random, prompts: dict[str, Prompt], seat: str | None = None) -> list[str]:
    """The seats whose orders go into one apply: a whole sealed group, or one seat."""
    seat = seat if seat is not None else rnd.choice(sorted(prompts))
    prompt = prompts[seat]
    if prompt.sealed:
        return sorted(s for s, p in prompts.items() if p.sealed and p.group == prompt.group)
    return [seat]


def _value(game: GameModule, state: State, seat: str) -> tuple[float, float]:
    """(win share, score margin) of `seat` at the end of a playout."""
    outcome = game.outcome(state)
    if outcome is None:
        return 0.0, 0.0
    win = 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    scores = outcome.scores or {}
    mine = scores.get(seat, 0)
    others = [v for s, v in scores.items() if s != seat]
    margin = float(mine - max(others)) if others else 0.0
    return win, margin


def _playout(game: GameModule, state: State, seat: str, first: Order, rnd: random.Random,
             limit: int) -> tuple[float, float, int] | None:
    """Play `first` for `seat`, then random play for everyone to the end. None: the sampled
    state proved inconsistent with the rules (the sample is dropped)."""
    try:
        prompts = game.prompts(state)
        orders = {s: (first if s == seat else rnd.choice(prompts[s].choices)) for s in _group(rnd, prompts, seat)}
        state = apply_checked(game, state, orders, prompts, owned=True).state
        for steps in range(limit):
            prompts = game.prompts(state)
            if not prompts:
                return (*_value(game, state, seat), steps + 1)
            orders = {s: rnd.choice(prompts[s].choices) for s in _group(rnd, prompts)}
            state = apply_checked(game, state, orders, prompts, owned=True).state
    except Exception:  # noqa: BLE001 - a sampled hidden part the rules cannot use: drop the sample
        return None
    return 0.0, 0.0, limit


def candidates_of(prompt: Prompt, default: Order | None, rnd: random.Random, count: int) -> list[Order]:
    """Up to `count` distinct legal choices, the default (in the sampled state) first if legal."""
    choices = prompt.choices
    found = prompt.find(default) if default is not None else None
    picked: list[Order] = [found] if found is not None else []
    if len(choices) <= count:
        picked += [c for c in choices if c is not found and c != found]
        return picked[:count] if found is not None else list(choices)[:count]
    for index in rnd.sample(range(len(choices)), min(len(choices), count + 1)):
        choice = choices[index]
        if choice != found:
            picked.append(choice)
        if len(picked) >= count:
            break
    return picked


def choose(game: GameModule, state: State, seat: str, *, public: str = "",
           config: BotConfig | None = None) -> Order:
    """The substitute's order for `seat`'s open decision in `state`. Only `game.view(state,
    seat)` is read; `public` is public data mixed into the seed (the record's last hash)."""
    # The seat's own decision, exactly as its page shows it: its legal choices may depend on a
    # count the sampled state gets wrong (a deck that could run out), so only these are played.
    prompt = game.prompts(state)[seat]
    try:
        return choose_from_view(game, game.view(state, seat), seat, prompt, public=public, config=config)
    except Exception:  # noqa: BLE001 - see below
        # The imagined game cannot even show this decision (Founding Fathers keeps a trade under
        # way in its secret part, which a fresh setup lacks): the seat takes its documented
        # default, as in civil disorder without substitutes.
        return game.default_order(state, seat)


def choose_from_view(game: GameModule, view: State, seat: str, prompt: Prompt, *, public: str = "",
                     config: BotConfig | None = None) -> Order:
    """The best of `prompt`'s choices (the seat's open decision) by playouts of sampled states."""
    config = config or config_for(game)
    seed = decision_seed(view, seat, public)
    rnd = random.Random(seed)
    base = determinize(game, view, seat, seed)
    if len(prompt.choices) == 1:
        return copy_json(prompt.choices[0])
    sampled = game.prompts(base).get(seat)
    options = candidates_of(prompt, game.default_order(base, seat) if sampled is not None else None, rnd,
                            config.candidates)
    if len(options) == 1:
        return copy_json(options[0])
    wins = [0.0] * len(options)
    margins = [0.0] * len(options)
    spent = 0
    for round_ in range(config.max_rounds):
        if round_ >= config.min_rounds and spent >= config.step_budget:
            break
        sample_seed = f"{seed}:{round_}"
        sample = determinize(game, view, seat, sample_seed) if round_ else base
        for index, order in enumerate(options):
            # the same sample and the same dice for every candidate: only the choice differs
            result = _playout(game, copy_json(sample), seat, copy_json(order), random.Random(sample_seed),
                              config.step_limit)
            if result is None:
                spent += 1
                continue
            wins[index] += result[0]
            margins[index] += result[1]
            spent += result[2]
    best = max(range(len(options)), key=lambda i: (wins[i], margins[i], -i))
    return copy_json(options[best])


def substitute_orders(game: GameModule, state: State, seats: list[str], public: str = "",
                      config: BotConfig | None = None) -> dict[str, Any]:
    """The substitute's order for each of `seats` (each decided from its own view only)."""
    return {seat: choose(game, state, seat, public=public, config=config) for seat in seats}
