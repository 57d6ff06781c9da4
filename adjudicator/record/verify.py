"""Offline verification of an exported record: chain, receipts, seed and replayed state hashes."""

from __future__ import annotations

import json
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from adjudicator.engine import (
    ContentError,
    GameModule,
    IllegalOrder,
    State,
    apply_checked,
    canonical_json,
    copy_json,
    get_game,
    state_hash,
)

from .chain import GENESIS, RECORD_FORMAT, WITHHELD, commitment, derive_seed, entry_hash, seed_commitment
from .rollback import DECLARED_RESULT, rollback_target

ENTRY_KEYS = {"index", "kind", "data", "prev", "state_hash", "hash"}
DOCUMENT_KEYS = {"format", "game", "rules_version", "seed_commitment", "server_seed", "entries"}
WITHHELD_KEYS = {"withheld", "seats", "commitments", "defaulted"}
REDACTED_HINT = ("this is the redacted export of a running game: sealed orders are withheld until the "
                 "game ends; download the export again after the end for a full replay")


class VerifyError(Exception):
    """The first problem found in a record; `index` is the bad entry (None: the document)."""

    def __init__(self, message: str, index: int | None = None) -> None:
        where = "record" if index is None else f"entry {index}"
        super().__init__(f"{where}: {message}")
        self.index = index
        self.reason = message


Progress = Callable[[int, int], None]  # (entries replayed, entries in all): for a progress bar
# the same checks as a generator that yields (entries replayed, entries in all) and returns the
# report: a caller without threads (the archive's verifier from file://) runs it a chunk at a time
Steps = Generator[tuple[int, int], None, "VerifyReport"]
T = TypeVar("T")


@dataclass
class VerifyReport:
    game: str
    entries: int
    replayed: bool  # False while the seed is still secret: only the chain could be checked
    finished: bool
    final_state_hash: str
    withheld: int = 0  # entries whose data a running game's export withholds (their hashes still link)
    rules_version: str = ""  # the rules version the record names (and a replay played it by)


def check_chain(entries: list[dict[str, Any]], withheld: frozenset[int] = frozenset()) -> None:
    """Every entry links to the previous one; an entry's hash must match its data unless the
    export withheld that data (then only its shape is checked)."""
    prev = GENESIS
    for position, entry in enumerate(entries):
        if not isinstance(entry, dict):
            raise VerifyError("is not an object", position)
        if set(entry) != ENTRY_KEYS:
            raise VerifyError(f"must have exactly the keys {', '.join(sorted(ENTRY_KEYS))}", position)
        if entry["index"] != position:
            raise VerifyError(f"has index {entry['index']!r}, expected {position}", position)
        if entry["prev"] != prev:
            raise VerifyError("does not link to the previous entry's hash", position)
        if position in withheld:
            data = entry["data"]
            if (entry["kind"] != "orders" or not isinstance(data, dict) or set(data) != WITHHELD_KEYS
                    or data["withheld"] != WITHHELD):
                raise VerifyError("is listed as withheld but is not a withheld orders entry", position)
        elif entry_hash(entry) != entry["hash"]:
            raise VerifyError("its hash does not match its contents", position)
        prev = entry["hash"]


