"""Rollback entries: a moderator's `note` with ``{"action": "rollback", "to": N}``.

The record never loses an entry. A rollback entry at index R marks the entries N+1 .. R-1 as
*undone*, and its ``state_hash`` is the hash of the state after entry N: replay continues from that
state. N must be an entry still in force when the rollback is written (not itself undone), so the
undone entries of a record are simply the union of those ranges. Undone entries keep their own
hashes and state hashes, so `pbem verify` still replays and checks every one of them.
"""

from __future__ import annotations

from typing import Any

ROLLBACK = "rollback"
# a moderator's declared result ends the game even though the rules still had decisions open
DECLARED_RESULT = "declare_result"


def rollback_target(entry: dict[str, Any]) -> int | None:
    """N for a rollback entry, None for any other entry (a malformed target raises ValueError)."""
    data = entry.get("data")
    if entry.get("kind") != "note" or not isinstance(data, dict) or data.get("action") != ROLLBACK:
        return None
    to = data.get("to")
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < entry["index"]:
        raise ValueError(f"rolls back to {to!r}, which is not an earlier entry")
    return to


def undone_indices(entries: list[dict[str, Any]]) -> set[int]:
    """The indices of the entries a later rollback undid."""
    undone: set[int] = set()
    for entry in entries:
        to = rollback_target(entry)
        if to is not None:
            if to in undone:
                raise ValueError(f"rolls back to entry {to}, which an earlier rollback had undone")
            undone.update(range(to + 1, entry["index"]))
    return undone
