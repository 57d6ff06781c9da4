"""`pbem selfplay GAME --games N --seed S [--players P] [--option k=v] [--export DIR]`."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from adjudicator.record import export_bytes, verify_record

from .options import parse_options
from .playout import play_one


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem selfplay", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    parser.add_argument("--export", type=Path, default=None, metavar="DIR")
    parser.add_argument("--verify-every", type=int, default=50,
                        help="replay and verify every Nth game's record (0: never)")
    args = parser.parse_args(argv)
    options = parse_options(args.option)

    started = time.perf_counter()
    total_steps = 0
    violations: list[str] = []
    wins: dict[str, int] = {}
    if args.export:
        args.export.mkdir(parents=True, exist_ok=True)
    for index in range(args.games):
        seed = f"{args.seed}-{index}"
        result = play_one(args.game, seed, args.players, options)
        total_steps += result.steps
        violations.extend(result.violations)
        outcome = result.record.game.outcome(result.record.state)
        for winner in outcome.winners if outcome else []:
            wins[winner] = wins.get(winner, 0) + 1
        doc = result.record.export()
        if args.verify_every and index % args.verify_every == 0:
            try:
                verify_record(doc)
            except Exception as exc:  # noqa: BLE001
                violations.append(f"seed={seed}: record does not verify: {exc}")
        if args.export:
            (args.export / f"{args.game}-{seed}.json").write_bytes(export_bytes(doc))
    elapsed = time.perf_counter() - started
    print(f"game: {args.game}")
    print(f"games: {args.games}")
    print(f"steps: {total_steps}")
    print(f"seconds: {elapsed:.1f}")
    print("wins: " + ", ".join(f"{seat} {n}" for seat, n in sorted(wins.items())))
    for problem in violations[:20]:
        print(f"violation: {problem}")
    print(f"violations: {len(violations)}")
    return 1 if violations else 0
