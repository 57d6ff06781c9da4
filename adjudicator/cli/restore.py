"""`pbem restore FILE`: load a `pbem backup` into the database, then check every game's record."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from adjudicator import store
from adjudicator.service import check_records
from adjudicator.store.backup import BackupError, backend_of, restore


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem restore", description=__doc__)
    parser.add_argument("file", type=Path, help="a file written by `pbem backup`")
    parser.add_argument("--database", default=None, help="database URL (default: DATABASE_URL)")
    parser.add_argument("--replace", action="store_true",
                        help="overwrite a database that already holds tables (stop the server first)")
    args = parser.parse_args(argv)
    url = args.database or store.database_url()
    try:
        restore(args.file, url, replace=args.replace)
    except BackupError as exc:
        print(f"pbem restore: {exc}", file=sys.stderr)
        return 1
    store.configure(url)
    store.init_db()  # a backup of an older release is brought to the current schema
    with store.transaction(write=False) as s:
        checked = check_records(s)
    print(f"restored {args.file} into the {backend_of(url)} database: {checked.games} games, "
          f"{checked.entries} record entries; {checked.replayed} finished games replayed in full, "
          "the others' hash chains checked")
    for game_id, reason in checked.failures:
        print(f"  game {game_id}: FAILED: {reason}", file=sys.stderr)
    return 1 if checked.failures else 0
