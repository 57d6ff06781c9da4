"""A running game's public export holds commitments, not contents: a Doge seat's placed ballot
markers stay secret until the game ends (or the moderator reads the complete record, which the
log then shows)."""

from __future__ import annotations

import json

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.cli.verify import main as verify_main
from adjudicator.record import VerifyError, export_bytes, replay_record, verify_bytes, verify_record
from adjudicator.store import OutboxMessage
from tests.support.play import PlayedGame, new_game

pytest.importorskip("adjudicator.games.doge")


RECEIPTS: dict[str, str] = {}


def _placed(tg: PlayedGame) -> dict[str, str]:
    """Every seat places its most markers on a card; returns seat -> order text (and keeps each
    seat's receipt hash in RECEIPTS)."""
    placed: dict[str, str] = {}
    for seat in sorted(tg.tokens):
        page = tg.page(seat)
        assert page.prompt is not None and page.prompt["kind"] == "placement"
        text = max(page.choices, key=lambda c: (len(c.split()), c))  # e.g. "place X 4 3 2 1"
        sub = tg.submit(seat, text)
        assert sub.error is None, sub.error
        placed[seat] = text
        RECEIPTS[seat] = sub.receipts[0].commitment
    assert tg.page(sorted(tg.tokens)[0]).receipt is None, "the last placement completed and revealed the group"
    return placed


def _full(tg: PlayedGame) -> dict:
    with store.transaction() as s:
        return service.full_record(s, tg.game_id, tg.admin_token)


def test_running_doge_export_withholds_marker_values(sqlite_db, tmp_path, capsys) -> None:
    tg = new_game("doge", seats=3)
    placed = _placed(tg)
    doc = tg.export()
    raw = json.dumps(doc)
    assert '"markers"' not in raw and '"salts": {"' not in raw
    withheld = doc["withheld"]
    assert withheld, "the placement round is withheld"
    entry = doc["entries"][withheld[0]]
    assert entry["data"]["seats"] == sorted(tg.tokens)
    assert set(entry["data"]["commitments"]) == set(tg.tokens) and entry["data"]["defaulted"] == []
    # players can still check their receipts against the redacted export
    assert entry["data"]["commitments"] == {seat: RECEIPTS[seat] for seat in tg.tokens}
    report = verify_record(doc, receipts={withheld[0]: dict(RECEIPTS)})
    assert not report.replayed and report.withheld == len(withheld)
    with pytest.raises(VerifyError):
        verify_record(doc, receipts={withheld[0]: {seat: "0" * 64 for seat in tg.tokens}})
    with pytest.raises(VerifyError, match="redacted export of a running game"):
        list(replay_record(doc))
    # `pbem verify` explains instead of failing
    path = tmp_path / "running.json"
    path.write_bytes(export_bytes(doc))
    assert verify_main([str(path)]) == 0
    assert "redacted export of a running game" in capsys.readouterr().out
    # a tampered withheld entry is still caught by the chain
    bad = json.loads(json.dumps(doc))
    bad["entries"][withheld[0]]["prev"] = "f" * 64
    with pytest.raises(VerifyError):
        verify_bytes(export_bytes(bad))

    # the other outputs were clean already; keep them so: the order texts appear nowhere public
    # nor on another seat's page, nor in mails to other seats
    pub = tg.public()
    with store.transaction(write=False) as s:
        feed = service.public_feed(s, tg.game_id)
        mails = s.exec(select(OutboxMessage)).all()
    public_text = json.dumps(pub.view) + pub.markdown + " ".join(line.markdown for line in pub.log)
    public_text += " ".join(line.markdown for e in feed.entries for line in e.lines)
    for seat, text in placed.items():
        assert text not in public_text
        for other in tg.tokens:
            if other == seat:
                continue
            page = tg.page(other)
            assert text not in page.markdown + " ".join(line.markdown for line in page.log)
            assert not any(text in (m.body or "") for m in mails if m.seat == other)


def test_moderator_reads_the_full_record_with_a_visible_note(sqlite_db) -> None:
    tg = new_game("doge", seats=3)
    placed = _placed(tg)
    before = tg.public().record_length
    with pytest.raises(service.Forbidden):
        with store.transaction() as s:
            service.full_record(s, tg.game_id, "wrong")
    full = _full(tg)
    assert "withheld" not in full and full["server_seed"] is None
    orders = [e["data"]["orders"] for e in full["entries"] if e["kind"] == "orders" and e["data"]["salts"]]
    assert orders and all("markers" in o for batch in orders for o in batch.values())
    verify_record(full)  # the full record's chain checks
    pub = tg.public()
    assert pub.record_length == before + 1, "the read is written to the record"
    assert any("full record export" in line.markdown for line in pub.log), "and shown in the public log"
    assert len(placed) == 3


def test_redaction_copies_and_a_revealed_seed_cannot_withhold() -> None:
    from adjudicator.engine import get_game
    from adjudicator.record import RecordBuilder
    from adjudicator.record.chain import redact_entries

    game = get_game("doge")
    rb = RecordBuilder(game, game.seat_names(3, {}), {}, "seed")
    prompts = game.prompts(rb.state)
    rb.apply({s: p.choices[0] for s, p in prompts.items()}, salts={s: "salt" for s in prompts})
    redacted, withheld = redact_entries(rb.entries)
    assert withheld == [1] and "orders" not in redacted[1]["data"]
    assert "orders" in rb.entries[1]["data"], "redaction copies, it never edits the record"
    # a finished export (seed revealed) that withholds is refused as inconsistent
    doc = rb.export(reveal_seed=True)
    assert verify_record(doc).replayed
    doc = {**doc, "entries": redacted, "withheld": withheld}
    with pytest.raises(VerifyError, match="withholds"):
        verify_record(doc)
