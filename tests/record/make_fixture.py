"""Write a finished game's record export for tests/record/fixtures (run it with an older build).

    PYTHONPATH=<worktree of the old commit> python tests/record/make_fixture.py GAME PLAYERS SEED \
        OPTIONS_JSON OUT.json

A seeded random player through the public protocol: a whole sealed group (salted, as the service
salts it) or one open seat at a time, taking the deadline default one time in eight. It uses only
the record API that every build since the record format has had, so an old build can run it.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from adjudicator.engine import get_game
from adjudicator.record import RecordBuilder
from adjudicator.record.verify import export_bytes


def main(game_id: str, players: str, seed: str, options: str, out: str) -> None:
    game = get_game(game_id)
    rnd = random.Random(seed)
    resolved = game.info.resolve_options(json.loads(options))
    seats = game.seat_names(int(players), resolved)
    record = RecordBuilder(game, seats, resolved, server_seed=f"fixture-{seed}", entropy=["a", "b", "c"][: len(seats)])
    for _ in range(200_000):
        prompts = game.prompts(record.state)
        if not prompts:
            break
        first = prompts[rnd.choice(sorted(prompts))]
        group = (sorted(s for s, p in prompts.items() if p.sealed and p.group == first.group)
                 if first.sealed else [first.seat])
        orders, defaulted = {}, []
        for seat in group:
            if rnd.random() < 0.125:
                orders[seat], defaulted = game.default_order(record.state, seat), [*defaulted, seat]
            else:
                orders[seat] = rnd.choice(prompts[seat].choices)
        salts = {seat: f"salt-{rnd.getrandbits(64):016x}" for seat in group} if first.sealed else {}
        record.apply(orders, defaulted=defaulted, salts=salts, prompts=prompts)
    else:
        raise SystemExit("the game did not end")
    Path(out).write_bytes(export_bytes(record.export()))


if __name__ == "__main__":
    main(*sys.argv[1:])
