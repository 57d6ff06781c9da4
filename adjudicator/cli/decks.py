"""`pbem decks check FILE...`: validate replacement Founding Fathers deck files before they are used.

A deck is one JSON file (see docs/games/founding-fathers.md, "Deck files"). `check` prints one
line per valid file (cards per type, and how many values are stand-ins) or every problem found,
and exits 1 if any file has problems. Installing a deck on a server is not a command yet: see
the docs ("Installing a deck") for the design.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from adjudicator.games.founding_fathers import validate_deck

from .datafiles import check_files


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
    args = parser.parse_args(argv)
    return check(args.files)
