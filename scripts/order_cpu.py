#!/usr/bin/env python3
"""`python scripts/order_cpu.py [--orders 2000] [--rounds 3]`: an order's CPU in this process, the
service alone (issue 27's performance bound: no HTTP server, no Flask).

On a fresh SQLite file, the games and seats of `pbem bench http` (16 seats of 8 Doge games, each
meeting the same sealed decision); each call is `service.submit_order` in its own
`store.transaction()`, as the web's `backend.call` runs it, alternating each seat's two orders.
Prints the CPU (`time.process_time`) an order for each round and their minimum.

To compare with an older tree, run this file with that tree first on the path
(`PYTHONPATH=<tree> python scripts/order_cpu.py`): the bench's setup is taken from where that
tree kept it (`adjudicator/cli/benchhttp.py` before the benches moved to `adjudicator/bench/`).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

if not os.environ.get("PYTHONPATH"):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def _setup() -> list[tuple[str, str, str, Any, str]]:
    """(game, seat, seat token, order, prompt token) per call, two orders per seat."""
    tmp = Path(tempfile.mkdtemp(prefix="pbem-order-cpu-"))
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp / 'orders.sqlite'}"
    os.environ["PBEM_MAIL_DIR"] = str(tmp / "mail")
    import adjudicator
    from adjudicator import store

    # a tree from before the benches' own package kept the setup in cli/ (asked by file: an
    # editable install of a newer tree would otherwise answer `adjudicator.bench` for it)
    if (Path(adjudicator.__file__).parent / "cli" / "benchhttp.py").exists():
        from adjudicator.cli.benchhttp import _make_games
    else:
        from adjudicator.bench.http import _make_games
    store.configure(os.environ["DATABASE_URL"])
    store.init_db()
    return [(game, seat, token, json.loads(choice), prompt_token)
            for game, seat, token, choices, prompt_token in _make_games(8) for choice in choices]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--orders", type=int, default=2000, help="orders a round")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    calls = _setup()
    from adjudicator import service, store

    def run(n: int) -> None:
        for i in range(n):
            game, seat, token, order, prompt_token = calls[i % len(calls)]
            with store.transaction() as s:
                sub = service.submit_order(s, game, seat, token, order, prompt_token)
            if sub.error:
                raise SystemExit(f"order refused: {sub.error}")

    run(300)  # warm: caches, the pool, the prompt cache
    rounds = []
    for _ in range(args.rounds):
        started = time.process_time()
        run(args.orders)
        rounds.append((time.process_time() - started) / args.orders * 1e6)
    print(f"order CPU: {' '.join(f'{r:.0f}' for r in rounds)} us (min {min(rounds):.0f} us)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
