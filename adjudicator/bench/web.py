"""`pbem bench web [--game G] [--players P] [--steps N,M,...] [--requests R]`: how fast the pages of
a long game are served, how big they are, and whether that grows with the record.

A game on a fresh SQLite file is played through the service with random legal orders (sealed
groups revealed inline); at each step count of --steps (or when the game ends) the seat page, the
public page and the whole-log page are fetched R times each through the Flask app (no network, so
the figures are the server's own work), beside the game list as a same-run baseline (a page that
reads no record). Comparing the lines of a short record with those of a long one shows whether a
page's time grows with the record. Prints `name: value unit` lines, wall and CPU time.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def _play(service: Any, store: Any, enqueue: Any, game_id: str, tokens: dict[str, str], rnd: random.Random,
          steps: int, until: int) -> tuple[int, bool]:
    """Random legal orders until `until` steps were played; returns (steps, whether the game still moves)."""
    while steps < until:
        moved = False
        for seat, token in tokens.items():
            with store.transaction(write=False) as s:
                page = service.seat_state(s, game_id, seat, token)
            if page.prompt is None or page.receipt is not None:
                continue
            with store.transaction() as s:
                sub = service.submit_order(s, game_id, seat, token, rnd.choice(page.prompt["choices"]),
                                           page.prompt_token)
            enqueue(sub.tasks)  # reveals and mail, inline (PBEM_EAGER)
            steps, moved = steps + 1, True
        if not moved:
            return steps, False
    return steps, True


def _measure(client: Any, pages: dict[str, str], requests: int, length: int) -> None:
    for name, url in pages.items():
        walls, cpus, size = [], [], 0
        for _ in range(requests):
            started, cpu = time.perf_counter(), time.process_time()
            resp = client.get(url)
            walls.append((time.perf_counter() - started) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
            assert resp.status_code == 200, (url, resp.status_code)
            size = len(resp.data)
        print(f"{name} at {length} entries p50: {statistics.median(walls):.1f} ms")
        print(f"{name} at {length} entries p99: {_percentile(walls, 0.99):.1f} ms")
        print(f"{name} at {length} entries cpu p50: {statistics.median(cpus):.1f} ms")
        print(f"{name} at {length} entries size: {size / 1024:.1f} KiB")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench web", description=__doc__)
    parser.add_argument("--game", default="founding-fathers")
    parser.add_argument("--players", type=int, default=5)
    parser.add_argument("--steps", default="200,2000", help="step counts to measure at, comma-separated")
    parser.add_argument("--requests", type=int, default=30)
    args = parser.parse_args(argv)
    checkpoints = sorted(int(n) for n in args.steps.split(",") if n.strip())
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-web-"))
    os.environ.update({"PBEM_EAGER": "1", "PBEM_MAIL_DIR": str(tmp / "mail")})
    os.environ.pop("SMTP_HOST", None)

    from adjudicator import service, store
    from web import create_app
    from workers.enqueue import enqueue

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite'}", "PBEM_VAR_DIR": str(tmp),
                      "SECRET_KEY": "bench", "PBEM_BASE_URL": "http://bench.test"})
    rnd = random.Random(args.game)
    client = app.test_client()
    print(f"game: {args.game}")
    with app.app_context():
        with store.transaction() as s:
            created = service.create_game(s, game=args.game, seats=args.players, title="Bench")
        tokens = {}
        for i, (seat, invite) in enumerate(created.invites.items()):
            with store.transaction() as s:
                tokens[seat] = service.join_game(s, created.game_id, seat, invite, f"P{i}").seat_token
        seat = next(iter(tokens))
        # baseline: the game list, a page that reads no record at all, served by the same app in the same run
        pages = {"seat page": f"/play/{created.game_id}/{seat}/{tokens[seat]}",
                 "public page": f"/game/{created.game_id}", "whole log": f"/game/{created.game_id}/log",
                 "baseline game list": "/"}
        steps, going = 0, True
        for until in checkpoints:
            steps, going = _play(service, store, enqueue, created.game_id, tokens, rnd, steps, until)
            with store.transaction(write=False) as s:
                length = service.public_game(s, created.game_id).record_length
            _measure(client, pages, args.requests, length)
            if not going:
                print(f"note: the game ended after {steps} steps")
                break
    store.configure(None)
    return 0
