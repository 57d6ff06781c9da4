"""`pbem boards check FILE...`, `pbem boards install NAME FILE [FILE]`, `pbem boards list`: China
boards transcribed from the printed game.

A board file describes one side (3-4p or 4-5p). `install` checks the files, then adds them as one
board under NAME (one file per side; a board with one side only serves games on that side). New
games choose it with the option `board=NAME`; games already running keep their board.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from adjudicator.games.china import validate_board

from .datafiles import check_files, install, list_installed, read_json


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem boards", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    check = sub.add_parser("check", help="validate board files (China)")
    check.add_argument("files", nargs="+", type=Path)
    add = sub.add_parser("install", help="install a board (one file per side) for new games")
    add.add_argument("name", help="the name games choose it by, e.g. printed")
    add.add_argument("files", nargs="+", type=Path, help="one board file per side")
    sub.add_parser("list", help="the boards new games can choose, and older versions still in use")
    args = parser.parse_args(argv)
    if args.action == "check":
        return check_files(args.files, validate_board, _summary)
    if args.action == "list":
        return list_installed("china", "board")
    return _install(args.name, args.files)


def _install(name: str, files: list[Path]) -> int:
    if check_files(files, validate_board, _summary):
        return 1
    sides: dict[str, object] = {}
    for path in files:
        data = read_json(path)
        if data["side"] in sides:
            print(f"{path}: a second file for side {data['side']}; give one file per side", file=sys.stderr)
            return 1
        sides[data["side"]] = data
    return install("china", "board", name, sides, source=", ".join(p.name for p in files))


def _summary(data: dict) -> str:
    label = "stand-in geometry" if data.get("stand_in") else "transcribed board"
    return (f"side {data['side']}, {len(data['regions'])} regions, {len(data['house_spaces'])} house "
            f"spaces, {len(data['roads'])} roads, {len(data['alliances'])} alliances ({label})")
