"""Random full games through the protocol, checking invariants after every step."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from adjudicator.engine import apply_checked, canonical_json, copy_json, json_problem
from adjudicator.games.doge import GAME

GAMES = 240
CHUNKS = 6


def check_invariants(state: dict) -> None:
    assert json_problem(state) is None
    assert GAME.invariants(state) == []


def play_one(seed: int, build_bias: float) -> tuple[dict, int]:
    rnd = random.Random(seed)
    players = 3 + seed % 2
    state = GAME.setup(f"playout-{seed}", GAME.seat_names(players, {}), {}).state
    steps = 0
    while prompts := GAME.prompts(state):
        for seat, prompt in prompts.items():
            assert prompt.choices, f"{prompt.kind} for {seat} has no choices"
            assert GAME.default_order(state, seat) in prompt.choices, f"bad default for {prompt.kind}"
        seat = rnd.choice(sorted(prompts))
        prompt = prompts[seat]
        members = [s for s, p in prompts.items() if p.sealed and p.group == prompt.group] or [seat]
        orders = {}
        for s in members:
            p = prompts[s]
            if p.kind == "build":
                orders[s] = {"build": rnd.random() < build_bias}
            else:
                orders[s] = rnd.choice(p.choices)
        state = apply_checked(GAME, state, orders).state
        check_invariants(state)
        steps += 1
        assert steps < 5000
    return state, steps


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_playouts(chunk: int) -> None:
    for seed in range(chunk, GAMES, CHUNKS):
        state, _ = play_one(seed, build_bias=0.5 if seed % 3 else 0.9)
        outcome = GAME.outcome(state)
        assert outcome is not None and outcome.winners
        assert set(outcome.winners) <= set(state["seats"])
        assert GAME.prompts(state) == {}


def test_replay_is_deterministic() -> None:
    a, _ = play_one(12345, 0.7)
    b, _ = play_one(12345, 0.7)
    assert canonical_json(a) == canonical_json(b)


def test_apply_speed_report() -> None:
    """Prints the median time of the game's own apply (no timed assertion)."""
    rnd = random.Random(1)
    times = []
    state = GAME.setup("speed", GAME.seat_names(4, {}), {}).state
    while prompts := GAME.prompts(state):
        seat = sorted(prompts)[0]
        prompt = prompts[seat]
        members = [s for s, p in prompts.items() if p.sealed and p.group == prompt.group] or [seat]
        orders = {s: rnd.choice(prompts[s].choices) for s in members}
        work = copy_json(state)
        t0 = time.perf_counter()
        state = GAME.apply(work, orders).state
        times.append(time.perf_counter() - t0)
    print(f"doge apply: median {statistics.median(times) * 1e6:.0f} us over {len(times)} steps")


def test_invariants_notice_a_lost_house() -> None:
    state = GAME.setup("inv", ["red", "blue", "green"], {}).state
    assert GAME.invariants(state) == []
    state["supply"]["red"]["houses"] -= 1
    assert GAME.invariants(state) == ["red: houses not conserved"]
