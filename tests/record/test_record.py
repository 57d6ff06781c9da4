import json

import pytest

from adjudicator.engine import canonical_json, sha256_hex
from adjudicator.record import (
    RecordBuilder,
    VerifyError,
    commitment,
    export_bytes,
    replay_record,
    verify_bytes,
    verify_record,
)
from adjudicator.record.verify import sealed_receipts


def finished_toy_record(toy, seed="s1") -> RecordBuilder:
    record = RecordBuilder(toy, ["p1", "p2"], {"rounds": 1}, server_seed=seed, entropy=["a", "b"])
    salts = {"p1": "salt1", "p2": "salt2"}
    record.apply({"p1": {"bid": 3}, "p2": {"bid": 1}}, salts=salts)
    while toy.prompts(record.state):
        seat = sorted(toy.prompts(record.state))[0]
        record.apply({seat: toy.default_order(record.state, seat)})
    return record


def test_finished_record_verifies_and_replays(toy):
    record = finished_toy_record(toy)
    report = verify_record(record.export())
    assert report.replayed and report.finished
    assert report.entries == len(record.entries)


def test_the_seed_is_hidden_while_running_and_chain_still_checks(toy):
    record = RecordBuilder(toy, ["p1", "p2"], {}, server_seed="hidden")
    doc = record.export()
    assert doc["server_seed"] is None
    assert not verify_record(doc).replayed


def test_a_wrong_revealed_seed_is_refused(toy):
    doc = finished_toy_record(toy).export()
    doc["server_seed"] = "another"
    with pytest.raises(VerifyError, match="commitment"):
        verify_record(doc)


def test_players_entropy_changes_the_seed(toy):
    a = RecordBuilder(toy, ["p1", "p2"], {}, server_seed="same", entropy=["x"])
    b = RecordBuilder(toy, ["p1", "p2"], {}, server_seed="same", entropy=["y"])
    assert a.state["secret"] != b.state["secret"]


def test_edited_order_breaks_the_chain(toy):
    doc = finished_toy_record(toy).export()
    doc["entries"][1]["data"]["orders"]["p1"] = {"bid": 2}
    with pytest.raises(VerifyError, match="entry 1"):
        verify_record(doc)


def test_rehashed_forgery_is_caught_by_replay(toy):
    # A forger who recomputes every hash after editing an order still fails on the state hashes.
    from adjudicator.record.chain import entry_hash

    doc = finished_toy_record(toy).export()
    doc["entries"][1]["data"]["orders"]["p1"] = {"bid": 2}
    prev = doc["entries"][0]["hash"]
    for entry in doc["entries"][1:]:
        entry["prev"] = prev
        entry["hash"] = entry_hash(entry)
        prev = entry["hash"]
    with pytest.raises(VerifyError, match="state"):
        verify_record(doc)


def test_receipts_given_at_submission_match_the_published_orders(toy):
    record = finished_toy_record(toy)
    doc = record.export()
    given = {"p1": commitment({"bid": 3}, "salt1"), "p2": commitment({"bid": 1}, "salt2")}
    assert sealed_receipts(doc["entries"][1]) == given
    verify_record(doc, receipts={1: given})
    with pytest.raises(VerifyError, match="receipt of p1"):
        verify_record(doc, receipts={1: {"p1": commitment({"bid": 2}, "salt1")}})


def test_every_single_byte_change_fails(toy):
    raw = export_bytes(finished_toy_record(toy).export())
    assert verify_bytes(raw).replayed
    for position in range(len(raw)):
        changed = bytearray(raw)
        changed[position] ^= 0x01
        with pytest.raises(VerifyError):
            verify_bytes(bytes(changed))


def test_non_canonical_and_extra_keys_are_refused(toy):
    doc = finished_toy_record(toy).export()
    with pytest.raises(VerifyError, match="canonical"):
        verify_bytes(json.dumps(doc, indent=1).encode())
    doc["extra"] = 1
    with pytest.raises(VerifyError, match="exactly the keys"):
        verify_bytes(canonical_json(doc))


def test_replayed_states_are_kept_and_an_unkept_replay_reaches_the_same_states(toy):
    doc = finished_toy_record(toy).export()
    kept = list(replay_record(doc))
    assert len({id(state) for _entry, state in kept}) == len(kept)  # each step a state of its own
    assert [sha256_hex(state) for _entry, state in kept] == [entry["state_hash"] for entry in doc["entries"]]
    unkept = [(entry["index"], sha256_hex(state)) for entry, state in replay_record(doc, keep=False)]
    assert unkept == [(entry["index"], entry["state_hash"]) for entry in doc["entries"]]
