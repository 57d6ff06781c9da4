"""`pbem verify` checks every field of an entry the replay can derive (issue 26): a rollback note's
`undone` count, and an orders entry's `defaulted` list. A record with either changed, and its chain
hashed again as a forger would, fails at that entry with the reason; records made before the
check still verify (the toy fixture was exported by the service before it, the others before too)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.record import (
    RecordBuilder,
    VerifyError,
    export_bytes,
    verify_bytes,
    verify_record,
)
from tests.record.test_rollback_records import _rehash as rehash

FIXTURES = Path(__file__).parent / "fixtures"
# A toy game through the service: round 1 (entries 1-2), p2's round-2 bid, a rollback to entry 1
# (entry 3, "undone": 1), then p1 sealed a bid and p2 missed the deadline (entry 5: p2 defaulted,
# its order the default bid 0 without a salt), played out.
TOY = "toy-rollback-defaulted.json"


def _doc(name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / name).read_bytes())


def _forged(doc: dict[str, Any], index: int, **changes: Any) -> dict[str, Any]:
    """`doc` with entry `index`'s data changed and the chain hashed again from there."""
    doc["entries"][index]["data"].update(changes)
    rehash(doc, index)
    return doc


def _refusal(doc: dict[str, Any]) -> str:
    with pytest.raises(VerifyError) as refused:
        verify_bytes(export_bytes(doc))
    return str(refused.value)


@pytest.mark.parametrize("name", sorted(p.name for p in FIXTURES.glob("*.json")))
def test_records_made_before_still_verify(toy, name: str) -> None:
    report = verify_bytes((FIXTURES / name).read_bytes())
    assert report.replayed and report.finished


def test_the_toy_fixture_holds_what_the_tests_change(toy) -> None:
    entries = _doc(TOY)["entries"]
    assert entries[3]["data"]["action"] == "rollback" and entries[3]["data"]["undone"] == 1
    assert entries[5]["data"]["defaulted"] == ["p2"] and "p2" not in entries[5]["data"]["salts"]
    assert entries[5]["data"]["orders"]["p2"] == {"bid": 0} and "p1" in entries[5]["data"]["salts"]


@pytest.mark.parametrize("undone", [0, 2, "1", True])
def test_a_changed_undone_count_fails(toy, undone: Any) -> None:
    assert _refusal(_forged(_doc(TOY), 3, undone=undone)) == (
        f"entry 3: says it undid {undone!r} entries, but rolling back from entry 3 to entry 1 undoes 1")


def test_a_seat_taken_off_the_defaulted_list_fails(toy) -> None:
    assert _refusal(_forged(_doc(TOY), 5, defaulted=[])) == (
        "entry 5: has no salt for p2's sealed order, yet does not list p2 as defaulted")


def test_a_seat_put_on_the_defaulted_list_whose_order_is_not_the_default_fails(toy) -> None:
    record = RecordBuilder(toy, ["p1", "p2"], {"rounds": 1}, server_seed="d", entropy=["x"])
    record.apply({"p1": {"bid": 3}, "p2": {"bid": 1}}, salts={"p1": "a", "p2": "b"})
    record.apply({"p1": {"choice": "double"}})  # the toy's default is keep
    doc = record.export()
    assert verify_record(doc).finished
    assert _refusal(_forged(doc, 2, defaulted=["p1"])) == (
        "entry 2: lists p1 as defaulted, but p1's order is not the game's default")
    # the same seat keeping is the default: the list may name it
    record = RecordBuilder(toy, ["p1", "p2"], {"rounds": 1}, server_seed="d", entropy=["x"])
    record.apply({"p1": {"bid": 3}, "p2": {"bid": 1}}, salts={"p1": "a", "p2": "b"})
    record.apply({"p1": {"choice": "keep"}}, defaulted=["p1"])
    assert verify_record(record.export()).finished


@pytest.mark.parametrize(("defaulted", "reason"), [
    (["p2", "p2"], "its list of defaulted seats is not a sorted list of distinct seats"),
    ("p2", "its list of defaulted seats is not a sorted list of distinct seats"),
    (["p2", "p3"], "lists p3 as defaulted but has no order for p3"),
])
def test_a_malformed_defaulted_list_fails(toy, defaulted: Any, reason: str) -> None:
    assert _refusal(_forged(_doc(TOY), 5, defaulted=defaulted)) == f"entry 5: {reason}"


def test_the_unchanged_fixture_verifies_in_memory_too(toy) -> None:
    assert verify_record(_doc(TOY)).finished