def replay_record(doc: dict[str, Any], *, keep: bool = True) -> Iterator[tuple[dict[str, Any], State]]:
    """Yield (entry, state after it) for every entry, checking each state hash as it goes.

    `keep`: every yielded state is the caller's to keep. Without it (`verify_record`, which reads
    only the last one) each step is applied in place to the state yielded before, so a yielded
    state is valid only until the next one is asked for; no state is copied."""
    if doc.get("withheld"):
        raise VerifyError(f"cannot be replayed: {REDACTED_HINT}")
    entries = doc["entries"]
    setup = entries[0]
    if setup["kind"] != "setup":
        raise VerifyError("the first entry must be the setup", 0)
    data = setup["data"]
    try:
        game: GameModule = get_game(data["game"])
    except KeyError as exc:
        raise VerifyError(str(exc), 0) from None
    if data["rules_version"] not in (game.info.rules_version, *game.info.replays):
        raise VerifyError(
            f"was played under rules version {data['rules_version']}, this build has "
            f"{game.info.rules_version}",
            0,
        )
    server_seed = doc.get("server_seed")
    if server_seed is None:
        raise VerifyError("the seed is not revealed yet, so the game cannot be replayed")
    if seed_commitment(server_seed) != data["seed_commitment"]:
        raise VerifyError("the revealed seed does not match the published commitment", 0)
    try:
        game.info.add_content(data["options"], data.get("content") or {})
    except ContentError as exc:
        raise VerifyError(str(exc), 0) from None
    try:
        state = game.setup_version(data["rules_version"], derive_seed(server_seed, data["entropy"]),
                                   data["seats"], data["options"]).state
        game = game.for_rules(data["rules_version"])  # what plays that version on from the setup
    except (IllegalOrder, KeyError, TypeError, ValueError) as exc:
        raise VerifyError(f"does not set up: {exc}", 0) from None
    if state_hash(state) != setup["state_hash"]:
        raise VerifyError("the replayed setup state differs from the recorded one", 0)
    yield setup, state
    # an older rules version's records replay with its prompts, but this build knows only the
    # current version's default orders
    defaults_known = data["rules_version"] == game.info.rules_version
    targets = _rollback_targets(entries)
    returned_to = set(targets.values())
    # States a rollback returns to: copies, since later steps may be applied in place (`keep=False`).
    kept: dict[int, State] = {0: copy_json(state)} if 0 in returned_to else {}
    undone: set[int] = set()
    for entry in entries[1:]:
        index = entry["index"]
        to = targets.get(index)
        if to is not None:  # a rollback: replay goes on from the state after entry `to`
            if to in undone:
                raise VerifyError(f"rolls back to entry {to}, which an earlier rollback had undone", index)
            undone.update(range(to + 1, index))
            state = copy_json(kept[to])  # another rollback may return to the same state
        elif entry["kind"] == "orders":
            body = entry["data"]
            prompts = game.prompts(state)
            for seat in body.get("salts") or {}:
                prompt = prompts.get(seat)
                if prompt is None or not prompt.sealed:
                    raise VerifyError(f"has a salt for {seat}, who had no sealed prompt", index)
                if seat not in body["orders"]:
                    raise VerifyError(f"has a salt but no order for {seat}", index)
            check_defaulted(game, state, body, prompts, index, defaults_known)
            try:
                state = apply_checked(game, state, body["orders"], prompts, owned=not keep).state
            except (IllegalOrder, KeyError, TypeError, ValueError) as exc:
                raise VerifyError(f"does not replay: {exc}", index) from None
        elif entry["kind"] != "note":
            raise VerifyError(f"has unknown kind {entry['kind']!r}", index)
        if state_hash(state) != entry["state_hash"]:
            raise VerifyError("the replayed state differs from the recorded state hash", index)
        if index in returned_to:
            kept[index] = copy_json(state)
        yield entry, state


def check_defaulted(game: GameModule, state: State, body: dict[str, Any], prompts: dict[str, Any],
                    index: int, defaults_known: bool = True) -> None:
    """What the replay can tell of an orders entry's `defaulted` list, from the state before it:
    a sorted list of seats that gave an order here; the order of a seat the server defaulted at a
    deadline (no salt) is the game's default for that state; and in a sealed group whose orders
    carry salts (the server's sealed orders), a member without one was defaulted by the server.
    (A default a seat's civil disorder sealed earlier has a salt and may answer an earlier state;
    a seat that sent the default order itself is not defaulted: neither can be told apart here.
    `defaults_known`: False for a record of an older rules version, whose defaults this build
    does not hold.)"""
    defaulted = body.get("defaulted", [])
    orders, salts = body["orders"], body.get("salts") or {}
    if (not isinstance(defaulted, list) or not all(isinstance(seat, str) for seat in defaulted)
            or defaulted != sorted(set(defaulted))):
        raise VerifyError("its list of defaulted seats is not a sorted list of distinct seats", index)
    for seat in defaulted:
        if seat not in orders:
            raise VerifyError(f"lists {seat} as defaulted but has no order for {seat}", index)
        if seat in salts or not defaults_known:
            continue
        try:
            default = game.default_order(state, seat)
        except IllegalOrder:
            raise VerifyError(f"lists {seat} as defaulted, but {seat} had nothing to decide", index) from None
        if canonical_json(orders[seat]) != canonical_json(default):
            raise VerifyError(f"lists {seat} as defaulted, but {seat}'s order is not the game's default", index)
    if salts:
        for seat in orders:
            prompt = prompts.get(seat)
            if prompt is not None and prompt.sealed and seat not in salts and seat not in defaulted:
                raise VerifyError(f"has no salt for {seat}'s sealed order, yet does not list {seat} as "
                                  "defaulted", index)


def _rollback_targets(entries: list[dict[str, Any]]) -> dict[int, int]:
    """Rollback entry index -> the entry it returns to (adjudicator/record/rollback.py); a
    rollback's `undone` count, when given, must be the number of entries between the two."""
    targets: dict[int, int] = {}
    for entry in entries[1:]:
        try:
            to = rollback_target(entry)
        except ValueError as exc:
            raise VerifyError(str(exc), entry.get("index")) from None
        if to is not None:
            targets[entry["index"]] = to
            undone = entry["data"].get("undone", entry["index"] - to - 1)
            if undone != entry["index"] - to - 1 or isinstance(undone, bool):
                raise VerifyError(f"says it undid {undone!r} entries, but rolling back from entry {entry['index']} "
                                  f"to entry {to} undoes {entry['index'] - to - 1}", entry["index"])
    return targets


def sealed_receipts(entry: dict[str, Any]) -> dict[str, str]:
    """The receipt hash of each sealed order in an orders entry (a withheld entry shows them)."""
    body = entry["data"]
    if isinstance(body, dict) and body.get("withheld") == WITHHELD:
        return dict(body.get("commitments") or {})
    return {seat: commitment(body["orders"][seat], salt) for seat, salt in (body.get("salts") or {}).items()}


