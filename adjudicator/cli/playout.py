"""Random full games through the protocol, with every check self-play promises.

Used by `pbem selfplay`, `pbem bench` and the conformance tests, so all three play the same way.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from adjudicator.engine import GameModule, Prompt, apply_checked, canonical_json, get_game, json_problem
from adjudicator.record import RecordBuilder

DEFAULT_STEP_LIMIT = 200_000


@dataclass
class PlayoutResult:
    game: str
    seats: list[str]
    steps: int
    violations: list[str]
    record: RecordBuilder
    apply_seconds: list[float] = field(default_factory=list)


def choose_group(rnd: random.Random, prompts: dict[str, Prompt]) -> list[str]:
    """The seats whose orders go into the next apply call: a whole sealed group or one seat."""
    seat = rnd.choice(sorted(prompts))
    prompt = prompts[seat]
    if prompt.sealed:
        return sorted(s for s, p in prompts.items() if p.sealed and p.group == prompt.group)
    return [seat]


def _scramble(value: Any) -> Any:
    """Same shape, different contents: every int and string changed, lengths and keys kept."""
    if isinstance(value, dict):
        return {k: _scramble(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_scramble(v) for v in value]
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return value + 7919
    if isinstance(value, str):
        return value + "~x"
    return value


def _view_leaks(game: GameModule, state: dict[str, Any], seats: list[str]) -> list[str]:
    """A seat's view must not change when the secret part or another seat's private part does."""
    problems = []
    private = state.get("private") or {}
    for seat in [None, *seats]:
        view = game.view(state, seat)
        if "secret" in view:
            problems.append(f"view for {seat} contains the secret part")
        others = set(view.get("private") or {}) - ({seat} if seat else set())
        if others:
            problems.append(f"view for {seat} contains private parts of {sorted(others)}")
        changed = dict(state)
        changed["secret"] = _scramble(state.get("secret", {}))
        changed["private"] = {o: (part if o == seat else _scramble(part)) for o, part in private.items()}
        try:
            same = canonical_json(game.view(changed, seat)) == canonical_json(view)
        except Exception:  # noqa: BLE001 - a view that reads hidden data to build itself leaks
            same = False
        if not same:
            problems.append(f"view for {seat} depends on hidden data (secret or another seat's private part)")
    return problems


def play_one(
    game_id: str,
    seed: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    *,
    default_rate: float = 0.1,
    check_views: bool = True,
    view_check_rate: float = 0.2,
    step_limit: int = DEFAULT_STEP_LIMIT,
    timed: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> PlayoutResult:
    game = get_game(game_id)
    rnd = random.Random(seed)
    count = players or rnd.randint(game.info.min_seats, game.info.max_seats)
    resolved = game.info.resolve_options(options or {})
    seats = game.seat_names(count, resolved)
    record = RecordBuilder(game, seats, resolved, server_seed=f"selfplay:{seed}", entropy=[seed])
    violations: list[str] = []
    steps = 0
    timings: list[float] = []

    def note(problem: str) -> None:
        violations.append(f"{game_id} seed={seed} step={steps}: {problem}")

    while steps < step_limit:
        state = record.state
        prompts = game.prompts(state)
        if not prompts:
            break
        orders: dict[str, Any] = {}
        defaulted: list[str] = []
        for seat in choose_group(rnd, prompts):
            prompt = prompts[seat]
            if not prompt.choices:
                note(f"{seat} has a {prompt.kind} prompt with no legal choice (dead end)")
                return PlayoutResult(game_id, seats, steps, violations, record, timings)
            default = game.default_order(state, seat)
            if not prompt.allows(default):
                note(f"default order {default!r} for {seat} is not among the legal choices")
            if rnd.random() < default_rate:
                order, defaulted = default, [*defaulted, seat]
            else:
                order = rnd.choice(prompt.choices)
            text = game.format_order(order)
            try:
                parsed = game.parse_order(text, prompt)
            except Exception as exc:  # noqa: BLE001 - any failure here is a violation to report
                note(f"parse_order({text!r}) failed: {exc}")
                parsed = order
            if canonical_json(parsed) != canonical_json(order):
                note(f"parse(format(o)) != o for {order!r} (text {text!r} -> {parsed!r})")
            orders[seat] = parsed
        started = clock() if timed else 0.0
        try:
            # A timed apply is measured as the service does it: the prompts are built inside.
            # Timed steps copy the state as the service does; untimed ones apply in place (a
            # failed apply ends the game here, so the half-changed state is never read).
            record.apply(orders, defaulted=defaulted, prompts=None if timed else prompts, in_place=not timed)
        except Exception as exc:  # noqa: BLE001
            note(f"apply of legal orders {orders!r} failed: {type(exc).__name__}: {exc}")
            return PlayoutResult(game_id, seats, steps, violations, record, timings)
        if timed:
            timings.append(clock() - started)
        steps += 1
        problem = json_problem(record.state)
        if problem:
            note(problem)
        for problem in game.invariants(record.state):
            note(problem)
        if check_views and rnd.random() < view_check_rate:
            for problem in _view_leaks(game, record.state, seats):
                note(problem)
    else:
        note(f"no end after {step_limit} steps")
    if game.prompts(record.state):
        pass
    elif game.outcome(record.state) is None:
        note("the game has no prompts left but reports no outcome")
    return PlayoutResult(game_id, seats, steps, violations, record, timings)


def random_game(
    game_id: str,
    seed: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    step_limit: int = DEFAULT_STEP_LIMIT,
    owned: bool = True,
) -> int:
    """One random full game through the engine alone: prompts, a random legal choice for a seat
    (or a whole sealed group) and the checked apply; no record and no self-play checks. Returns
    the number of steps. The engine's speed without what the record and the checks add.
    `owned=False` applies each step to a copy of the state, as the service must (a refused order
    leaves its state untouched)."""
    game = get_game(game_id)
    rnd = random.Random(seed)
    count = players or rnd.randint(game.info.min_seats, game.info.max_seats)
    resolved = game.info.resolve_options(options or {})
    state = game.setup(f"random:{seed}", game.seat_names(count, resolved), resolved).state
    for steps in range(step_limit):
        prompts = game.prompts(state)
        if not prompts:
            return steps
        orders = {seat: rnd.choice(prompts[seat].choices) for seat in choose_group(rnd, prompts)}
        state = apply_checked(game, state, orders, prompts, owned=owned).state
    raise RuntimeError(f"{game_id} seed={seed}: no end after {step_limit} steps")
