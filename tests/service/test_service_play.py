"""A whole toy game through the service; sealed receipts; tokens; multi-line submissions."""

from __future__ import annotations

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.record import verify_bytes, verify_record
from adjudicator.record.verify import export_bytes
from adjudicator.service import BadOrder, Conflict, Forbidden, NotYourTurn, StaleOrder
from adjudicator.store import OutboxMessage, SealedOrder
from tests.support.play import PlayedGame, new_game


def bid_round(tg: PlayedGame, bids: dict[str, int]) -> dict[str, str]:
    """Every seat seals a bid; returns the receipts. The last order completes the group, which is
    revealed at once in the same transaction."""
    receipts: dict[str, str] = {}
    for i, (seat, bid) in enumerate(bids.items()):
        before = tg.public().record_length
        sub = tg.submit(seat, f"bid {bid}")
        assert sub.error is None and sub.applied == [f"bid {bid}"]
        receipts[seat] = sub.receipts[0].commitment
        revealed = tg.public().record_length > before
        assert revealed == (i == len(bids) - 1), "only the last sealed order completes the group"
    return receipts


def test_full_game_and_verified_export(db, toy) -> None:
    tg = new_game(seats=3)
    assert tg.public().status == "running"
    all_receipts = {}
    for _round in (1, 2, 3):
        before = tg.public().record_length
        all_receipts[before] = bid_round(tg, {"p1": 3, "p2": 1, "p3": 1})  # p1 wins each round
        page = tg.page("p1")
        assert page.prompt is not None and page.prompt["kind"] == "choose"
        assert tg.public().waiting == ["p1"]
        sub = tg.submit("p1", "keep")
        assert sub.applied == ["keep"] and sub.error is None
    pub = tg.public()
    assert pub.status == "finished"
    assert pub.outcome is not None and pub.outcome["winners"] == ["p1"]
    assert pub.server_seed is not None
    doc = tg.export()
    assert doc["server_seed"] == pub.server_seed
    assert "withheld" not in doc, "once the game is over the public export is complete"
    assert doc["entries"][1]["data"]["orders"] == {"p1": {"bid": 3}, "p2": {"bid": 1}, "p3": {"bid": 1}}
    report = verify_record(doc, receipts=all_receipts)
    assert report.replayed and report.finished and report.entries == 1 + 3 * 2
    verify_bytes(export_bytes(doc))
    # the log shows the reveal publicly and each seat's own bid privately
    public_kinds = [line.kind for line in pub.log]
    assert "bids" in public_kinds and "own-bid" not in public_kinds
    assert any(line.kind == "own-bid" for line in tg.page("p2").log)
    with store.transaction(write=False) as s:
        mails = s.exec(select(OutboxMessage)).all()
    subjects = " ".join(m.subject for m in mails)
    assert "has started" in subjects and "game over" in subjects and "your move" in subjects
    with store.transaction(write=False) as s:
        assert not s.exec(select(SealedOrder)).all(), "revealed orders leave the sealed table"


def test_seed_secret_until_the_end(db, toy) -> None:
    tg = new_game(seats=2)
    pub = tg.public()
    assert pub.server_seed is None and len(pub.seed_commitment) == 64
    doc = tg.export()
    assert doc["server_seed"] is None
    assert not verify_record(doc).replayed


def test_sealed_order_replaced_before_reveal(db, toy) -> None:
    tg = new_game(seats=2)
    first = tg.submit("p1", "bid 1").receipts[0]
    again = tg.submit("p1", "bid 1").receipts[0]
    assert again.commitment == first.commitment, "the same order again keeps its receipt"
    second = tg.submit("p1", "bid 3").receipts[0]
    assert second.commitment != first.commitment
    assert tg.page("p1").receipt.commitment == second.commitment
    pub = tg.public()
    assert pub.commitments == {"p1": second.commitment} and pub.waiting == ["p2"]
    assert pub.sealed_group == "round-1"
    sub = tg.submit("p2", "bid 2")  # completes the group: revealed at once
    assert tg.reveal("round-1") == [], "a reveal task for a revealed group is a no-op"
    assert "orders" not in tg.export()["entries"][1]["data"], "withheld while the game runs"
    with store.transaction() as s:
        doc = service.full_record(s, tg.game_id, tg.admin_token)
    orders = doc["entries"][1]["data"]["orders"]
    assert orders == {"p1": {"bid": 3}, "p2": {"bid": 2}}
    verify_record(doc, receipts={1: {"p1": second.commitment, "p2": sub.receipts[0].commitment}})
    from adjudicator.record import VerifyError

    with pytest.raises(VerifyError):
        verify_record(doc, receipts={1: {"p1": first.commitment}})


