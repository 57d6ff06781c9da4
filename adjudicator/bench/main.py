"""`pbem bench GAME`: speed figures, one per line as `name: value unit`.

Every figure comes with baselines measured in the same run (lines `... baseline ...:`), so that
figures taken on a busy machine can still be compared: what the same work costs done the plain
way, or the floor no implementation of the step can go under.

- state copy: the engine's copy of a game state (`copy_json`), beside `copy.deepcopy`, a `json`
  round trip and a recursive dict/list copy, on states sampled from the played games.
- apply: one recorded step as the service does it (prompts, check, copy, apply, state hash),
  beside hashing the new state alone (every recorded step pays it) and `copy.deepcopy` of it.
- full games per second: random games through the protocol with every self-play check
  (`pbem selfplay` without the view checks: a state hash, the JSON and invariant checks, the
  default and the text round trip of every order); engine games per second: prompts, a random
  legal choice and the checked apply only (no record, no checks), the measure of issue 16's
  "random full games per second" target, applied in place; beside it the same games with a copy
  of the state per step, as the service applies a step (it must keep the state if an order is
  refused); baseline: the same number of steps doing nothing but `copy.deepcopy` of the state.
- replay of a full game: `verify_record` of each finished game's export, the median and the
  slowest game of the sample (with the longest game's time), beside loading the export and hashing
  each of its states with `sha256_hex` (the stdlib encoder; `verify_record` hashes with
  `state_hash`, the same bytes written by orjson).
"""

from __future__ import annotations

import argparse
import copy
import importlib
import json
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from adjudicator.cli.options import parse_options
from adjudicator.cli.playout import play_one, random_game
from adjudicator.engine import copy_json, sha256_hex
from adjudicator.record import export_bytes, replay_record, verify_record

from . import install_hint, missing_extra


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


CLOCKS = {"wall": time.perf_counter, "cpu": time.process_time}
clock = time.perf_counter  # set by --clock


def _per_call_us(function: Callable[[Any], Any], values: list[Any], rounds: int = 3) -> float:
    """Mean microseconds per call over `values`, best of `rounds` (the least disturbed run)."""
    best = float("inf")
    for _ in range(rounds):
        started = clock()
        for value in values:
            function(value)
        best = min(best, clock() - started)
    return best / max(1, len(values)) * 1e6


def _json_round_trip(value: Any) -> Any:
    return json.loads(json.dumps(value))


def _recursive_copy(value: Any) -> Any:
    """The plain Python copy of a JSON value (the engine's copy before issue 16)."""
    if isinstance(value, dict):
        return {k: _recursive_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_recursive_copy(v) for v in value]
    return value


# `pbem bench NAME ...`: the modules of this package with a bench of their own (else NAME is a game)
SUBCOMMANDS = ("mail", "pace", "hostile", "fuzz", "burst", "http", "bots", "due", "web", "walks")


def main(argv: list[str]) -> int:
    if missing := missing_extra():  # without the bench extra, say what to install
        print(install_hint("pbem bench", missing), file=sys.stderr)
        return 2
    if argv[:1] and argv[0] in SUBCOMMANDS:  # a bench of its own, imported when asked for
        return int(importlib.import_module(f".{argv[0]}", __package__).main(argv[1:]) or 0)
    parser = argparse.ArgumentParser(prog="pbem bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="wall",
                        help="wall: elapsed time (the targets' measure); cpu: this process's CPU time, "
                             "which time slices lost to other processes on a busy machine do not inflate")
    args = parser.parse_args(argv)
    global clock
    clock = CLOCKS[args.clock]
    options = parse_options(args.option)
    seeds = [f"{args.seed}-{index}" for index in range(args.games)]

    # Apply, timed step by step; the played games give the states and records used below.
    timings: list[float] = []
    steps = 0
    results = []
    for seed in seeds:
        result = play_one(args.game, seed, args.players, options, timed=True, check_views=False,
                          default_rate=0.0, clock=clock)
        timings.extend(result.apply_seconds)
        steps += result.steps
        results.append(result)
    steps_per_game = steps / max(1, args.games)

    # States along the replays of up to 10 games: what copies and hashes work on.
    docs = [result.record.export() for result in results[: min(10, len(results))]]
    states = [state for doc in docs for _entry, state in replay_record(doc)]
    sample = states[:: max(1, len(states) // 400)]
    copy_us = _per_call_us(copy_json, sample)
    deepcopy_us = _per_call_us(copy.deepcopy, sample)
    hash_us = [_per_call_us(sha256_hex, [state], rounds=1) for state in sample]
    deepcopy_each_us = [_per_call_us(copy.deepcopy, [state], rounds=1) for state in sample]

    started = clock()
    for seed in seeds:
        play_one(args.game, seed, args.players, options, check_views=False, default_rate=0.0)
    games_per_second = args.games / (clock() - started)
    started = clock()
    for seed in seeds:
        random_game(args.game, seed, args.players, options)
    engine_games_per_second = args.games / (clock() - started)
    started = clock()
    for seed in seeds:
        random_game(args.game, seed, args.players, options, owned=False)
    copied_games_per_second = args.games / (clock() - started)

    replay_ms, floor_ms = [], []
    every_doc = [result.record.export() for result in results]  # every game of the sample replays
    for doc in every_doc:
        raw = export_bytes(doc)
        started = clock()
        verify_record(doc)
        replay_ms.append((clock() - started) * 1000)
        replayed = [state for _entry, state in replay_record(doc)]
        started = clock()
        json.loads(raw)
        for state in replayed:
            sha256_hex(state)
        floor_ms.append((clock() - started) * 1000)

    print(f"game: {args.game}")
    print(f"clock: {args.clock}")
    print(f"games: {args.games}")
    print(f"steps per game: {steps_per_game:.1f} steps")
    print(f"state copy: {copy_us:.1f} us")
    print(f"state copy baseline copy.deepcopy: {deepcopy_us:.1f} us")
    print(f"state copy baseline json round trip: {_per_call_us(_json_round_trip, sample):.1f} us")
    print(f"state copy baseline recursive copy: {_per_call_us(_recursive_copy, sample):.1f} us")
    print(f"apply p50: {_percentile(timings, 0.50) * 1e6:.1f} us")
    print(f"apply p99: {_percentile(timings, 0.99) * 1e6:.1f} us")
    print(f"apply baseline state hash p50: {_percentile(hash_us, 0.50):.1f} us")
    print(f"apply baseline state hash p99: {_percentile(hash_us, 0.99):.1f} us")
    print(f"apply baseline copy.deepcopy p50: {_percentile(deepcopy_each_us, 0.50):.1f} us")
    print(f"full games per second: {games_per_second:.2f} games/s")
    print(f"engine games per second: {engine_games_per_second:.2f} games/s")
    print(f"engine games per second as the service applies (a copy per step): {copied_games_per_second:.2f} games/s")
    print(f"games per second baseline copy.deepcopy per step: "
          f"{1e6 / max(1e-9, deepcopy_us * steps_per_game):.2f} games/s")
    print(f"replay of a full game: {statistics.median(replay_ms):.1f} ms")
    longest = max(range(len(results)), key=lambda index: results[index].steps)
    print(f"replay of the longest game ({results[longest].steps} steps): {replay_ms[longest]:.1f} ms")
    print(f"replay of the slowest game: {max(replay_ms):.1f} ms")
    print(f"replay baseline load and hash every state: {statistics.median(floor_ms):.1f} ms")
    return 0
