"""`pbem bench web [--game G] [--players P] [--steps N] [--requests R]`: how fast the pages of a
long game are served, and how big they are.

A game on a fresh SQLite file is played through the service with random legal orders (sealed
groups revealed inline) for up to N steps; then the seat page and the public page are fetched R
times each through the Flask app (no network, so the figures are the server's own work), beside
the game list as a same-run baseline (a page that reads no record). Prints `name: value unit` lines.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from pathlib import Path


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench web", description=__doc__)
    parser.add_argument("--game", default="founding-fathers")
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--requests", type=int, default=50)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-web-"))
    os.environ.update({"PBEM_EAGER": "1", "PBEM_MAIL_DIR": str(tmp / "mail")})
    os.environ.pop("SMTP_HOST", None)

    from adjudicator import service, store
    from web import create_app
    from workers.enqueue import enqueue

    app = create_app({"DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite'}", "PBEM_VAR_DIR": str(tmp),
                      "SECRET_KEY": "bench", "PBEM_BASE_URL": "http://bench.test"})
    rnd = random.Random(args.game)
    with app.app_context():
        with store.transaction() as s:
            created = service.create_game(s, game=args.game, seats=args.players, title="Bench")
        tokens = {}
        for i, (seat, invite) in enumerate(created.invites.items()):
            with store.transaction() as s:
                tokens[seat] = service.join_game(s, created.game_id, seat, invite, f"P{i}").seat_token
        steps = 0
        while steps < args.steps:
            moved = False
            for seat, token in tokens.items():
                with store.transaction(write=False) as s:
                    page = service.seat_state(s, created.game_id, seat, token)
                if page.prompt is None or page.receipt is not None:
                    continue
                with store.transaction() as s:
                    sub = service.submit_order(s, created.game_id, seat, token,
                                               rnd.choice(page.prompt["choices"]), page.prompt_token)
                enqueue(sub.tasks)  # reveals and mail, inline (PBEM_EAGER)
                steps, moved = steps + 1, True
            if not moved:
                break
        with store.transaction(write=False) as s:
            length = service.public_game(s, created.game_id).record_length

    client = app.test_client()
    seat = next(iter(tokens))
    # baseline: the game list, a page that reads no record at all, served by the same app in the same run
    pages = {"seat page": f"/play/{created.game_id}/{seat}/{tokens[seat]}", "public page": f"/game/{created.game_id}",
             "whole log": f"/game/{created.game_id}/log", "baseline game list": "/"}
    print(f"game: {args.game}")
    print(f"record entries: {length} entries")
    for name, url in pages.items():
        times, size = [], 0
        for _ in range(args.requests):
            started = time.perf_counter()
            resp = client.get(url)
            times.append((time.perf_counter() - started) * 1000)
            assert resp.status_code == 200, (url, resp.status_code)
            size = len(resp.data)
        print(f"{name} p50: {statistics.median(times):.1f} ms")
        print(f"{name} p99: {_percentile(times, 0.99):.1f} ms")
        print(f"{name} size: {size / 1024:.1f} KiB")
    store.configure(None)
    return 0
