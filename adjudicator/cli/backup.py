"""`pbem backup FILE`: a consistent snapshot of the whole database while the server runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from adjudicator.store import database_url
from adjudicator.store.backup import BackupError, backup


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem backup", description=__doc__)
    parser.add_argument("file", type=Path, help="where to write the backup (SQLite: a database file; "
                                                "PostgreSQL: pg_dump's custom format)")
    parser.add_argument("--database", default=None, help="database URL (default: DATABASE_URL)")
    args = parser.parse_args(argv)
    url = args.database or database_url()
    try:
        done = backup(url, args.file)
    except BackupError as exc:
        print(f"pbem backup: {exc}", file=sys.stderr)
        return 1
    print(f"backed up the {done.backend} database to {done.path} ({done.size:,} bytes); "
          f"restore it with: pbem restore {done.path}")
    return 0
