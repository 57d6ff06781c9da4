"""What the browser verifier (web/verifier.py, run under Pyodide) asks of a record: the verdict of
`verify_bytes` as plain data, where a player's kept receipt appears, and the game after any one
step (the step-by-step replay). Pure, like the record."""

from __future__ import annotations

import json
import re
from collections.abc import Generator
from typing import Any

from adjudicator.engine import get_game

from .verify import (
    Progress,
    VerifyError,
    failure_line,
    replay_record,
    run_steps,
    sealed_receipts,
    verdict_line,
    verify_bytes_steps,
)

# the line the seat page and the receipt mail give a player to keep
RECEIPT_LINE = re.compile(r"pbem receipt: game (?P<game>\S+) seat (?P<seat>\S+) "
                          r"commitment (?P<commitment>[0-9a-f]{64})")


def receipt_line(game_id: str, seat: str, commitment: str) -> str:
    return f"pbem receipt: game {game_id} seat {seat} commitment {commitment}"


def check_export(raw: bytes, progress: Progress | None = None) -> dict[str, Any]:
    """Verify an export's bytes; never raises. `line` is the verdict a script reads."""
    return run_steps(check_export_steps(raw), progress)


def check_export_steps(raw: bytes) -> Generator[tuple[int, int], None, dict[str, Any]]:
    """`check_export`, yielding (entries replayed, entries in all) as it goes: the page that runs
    without a worker (an archive opened from file://) runs it a chunk at a time between repaints."""
    try:
        report = yield from verify_bytes_steps(raw)
    except VerifyError as exc:
        return {"ok": False, "line": failure_line(exc), "index": exc.index}
    except (AttributeError, IndexError, KeyError, TypeError) as exc:  # a malformed document, as `pbem verify` says
        return {"ok": False, "index": None,
                "line": f"record FAILED: not a well-formed pbem record ({type(exc).__name__}: {exc})"}
    return {"ok": True, "line": verdict_line(report), "game": report.game, "entries": report.entries,
            "replayed": report.replayed, "finished": report.finished, "withheld": report.withheld,
            "rules_version": report.rules_version, "final_state_hash": report.final_state_hash}


def find_receipt(raw: bytes, line: str) -> dict[str, Any]:
    """Look a kept receipt line up in a record: revealed as sent, still sealed, or not there."""
    match = RECEIPT_LINE.search(line.strip())
    if not match:
        return {"found": False, "kind": "unreadable"}
    seat, commitment = match["seat"], match["commitment"]
    try:
        entries = json.loads(raw)["entries"]
    except (ValueError, KeyError, TypeError):
        return {"found": False, "kind": "no-record"}
    seat_entries = []
    for entry in entries:
        if not isinstance(entry, dict) or entry.get("kind") != "orders":
            continue
        try:
            receipts = sealed_receipts(entry)
        except (KeyError, TypeError, ValueError):  # a broken entry: the verdict above names it
            continue
        if seat not in receipts:
            continue
        if receipts[seat] == commitment:
            sealed = entry["data"].get("withheld") is not None
            return {"found": True, "kind": "sealed" if sealed else "revealed", "entry": entry["index"],
                    "seat": seat, "order": None if sealed else entry["data"]["orders"].get(seat)}
        seat_entries.append(entry["index"])
    return {"found": False, "kind": "missing", "seat": seat, "seat_entries": seat_entries}


def step_view(raw: bytes, index: int) -> dict[str, Any]:
    """The entry `index` of a complete record and the public board after it (what an observer may
    see: the game's own `view(state, None)`), replayed from the start. Call it on a record that
    `check_export` verified; a failure is returned, never raised."""
    try:
        doc = json.loads(raw)
        setup = doc["entries"][0]["data"]
        game = get_game(setup["game"]).for_rules(setup["rules_version"])
        for entry, state in replay_record(doc, keep=False):
            if entry["index"] != index:
                continue
            orders = {}
            if entry["kind"] == "orders":
                orders = {seat: game.format_order(order) for seat, order in sorted(entry["data"]["orders"].items())}
            return {"ok": True, "index": index, "total": len(doc["entries"]), "kind": entry["kind"],
                    "orders": orders, "state_hash": entry["state_hash"],
                    "board": game.render_view(game.view(state, None), None)}
    except VerifyError as exc:
        return {"ok": False, "line": failure_line(exc)}
    except (AttributeError, IndexError, KeyError, TypeError, ValueError) as exc:
        return {"ok": False, "line": f"record FAILED: not a well-formed pbem record ({type(exc).__name__}: {exc})"}
    return {"ok": False, "line": f"record has no entry {index}"}
