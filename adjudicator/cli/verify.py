"""`pbem verify FILE`: replay an exported record offline and check every hash and the seed."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from adjudicator.record import VerifyError, verify_bytes


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem verify", description=__doc__)
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    failed = 0
    for path in args.files:
        try:
            report = verify_bytes(path.read_bytes())
        except OSError as exc:
            print(f"{path}: cannot read: {exc}", file=sys.stderr)
            failed += 1
            continue
        except VerifyError as exc:
            print(f"{path}: FAILED: {exc}", file=sys.stderr)
            failed += 1
            continue
        except (AttributeError, IndexError, KeyError, TypeError) as exc:  # a malformed document
            print(f"{path}: FAILED: not a well-formed pbem record ({type(exc).__name__}: {exc}); "
                  "export it again from the game's page", file=sys.stderr)
            failed += 1
            continue
        if report.replayed:
            state = "finished" if report.finished else "still running"
            print(f"{path}: OK: {report.game}, rules version {report.rules_version}, {report.entries} entries "
                  f"replayed by those rules, every hash matches, seed matches its commitment, game {state}")
        elif report.withheld:
            print(f"{path}: OK (redacted export of a running game): {report.game}, rules version "
                  f"{report.rules_version}, {report.entries} entries "
                  f"linked; {report.withheld} sealed entries show only their seats and receipt hashes. The "
                  "complete record and the seed are published when the game ends; verify that export "
                  "for a full replay")
        else:
            print(f"{path}: OK (chain only): {report.game}, rules version {report.rules_version}, "
                  f"{report.entries} entries linked; the seed is "
                  "revealed when the game ends, then a full replay is possible")
    return 1 if failed else 0
