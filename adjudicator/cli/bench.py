"""`pbem bench GAME`: speed figures, one per line as `name: value unit`."""

from __future__ import annotations

import argparse
import statistics
import time

from adjudicator.record import verify_record

from .options import parse_options
from .playout import play_one


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str]) -> int:
    if argv[:1] == ["mail"]:
        from .benchmail import main as mail_main

        return mail_main(argv[1:])
    if argv[:1] == ["pace"]:
        from .benchpace import main as pace_main

        return pace_main(argv[1:])
    if argv[:1] == ["hostile"]:
        from .benchhostile import main as hostile_main

        return hostile_main(argv[1:])
    if argv[:1] == ["web"]:
        from .benchweb import main as web_main

        return web_main(argv[1:])
    parser = argparse.ArgumentParser(prog="pbem bench", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--seed", default="bench")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    options = parse_options(args.option)

    timings: list[float] = []
    steps = 0
    results = []
    for index in range(args.games):
        result = play_one(args.game, f"{args.seed}-{index}", args.players, options, timed=True,
                          check_views=False, default_rate=0.0)
        timings.extend(result.apply_seconds)
        steps += result.steps
        results.append(result)

    started = time.perf_counter()
    for index in range(args.games):
        play_one(args.game, f"{args.seed}-{index}", args.players, options, check_views=False, default_rate=0.0)
    games_per_second = args.games / (time.perf_counter() - started)

    replay_ms = []
    for result in results[: min(10, len(results))]:
        doc = result.record.export()
        started = time.perf_counter()
        verify_record(doc)
        replay_ms.append((time.perf_counter() - started) * 1000)

    print(f"game: {args.game}")
    print(f"games: {args.games}")
    print(f"steps per game: {steps / max(1, args.games):.1f} steps")
    print(f"apply p50: {_percentile(timings, 0.50) * 1e6:.1f} us")
    print(f"apply p99: {_percentile(timings, 0.99) * 1e6:.1f} us")
    print(f"full games per second: {games_per_second:.2f} games/s")
    print(f"replay of a full game: {statistics.median(replay_ms):.1f} ms")
    return 0
