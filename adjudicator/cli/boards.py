"""`pbem boards check FILE...`: validate a replacement China board file before it is used."""

from __future__ import annotations

import argparse
from pathlib import Path

from adjudicator.games.china import validate_board

from .datafiles import check_files


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem boards", description=__doc__)
    sub = parser.add_subparsers(dest="action", required=True)
    check = sub.add_parser("check", help="validate board files (China)")
    check.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    return check_files(args.files, validate_board, _summary)


def _summary(data: dict) -> str:
    label = "stand-in geometry" if data.get("stand_in") else "transcribed board"
    return (f"side {data['side']}, {len(data['regions'])} regions, {len(data['house_spaces'])} house "
            f"spaces, {len(data['roads'])} roads, {len(data['alliances'])} alliances ({label})")
