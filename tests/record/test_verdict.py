"""The browser verifier's verdicts (adjudicator/record/verdict.py): the line a script reads, and
where a player's kept receipt line is found in a record."""

from __future__ import annotations

import json
from pathlib import Path

from adjudicator.engine import get_game
from adjudicator.record import export_bytes
from adjudicator.record.chain import commitment, entry_hash, export_document, redact_entries
from adjudicator.record.verdict import check_export, check_export_steps, find_receipt, receipt_line

RAW = (Path(__file__).resolve().parent / "fixtures" / "doge-rules-2.json").read_bytes()
DOC = json.loads(RAW)
SEALED = next(e for e in DOC["entries"] if e["kind"] == "orders" and e["data"].get("salts"))
SEAT = sorted(SEALED["data"]["salts"])[0]
KEPT = commitment(SEALED["data"]["orders"][SEAT], SEALED["data"]["salts"][SEAT])


def test_a_complete_record_gives_the_verified_line():
    result = check_export(RAW)
    assert result["ok"] and result["replayed"] and result["finished"]
    assert result["line"] == f"record verified: 129 entries, final state hash {DOC['entries'][-1]['state_hash']}"


def test_a_failure_names_the_entry_and_the_reason():
    doc = json.loads(RAW)
    doc["entries"][7]["data"] = {"changed": 1}
    result = check_export(export_bytes(doc))
    assert result == {"ok": False, "index": 7, "line": "record FAILED at entry 7: its hash does not match its contents"}
    assert check_export(b"{}")["line"] == "record FAILED: is not a pbem-record/1 document"
    assert check_export(b"\xff")["line"].startswith("record FAILED: is not valid UTF-8 JSON")


def _run(steps):
    """Every (done, total) a generator of checks yields, and what it returns."""
    seen = []
    while True:
        try:
            seen.append(next(steps))
        except StopIteration as stop:
            return seen, stop.value


def test_the_step_by_step_check_gives_the_same_verdict_with_its_progress():
    """The archive's verifier from file:// runs the check a chunk at a time (no worker there)."""
    seen, result = _run(check_export_steps(RAW))
    told = []
    assert result == check_export(RAW, lambda done, total: told.append((done, total)))
    assert seen == told and seen[-1] == (129, 129) and len(seen) > 50
    assert [done for done, _ in seen] == sorted({done for done, _ in seen})
    doc = json.loads(RAW)
    doc["entries"][90]["state_hash"] = "0" * 64  # relinked, so only the replay sees it
    for later in doc["entries"][90:]:
        later["prev"] = doc["entries"][later["index"] - 1]["hash"]
        later["hash"] = entry_hash(later)
    seen, result = _run(check_export_steps(export_bytes(doc)))
    assert result["index"] == 90 and result["line"].startswith("record FAILED at entry 90: the replayed state")
    assert seen[-1][0] <= 90 and seen[-1][1] == 129  # entries 0 to 89 replayed, at most


def test_a_redacted_record_says_what_waits_for_the_end():
    entries, withheld = redact_entries(DOC["entries"][:SEALED["index"] + 1])
    body = export_bytes(export_document(get_game("doge"), entries, None, withheld))
    result = check_export(body)
    assert result["ok"] and not result["replayed"] and result["withheld"] == len(withheld)
    assert result["line"] == (f"record verified so far: {SEALED['index'] + 1} entries linked, final state hash "
                              f"{SEALED['state_hash']}; the replay waits for the end of the game (the seed and "
                              f"{len(withheld)} sealed entries still secret)")
    # the receipt is already there, as a commitment, while the order is sealed
    assert find_receipt(body, receipt_line("g1", SEAT, KEPT)) == {
        "found": True, "kind": "sealed", "entry": SEALED["index"], "seat": SEAT, "order": None}


def test_a_kept_receipt_is_found_revealed_as_sent():
    assert find_receipt(RAW, "  " + receipt_line("g1", SEAT, KEPT) + "\n") == {
        "found": True, "kind": "revealed", "entry": SEALED["index"], "seat": SEAT,
        "order": SEALED["data"]["orders"][SEAT]}


def test_a_receipt_that_matches_no_order_says_where_that_seats_orders_are():
    found = find_receipt(RAW, receipt_line("g1", SEAT, "0" * 64))
    assert found["found"] is False and found["kind"] == "missing" and found["seat"] == SEAT
    assert SEALED["index"] in found["seat_entries"]
    assert all(DOC["entries"][i]["data"].get("salts", {}).get(SEAT) for i in found["seat_entries"])
    assert find_receipt(RAW, "my receipt is abc")["kind"] == "unreadable"


def test_the_step_by_step_replay_shows_each_entry_and_the_public_board_after_it():
    from adjudicator.record import replay_record
    from adjudicator.record.verdict import step_view

    game = get_game("doge").for_rules("2")
    states = {entry["index"]: (entry, game.view(state, None)) for entry, state in replay_record(DOC)}
    entry, view = states[SEALED["index"]]
    shown = step_view(RAW, SEALED["index"])
    assert shown == {"ok": True, "index": SEALED["index"], "total": 129, "kind": "orders",
                     "state_hash": SEALED["state_hash"], "board": game.render_view(view, None),
                     "orders": {seat: game.format_order(o) for seat, o in sorted(SEALED["data"]["orders"].items())}}
    assert step_view(RAW, 0)["kind"] == "setup" and step_view(RAW, 0)["orders"] == {}
    assert step_view(RAW, 0)["board"] != shown["board"]
    assert step_view(RAW, 129) == {"ok": False, "line": "record has no entry 129"}


def test_an_order_changed_with_the_chain_rehashed_fails_at_its_entry_in_the_replay():
    """A forger who also recomputes every hash after changing an order is caught by the replay."""
    from adjudicator.record import entry_hash

    doc = json.loads(RAW)
    entry = doc["entries"][SEALED["index"]]
    entry["data"]["orders"] = {seat: entry["data"]["orders"][s] for seat, s in
                               zip(sorted(entry["data"]["orders"]), sorted(entry["data"]["orders"])[::-1], strict=True)}
    assert entry["data"]["orders"] != SEALED["data"]["orders"]  # the seats' bids swapped
    prev = doc["entries"][SEALED["index"] - 1]["hash"]
    for later in doc["entries"][SEALED["index"]:]:
        later["prev"] = prev
        later["hash"] = prev = entry_hash(later)
    result = check_export(export_bytes(doc))
    assert result["ok"] is False and result["index"] == SEALED["index"]
    assert result["line"].startswith(f"record FAILED at entry {SEALED['index']}: ")
