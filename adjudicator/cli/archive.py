"""`pbem archive DIR`: write every finished game as static HTML (public page, whole log, record
JSON, stylesheets) with an index page and relative links, for a club to publish without running
the server. Uses DATABASE_URL like every pbem command; see web/archive.py."""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem archive", description=__doc__)
    parser.add_argument("dir", type=Path, help="the folder to write (made if missing; files in it are replaced)")
    args = parser.parse_args(argv)
    from adjudicator import store
    from web import create_app  # imported here: other commands must not need Flask
    from web.archive import write_archive

    app = create_app({"DATABASE_URL": store.database_url(), "PBEM_BASE_URL": ""})
    report = write_archive(app, args.dir)
    print(f"wrote {len(report.games)} finished game(s), {len(report.files)} files, to {args.dir}/index.html")
    return 0