def test_stale_and_duplicate_submissions(db, toy) -> None:
    tg = new_game(seats=2)
    tg.submit("p1", "bid 3")
    tg.submit("p2", "bid 0")
    tg.reveal("round-1")
    with pytest.raises(NotYourTurn):  # only the round's winner decides now
        tg.submit("p2", "keep", token=None)
    token = tg.prompt_token("p1")
    assert tg.submit("p1", "double", token=token).applied == ["double"]
    length = tg.public().record_length
    with pytest.raises(StaleOrder):  # the same form posted twice
        tg.submit("p1", "double", token=token)
    sub = tg.submit("p1", "keep", token=None)  # no token (e-mail): checked against the bid prompt
    assert sub.applied == [] and "bid" in (sub.error or "")
    assert tg.public().record_length == length
    # a token from round 1's bidding is stale in round 2
    with pytest.raises(StaleOrder):
        tg.submit("p2", "bid 1", token="0" * 32)


def test_wrong_seat_token_refused(db, toy) -> None:
    tg = new_game(seats=2)
    with store.transaction() as s, pytest.raises(Forbidden):
        service.submit(s, tg.game_id, "p1", tg.tokens["p2"], "bid 1", None)
    with store.transaction() as s, pytest.raises(Forbidden):
        service.seat_state(s, tg.game_id, "p1", "nonsense")
    assert tg.public().commitments == {}


def test_multiline_stops_at_first_bad_line(db, toy) -> None:
    tg = new_game(seats=2, options={"rounds": 2})
    tg.submit("p2", "bid 0")
    sub = tg.submit("p1", "// my orders\n\nbid 2  // sealed\n")
    tg.reveal("round-1")
    # p1 chooses, then round 2 is sealed: `keep` applies, `bid 9` fails, `bid 1` is not reached
    sub = tg.submit("p1", "keep\nbid 9\nbid 1")
    assert sub.applied == ["keep"]
    assert sub.error is not None and "bid 9" in sub.error
    assert sub.choices == ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert tg.public().commitments == {}
    assert tg.page("p1").prompt["kind"] == "bid"
    with pytest.raises(BadOrder):
        tg.submit("p1", "// only a comment")
    # a JSON order from a web form
    with store.transaction() as s:
        page = service.seat_state(s, tg.game_id, "p1", tg.tokens["p1"])
        sub = service.submit_order(s, tg.game_id, "p1", tg.tokens["p1"], {"bid": 2}, page.prompt_token)
    assert sub.applied == ["bid 2"] and len(sub.receipts) == 1
    with store.transaction() as s:
        sub = service.submit_order(s, tg.game_id, "p1", tg.tokens["p1"], {"bid": 7}, None)
    assert sub.error and sub.applied == []


def test_join_and_start_rules(db, toy) -> None:
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2)
    with store.transaction() as s, pytest.raises(Forbidden):
        service.join_game(s, created.game_id, "p1", "wrong", "Ann")
    with store.transaction() as s:
        joined = service.join_game(s, created.game_id, "p1", created.invites["p1"], "Ann")
    assert not joined.started
    with store.transaction() as s, pytest.raises(Forbidden):  # invitations are single use
        service.join_game(s, created.game_id, "p1", created.invites["p1"], "Eve")
    with store.transaction() as s, pytest.raises(Conflict):
        service.start_game(s, created.game_id, created.admin_token)
    with store.transaction() as s, pytest.raises(Conflict):
        service.submit(s, created.game_id, "p1", joined.seat_token, "bid 1", None)
    with store.transaction() as s:
        assert service.join_game(s, created.game_id, "p2", created.invites["p2"], "Bob").started
    with store.transaction() as s:
        summaries = service.list_games(s)
    assert [(g.game_id, g.status, g.joined) for g in summaries] == [(created.game_id, "running", 2)]
    with store.transaction() as s, pytest.raises(service.NotFound):
        service.create_game(s, game="nonesuch")
    with store.transaction() as s, pytest.raises(service.ServiceError):
        service.create_game(s, game="toy", seats=9)


def test_check_invite_and_admin_page(db, toy) -> None:
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, title="Friday")
    with store.transaction(write=False) as s:
        assert service.check_invite(s, created.game_id, "p1", created.invites["p1"])["title"] == "Friday"
        with pytest.raises(Forbidden):
            service.check_invite(s, created.game_id, "p1", created.invites["p2"])
        assert service.admin_page(s, created.game_id, created.admin_token).status == "pending"
        with pytest.raises(Forbidden):
            service.admin_page(s, created.game_id, "x")


def test_a_choice_label_copied_into_the_command_box_reads_as_its_order() -> None:
    from adjudicator.service import order_lines

    assert order_lines("play 20 cp — #20 Nixon Egged (2 CP)  // mine\n\n  keep ") == ["play 20 cp", "keep"]
