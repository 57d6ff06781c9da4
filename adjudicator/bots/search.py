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
    candidates: int = 8  # choices tried at most (the default is always one of them)
    samples: int = 2  # imagined versions of the hidden parts, each with its own dice
    # Steps of random play after a choice before the game's evaluation weighs the position: a choice
    # whose worth shows only later (a card played for its points, then spent) gets to show it.
    horizon: int = 4
    # A game without an evaluation (`GameModule.evaluate` None) plays each sample on to the end;
    # a playout longer than this counts as a draw.
    step_limit: int = 4000
    # How much better (in the game's evaluation, per sample) another choice must look than the
    # default to be taken: where most choices change nothing at once (Founding Fathers' trade
    # offers), the dice of the few random steps must not pull the seat into a loop of offers.
    stick: float = 0.0
    # Who plays the steps after a choice: "random" for every seat, or "defaults", every seat taking
    # its documented default (no dice: a long look ahead of plausible play, where the opponents
    # hold a plan, as Doge's defaults do).
    rollout: str = "random"


DEFAULT_CONFIG = BotConfig()
# Per title, sized so that a decision stays far below a second of one core (docs/bots.md, measured
# with `pbem bench bots`) and the benches of hundreds of games fit.
GAME_CONFIG = {
    "1960": BotConfig(candidates=8, samples=2, horizon=4),
    # a Doge placement offers up to 273 choices: try more of them (a Doge step is cheap), each on
    # two imagined sets of the others' markers (one set misjudged an election too often)
    "doge": BotConfig(candidates=24, samples=2, horizon=30, rollout="defaults"),
    # a China turn offers about 20 choices and comes seldom: try more of them
    "china": BotConfig(candidates=16, samples=2, horizon=3),
    # most Founding Fathers choices change nothing at once and random steps after them are mere
    # noise: the bot weighs what a choice does now, and keeps the default unless something gains
    "founding-fathers": BotConfig(candidates=8, samples=1, horizon=4, stick=0.01, rollout="defaults"),
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


WIN = 10_000.0  # a won game outweighs any evaluation of a game still going


def _value(game: GameModule, state: State, seat: str) -> float:
    """How good a position is for `seat`: a finished game by its outcome (a shared win counts a
    share), one still going by the game's own evaluation (0 without one)."""
    outcome = game.outcome(state)
    if outcome is None:
        return float(game.evaluate(state, seat) or 0.0) if not state.get("result") else 0.0
    win = 1.0 / len(outcome.winners) if seat in outcome.winners else 0.0
    scores = outcome.scores or {}
    others = [v for s, v in scores.items() if s != seat]
    margin = float(scores.get(seat, 0) - max(others)) if others else 0.0
    return WIN * win + margin


def _rollout(game: GameModule, state: State, seat: str, first: Order, rnd: random.Random,
             steps: int, policy: str = "random") -> float | None:
    """Play `first` for `seat`, then `steps` steps of random play (or of defaults: `policy`) for
    everyone (or to the end),
    and weigh the position reached. None: the sampled state proved inconsistent with the rules
    (the sample is dropped)."""
    try:
        prompts = game.prompts(state)
        orders = {s: (first if s == seat else rnd.choice(prompts[s].choices)) for s in _group(rnd, prompts, seat)}
        state = apply_checked(game, state, orders, prompts, owned=True).state
        for _ in range(steps):
            prompts = game.prompts(state)
            if not prompts:
                break
            group = _group(rnd, prompts)
            orders = ({s: game.default_order(state, s) for s in group} if policy == "defaults"
                      else {s: rnd.choice(prompts[s].choices) for s in group})
            state = apply_checked(game, state, orders, prompts, owned=True).state
        return _value(game, state, seat)
    except Exception:  # noqa: BLE001 - a sampled hidden part the rules cannot use: drop the sample
        return None


def _own_chain(game: GameModule, state: State, seat: str, first: Order, limit: int = 4) -> list[State]:
    """The states `first` leads to while one seat at a time decides and takes its default: what a
    choice amounts to in the next few steps (a trade offered, then cancelled or declined)."""
    chain: list[State] = []
    try:
        prompts = game.prompts(state)
        state = apply_checked(game, state, {seat: first}, prompts).state
        for _ in range(limit):
            chain.append(state)
            prompts = game.prompts(state)
            if len(prompts) != 1 or next(iter(prompts.values())).sealed:
                break
            (who,) = prompts
            state = apply_checked(game, state, {who: game.default_order(state, who)}, prompts).state
    except Exception:  # noqa: BLE001 - judged by the rollouts instead
        return chain
    return chain


def drop_detours(game: GameModule, state: State, seat: str, options: list[Order], default_first: bool) -> list[Order]:
    """The options without detours: a choice that, followed by defaults one seat at a time, comes
    back within a few steps to where it started or to where the default leads (a trade offered and
    declined). Such a
    choice changes nothing, yet a cut-off evaluation may prefer it (it puts off a cost), and a
    substitute that keeps taking it would never end its turn."""
    prompts = game.prompts(state)
    if not default_first or set(prompts) != {seat} or prompts[seat].sealed:
        return options
    seen = [state, *_own_chain(game, state, seat, options[0])]
    kept = [options[0]]
    for order in options[1:]:
        if not any(step in seen for step in _own_chain(game, state, seat, order)):
            kept.append(order)
    return kept


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
    """The best of `prompt`'s choices (the seat's open decision), each tried on a few sampled
    states and weighed by the game's evaluation a few steps later."""
    if len(prompt.choices) == 1:  # forced: no thinking
        return copy_json(prompt.choices[0])
    config = config or config_for(game)
    seed = decision_seed(view, seat, public)
    rnd = random.Random(seed)
    base = determinize(game, view, seat, seed)
    sampled = game.prompts(base).get(seat)
    default = game.default_order(base, seat) if sampled is not None else None
    options = candidates_of(prompt, default, rnd, config.candidates)
    default_first = default is not None and prompt.find(default) is not None
    if game.evaluate(base, seat) is not None and config.horizon < config.step_limit:
        options = drop_detours(game, base, seat, options, default_first)
    if len(options) == 1:
        return copy_json(options[0])
    # A game without an evaluation learns nothing from a cut-off: its samples play to the end.
    steps = config.horizon if game.evaluate(base, seat) is not None else config.step_limit
    totals = [0.0] * len(options)
    for round_ in range(max(1, config.samples)):
        sample_seed = f"{seed}:{round_}"
        sample = determinize(game, view, seat, sample_seed) if round_ else base
        for index, order in enumerate(options):
            # the same sample and the same dice for every candidate: only the choice differs
            value = _rollout(game, copy_json(sample), seat, copy_json(order), random.Random(sample_seed), steps,
                             config.rollout)
            totals[index] += value if value is not None else 0.0
    # the default (first when legal) gets the head start `stick` on every sample
    if default_first:
        totals[0] += config.stick * max(1, config.samples)
    best = max(range(len(options)), key=lambda i: (totals[i], -i))
    return copy_json(options[best])


def substitute_orders(game: GameModule, state: State, seats: list[str], public: str = "",
                      config: BotConfig | None = None) -> dict[str, Any]:
    """The substitute's order for each of `seats` (each decided from its own view only)."""
    return {seat: choose(game, state, seat, public=public, config=config) for seat in seats}
