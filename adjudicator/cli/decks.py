"""`pbem decks check FILE...`, `pbem decks install FILE [--name NAME]`, `pbem decks list`:
Founding Fathers decks with the printed card values.

A deck is one JSON file (see docs/games/founding-fathers.md, "Deck files"). `check` prints one
line per valid file (cards per type, and how many values are stand-ins) or every problem found,
and exits 1 if any file has problems. `install` checks the file and adds it under NAME (default:
the deck's own id); new games choose it with the option `deck=NAME`, games already running keep
their deck.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from adjudicator.games.founding_fathers import validate_deck

from .datafiles import check_files, install, list_installed, read_json


def summary(data: dict[str, Any]) -> str:
    """One line: cards per type and the stand-in count of a deck that passed `validate_deck`."""
    eras = {e: sum(1 for i in data["issues"] if i["era"] == e) for e in ("A", "B", "C")}
    kinds = {k: sum(1 for t in data["taxes"] if t["kind"] == k) for k in ("tax", "tariff", "bond")}
    copies = sum(a["copies"] for a in data["actions"])
    tables = ("statesmen", "states", "offices", "taxes", "issues", "actions")
    cards = [c for t in tables for c in data[t]]
    values = sum(len(c["stand_in"]) for c in cards)
    touched = sum(1 for c in cards if c["stand_in"] or c["provenance"] == "stand-in")
    whole = sum(1 for c in cards if c["provenance"] == "stand-in")
    return (f"deck {data['id']!r}: {len(data['statesmen'])} statesmen, "
            f"{len(data['states'])} states ({sum(1 for s in data['states'] if s['original'])} original), "
            f"{len(data['offices'])} offices, {kinds['tax']} taxes, {kinds['tariff']} tariffs, {kinds['bond']} bonds, "
            f"{len(data['issues'])} issues (A {eras['A']}, B {eras['B']}, C {eras['C']}), "
            f"{len(data['actions'])} actions ({copies} cards); "
            f"stand-ins: {values} values on {touched} of {len(cards)} cards ({whole} cards wholly stand-in)")


def check(paths: list[Path]) -> int:
    return check_files(paths, validate_deck, summary)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem decks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="action", required=True)
    chk = sub.add_parser("check", help="validate Founding Fathers deck files")
    chk.add_argument("files", nargs="+", type=Path)
    add = sub.add_parser("install", help="install a deck for new games")
    add.add_argument("file", type=Path)
    add.add_argument("--name", help="the name games choose it by (default: the deck's id)")
    sub.add_parser("list", help="the decks new games can choose, and older versions still in use")
    args = parser.parse_args(argv)
    if args.action == "check":
        return check(args.files)
    if args.action == "list":
        return list_installed("founding-fathers", "deck")
    if check([args.file]):
        return 1
    data = read_json(args.file)
    return install("founding-fathers", "deck", args.name or str(data["id"]), data, source=args.file.name)