def verify_record(doc: Any, receipts: dict[int, dict[str, str]] | None = None,
                  progress: Progress | None = None) -> VerifyReport:
    """Check a whole exported record; raise VerifyError at the first problem.

    `receipts` optionally maps an entry index to the receipt hashes players were given; each must
    match the order and salt published in that entry. `progress` is told how far the replay got
    about a hundred times (the browser verifier's progress bar).
    """
    return run_steps(verify_record_steps(doc, receipts), progress)


def run_steps(steps: Generator[tuple[int, int], None, T], progress: Progress | None = None) -> T:
    """Run a generator of checks to its end, telling `progress` each step it yields."""
    while True:
        try:
            done, total = next(steps)
        except StopIteration as stop:
            return stop.value
        if progress is not None:
            progress(done, total)


def verify_record_steps(doc: Any, receipts: dict[int, dict[str, str]] | None = None) -> Steps:
    """`verify_record`, yielding its progress instead of calling a function with it."""
    if not isinstance(doc, dict) or doc.get("format") != RECORD_FORMAT:
        raise VerifyError(f"is not a {RECORD_FORMAT} document")
    if set(doc) - {"withheld"} != DOCUMENT_KEYS:
        raise VerifyError(f"must have exactly the keys {', '.join(sorted(DOCUMENT_KEYS))}")
    entries = doc.get("entries")
    if not isinstance(entries, list) or not entries:
        raise VerifyError("has no entries")
    withheld = doc.get("withheld", [])
    if "withheld" in doc:
        if (not isinstance(withheld, list) or not withheld
                or not all(isinstance(i, int) and 0 < i < len(entries) for i in withheld)):
            raise VerifyError("its list of withheld entries is malformed")
        if doc.get("server_seed") is not None:
            raise VerifyError(f"reveals the seed but withholds entries; {REDACTED_HINT}")
    check_chain(entries, frozenset(withheld))
    setup = entries[0]["data"]
    for key in ("game", "rules_version", "seed_commitment"):
        if doc.get(key) != setup.get(key):
            raise VerifyError(f"its header's {key} disagrees with its setup entry")
    for index, expected in (receipts or {}).items():
        if not 0 <= index < len(entries) or entries[index]["kind"] != "orders":
            raise VerifyError("has no orders entry for this receipt", index)
        got = sealed_receipts(entries[index])
        for seat, value in expected.items():
            if got.get(seat) != value:
                raise VerifyError(f"the receipt of {seat} does not match the published order", index)
    if doc.get("server_seed") is None:
        return VerifyReport(setup["game"], len(entries), False, False, entries[-1]["state_hash"], len(withheld),
                            setup["rules_version"])
    state: State = {}
    total = len(entries)
    every = max(1, total // 100)
    for entry, replayed in replay_record(doc, keep=False):
        state = replayed
        if entry["index"] % every == 0 or entry["index"] == total - 1:
            yield entry["index"] + 1, total
    game = get_game(setup["game"]).for_rules(setup["rules_version"])
    last = entries[-1]["data"]
    declared = entries[-1]["kind"] == "note" and isinstance(last, dict) and last.get("action") == DECLARED_RESULT
    finished = declared or not game.prompts(state)
    return VerifyReport(setup["game"], len(entries), True, finished, entries[-1]["state_hash"],
                        rules_version=setup["rules_version"])


def verify_bytes(raw: bytes, progress: Progress | None = None) -> VerifyReport:
    """Verify an export file as bytes. Exports are canonical JSON, so any changed byte shows:
    either the document no longer parses, or it is no longer canonical, or a hash breaks."""
    return run_steps(verify_bytes_steps(raw), progress)


def verify_bytes_steps(raw: bytes) -> Steps:
    """`verify_bytes`, yielding its progress (see `verify_record_steps`)."""
    body = raw[:-1] if raw.endswith(b"\n") else raw
    try:
        doc = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise VerifyError(f"is not valid UTF-8 JSON ({exc})") from None
    if canonical_json(doc) != body:
        raise VerifyError("is not in canonical form (it was edited after export)")
    return (yield from verify_record_steps(doc))


def verdict_line(report: VerifyReport) -> str:
    """One line a script can read: what was checked, and the final state hash."""
    if report.replayed:
        return f"record verified: {report.entries} entries, final state hash {report.final_state_hash}"
    waiting = f"the seed and {report.withheld} sealed entries" if report.withheld else "the seed"
    return (f"record verified so far: {report.entries} entries linked, final state hash "
            f"{report.final_state_hash}; the replay waits for the end of the game ({waiting} still secret)")


def failure_line(exc: VerifyError) -> str:
    where = "" if exc.index is None else f" at entry {exc.index}"
    return f"record FAILED{where}: {exc.reason}"


def export_bytes(doc: dict[str, Any]) -> bytes:
    """The bytes of an export file: canonical JSON plus a final newline."""
    return canonical_json(doc) + b"\n"
