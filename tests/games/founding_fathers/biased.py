"""A biased random player for self-play tests: it prefers passing taxes and tariffs, taking up
issues, spending what they need and voting yes, so that games reach the later eras. Tests only."""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine import Prompt, apply_checked, canonical_json, json_problem
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.data import deck

GAME_DECK = "standard"

PREFERRED = {
    # prompt kind -> a test of the choices to prefer (taken with probability `bias`)
    "agenda": lambda o: o["act"] == "tax" and o["do"] == "pass",
    "issue": lambda o: o["act"] == "assign",
    "resolve": lambda o: o["act"] == "spend",
    "vote": lambda o: o["act"] == "vote" and o["vote"] == "yes",
    "tie": lambda o: o.get("pass") is True,
    "review": lambda o: o.get("cancel") is False,
    "ruling": lambda o: o.get("op") == "tension" and o["n"] < 0,
    "give": lambda o: o["act"] == "give",
}


@dataclass
class BiasedResult:
    state: dict[str, Any]
    steps: int
    violations: list[str] = field(default_factory=list)
    eras: set[str] = field(default_factory=set)
    kinds: Counter[str] = field(default_factory=Counter)


def _raises_tension(order: dict[str, Any]) -> bool:
    if order.get("act") != "play":
        return False
    d = deck(GAME_DECK)
    card = d.card(order["card"])
    return not d.is_statesman(order["card"]) and any(e["op"] == "tension" and e["n"] > 0 for e in card["effect"])


def _choose(rnd: random.Random, prompt: Prompt, bias: float) -> Any:
    if rnd.random() < 0.97 and {"act": "trade"} in prompt.choices:  # trade now and then, not always
        prompt = Prompt(seat=prompt.seat, kind=prompt.kind,
                        choices=[c for c in prompt.choices if c != {"act": "trade"}], presorted=True)
    if rnd.random() < bias:  # a peaceful player: no card that raises the tension
        calm = [c for c in prompt.choices if not _raises_tension(c)]
        if calm and len(calm) < len(prompt.choices):
            prompt = Prompt(seat=prompt.seat, kind=prompt.kind, choices=calm, presorted=True)
    test = PREFERRED.get(prompt.kind)
    if test is not None and rnd.random() < bias:
        good = [c for c in prompt.choices if test(c)]
        if prompt.kind == "agenda" and not good:
            good = [c for c in prompt.choices if c["act"] == "appoint"] or \
                   [c for c in prompt.choices if c["act"] in ("draw", "end")]
        if prompt.kind == "vote":
            good = [c for c in good if c["buy"] <= 1]
        if prompt.kind == "give" and good:
            good = [max(good, key=lambda c: c["n"])]
        if prompt.kind == "agenda":  # tariffs and bonds first: they cause no tax outrage
            calm = [c for c in good if c["act"] == "tax" and deck(GAME_DECK).taxes[c["tax"]]["kind"] != "tax"]
            good = calm or good
        if good:
            return rnd.choice(good)
    if prompt.kind == "vote":  # do not spend a whole pool on votes every time
        cheap = [c for c in prompt.choices if c.get("buy", 0) <= 1]
        return rnd.choice(cheap or prompt.choices)
    return rnd.choice(prompt.choices)


def play_biased(seed: str, players: int, options: dict[str, Any] | None = None, *, bias: float = 0.85,
                default_rate: float = 0.05, step_limit: int = 60_000, round_trip_rate: float = 0.05) -> BiasedResult:
    rnd = random.Random(seed)
    opts = GAME.info.resolve_options(options or {})
    seats = GAME.seat_names(players, opts)
    state = GAME.setup(seed, seats, opts).state
    result = BiasedResult(state, 0)

    def note(problem: str) -> None:
        result.violations.append(f"seed={seed} step={result.steps}: {problem}")

    while result.steps < step_limit:
        prompts = GAME.prompts(state)
        if not prompts:
            break
        seat = rnd.choice(sorted(prompts))
        prompt = prompts[seat]
        group = (sorted(s for s, p in prompts.items() if p.sealed and p.group == prompt.group) if prompt.sealed
                 else [seat])
        orders = {}
        for s in group:
            p = prompts[s]
            if not p.choices:
                note(f"{s}: empty {p.kind} prompt")
                return result
            default = GAME.default_order(state, s)
            if not p.allows(default):
                note(f"default {default!r} of {s} ({p.kind}) is not legal")
            order = default if rnd.random() < default_rate else _choose(rnd, p, bias)
            if rnd.random() < round_trip_rate:
                text = GAME.format_order(order)
                if canonical_json(GAME.parse_order(text, p)) != canonical_json(order):
                    note(f"round trip failed for {text!r}")
            result.kinds[p.kind] += 1
            orders[s] = order
        try:
            state = apply_checked(GAME, state, orders).state
        except Exception as exc:  # noqa: BLE001 - report, do not stop the batch
            note(f"apply {orders!r} failed: {type(exc).__name__}: {exc}")
            return result
        result.steps += 1
        result.eras.add(state["issues"]["era"])
        problem = json_problem(state)
        if problem:
            note(problem)
        for problem in GAME.invariants(state):
            note(problem)
    else:
        note("no end")
    result.state = state
    if GAME.outcome(state) is None:
        note("no outcome")
    return result
