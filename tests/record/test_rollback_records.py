"""Records with rollback entries (adjudicator/record/rollback.py): replay goes on from the state
the rollback returns to, and every entry, undone ones included, is still checked."""

from __future__ import annotations

import copy

import pytest

from adjudicator.engine import defaults_for
from adjudicator.record import RecordBuilder, VerifyError, entry_hash, undone_indices, verify_record


def _rolled_back(toy) -> RecordBuilder:
    """Round 1 (entry 1 bids, entry 2 choice), a rollback to 1 (entry 3), a new choice, then the
    game played out by defaults."""
    record = RecordBuilder(toy, ["p1", "p2"], {"rounds": 2}, server_seed="rb", entropy=["x"])
    record.apply({"p1": {"bid": 3}, "p2": {"bid": 1}}, salts={"p1": "a", "p2": "b"})
    after_bids = copy.deepcopy(record.state)
    record.apply({"p1": {"choice": "keep"}})
    record.state = after_bids
    record.note("rollback", to=1, reason="test")
    record.apply({"p1": {"choice": "double"}})
    while toy.prompts(record.state):
        record.apply(defaults_for(toy, record.state))
    return record


def _rehash(doc: dict, start: int) -> None:
    """Re-chain the entries from `start` on, as a forger editing a record would."""
    for i in range(start, len(doc["entries"])):
        entry = doc["entries"][i]
        entry["prev"] = doc["entries"][i - 1]["hash"]
        entry["hash"] = entry_hash(entry)


def test_a_rolled_back_record_replays_from_the_restored_state(toy):
    doc = _rolled_back(toy).export()
    assert undone_indices(doc["entries"]) == {2}
    report = verify_record(doc)
    assert report.replayed and report.finished and report.entries == len(doc["entries"])


def test_a_rollback_claiming_another_state_fails(toy):
    doc = _rolled_back(toy).export()
    doc["entries"][3]["state_hash"] = doc["entries"][2]["state_hash"]  # "nothing was undone"
    _rehash(doc, 3)
    with pytest.raises(VerifyError, match="entry 3: the replayed state differs"):
        verify_record(doc)


def test_a_rollback_to_a_later_or_undone_entry_fails(toy):
    doc = _rolled_back(toy).export()
    doc["entries"][3]["data"]["to"] = 3
    _rehash(doc, 3)
    with pytest.raises(VerifyError, match="entry 3: rolls back to 3, which is not an earlier entry"):
        verify_record(doc)
    record = _rolled_back(toy)
    record.note("rollback", to=2)  # entry 2 was undone by the first rollback
    with pytest.raises(VerifyError, match="rolls back to entry 2, which an earlier rollback had undone"):
        verify_record(record.export())


def test_a_tampered_undone_entry_fails_even_when_rechained(toy):
    doc = _rolled_back(toy).export()
    doc["entries"][2]["data"]["orders"] = {"p1": {"choice": "double"}}
    with pytest.raises(VerifyError, match="entry 2: its hash does not match"):
        verify_record(doc)
    _rehash(doc, 2)  # the chain is consistent again, but the undone entry no longer replays to its hash
    with pytest.raises(VerifyError, match="entry 2: the replayed state differs"):
        verify_record(doc)
