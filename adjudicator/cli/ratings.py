"""`pbem ratings [--recompute] [--game TYPE]`: list the players' OpenSkill ratings per game type;
`--recompute` first rebuilds them from every finished game (the table is only a cache of those).
Uses DATABASE_URL like every pbem command."""

from __future__ import annotations

import argparse

from adjudicator import store
from adjudicator.service import rating_table, recompute_ratings


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem ratings", description=__doc__)
    parser.add_argument("--recompute", action="store_true", help="rebuild every rating from the finished games")
    parser.add_argument("--game", default="", help="only this game type")
    args = parser.parse_args(argv)
    store.init_db()
    if args.recompute:
        with store.transaction() as s:
            print(f"rated {recompute_ratings(s)} finished game(s)")
    with store.transaction(write=False) as s:
        rows = rating_table(s, args.game)
        for r in rows:
            print(f"{r.game_type}\t{r.rating:7.2f}\tmu {r.mu:6.2f} sigma {r.sigma:5.2f}\t"
                  f"{r.games} game(s)\t{r.name}\t{r.player}")
    if not rows:
        print("no ratings yet" + (" (run with --recompute after an upgrade)" if not args.recompute else ""))
    return 0
