"""Deadlines, reminders and moderation, with an explicit clock."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.record import verify_record
from adjudicator.service import Conflict, DeadlinePolicy, Forbidden
from adjudicator.store import ModeratorAction, OutboxMessage
from tests.support.play import new_game

HOUR = 3600


def sweep(now) -> list:
    with store.transaction() as s:
        return service.sweep_deadlines(s, now)


def reminders(game_id: str) -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        rows = s.exec(select(OutboxMessage)).all()
    return [m for m in rows if "reminder" in m.subject and m.headers.get("X-PBEM-Game") == game_id]


def test_expiry_defaults_missing_sealed_orders_and_is_idempotent(db, toy) -> None:
    tg = new_game(seats=3, policy=DeadlinePolicy(step_seconds=10 * HOUR, reminder_seconds=2 * HOUR))
    due = tg.public().deadline
    assert due is not None
    tg.submit("p1", "bid 2")
    sweep(due - timedelta(minutes=1))  # only reminders
    assert tg.public().record_length == 1
    tasks = sweep(due + timedelta(seconds=1))
    assert tasks, "mails for the new turn"
    assert sweep(due + timedelta(seconds=1)) == [], "a second run finds nothing to do"
    assert tg.export()["withheld"] == [1], "a sealed group is withheld while the game runs"
    doc = tg.full_export()
    assert len(doc["entries"]) == 3, "setup, the group, the note of the moderator's read"
    data = doc["entries"][1]["data"]
    assert data["defaulted"] == ["p2", "p3"]
    assert data["orders"] == {"p1": {"bid": 2}, "p2": {"bid": 0}, "p3": {"bid": 0}}
    assert set(data["salts"]) == {"p1"}
    assert any(line.kind == "defaulted" for line in tg.public().log)
    # the next deadline runs from the sweep's time
    assert tg.public().deadline == due + timedelta(seconds=1) + timedelta(hours=10)
    # p1 won and must choose: an open prompt is defaulted to keep
    new_due = tg.public().deadline
    sweep(new_due)
    assert tg.full_export()["entries"][3]["data"] == {"orders": {"p1": {"choice": "keep"}}, "defaulted": ["p1"],
                                                 "salts": {}}


def test_reminder_sent_once_and_only_to_waiting_seats(db, toy) -> None:
    tg = new_game(seats=3, policy=DeadlinePolicy(step_seconds=10 * HOUR, reminder_seconds=2 * HOUR))
    due = tg.public().deadline
    tg.submit("p1", "bid 1")
    sweep(due - timedelta(hours=3))
    assert reminders(tg.game_id) == []
    sweep(due - timedelta(hours=1))
    sweep(due - timedelta(minutes=30))
    assert sorted(m.to for m in reminders(tg.game_id)) == ["p2@example.org", "p3@example.org"]
    assert "Your orders are due by" in reminders(tg.game_id)[0].body


def test_grace_period(db, toy) -> None:
    tg = new_game(seats=2, policy=DeadlinePolicy(step_seconds=HOUR, reminder_seconds=0, grace_minutes=30))
    due = tg.public().deadline
    sweep(due + timedelta(minutes=29))
    assert tg.public().record_length == 1
    sweep(due + timedelta(minutes=31))
    assert tg.public().record_length == 2


def test_pause_resume_extend_force(db, toy) -> None:
    tg = new_game(seats=2, policy=DeadlinePolicy(step_seconds=10 * HOUR, reminder_seconds=0))
    due = tg.public().deadline
    now = due - timedelta(hours=4)
    with store.transaction() as s, pytest.raises(Forbidden):
        service.pause(s, tg.game_id, "not-the-token")
    with store.transaction() as s:
        service.pause(s, tg.game_id, tg.admin_token, now=now)
    assert tg.public().status == "paused" and tg.public().deadline is None
    assert sweep(due + timedelta(days=3)) == [] and tg.public().record_length == 2  # setup + note
    with store.transaction() as s, pytest.raises(Conflict):
        service.submit(s, tg.game_id, "p1", tg.tokens["p1"], "bid 1", None)
    later = now + timedelta(days=1)
    with store.transaction() as s:
        service.resume(s, tg.game_id, tg.admin_token, now=later)
    assert tg.public().deadline == later + timedelta(hours=4), "the clock kept its remaining time"
    with store.transaction() as s:
        new_due = service.extend_deadline(s, tg.game_id, tg.admin_token, 24, now=later)
    assert new_due == later + timedelta(hours=28)
    tg.submit("p2", "bid 3")
    with store.transaction() as s:
        service.force_defaults(s, tg.game_id, tg.admin_token, now=later)
    entries = tg.export()["entries"]
    assert [e["kind"] for e in entries] == ["setup", "note", "note", "note", "note", "orders"]
    assert [e["data"]["action"] for e in entries[1:5]] == ["pause", "resume", "extend_deadline", "force_defaults"]
    assert entries[-1]["data"]["defaulted"] == ["p1"]
    with store.transaction(write=False) as s:
        actions = [a.action for a in s.exec(select(ModeratorAction).order_by(ModeratorAction.id))]
    assert actions == ["pause", "resume", "extend_deadline", "force_defaults"]


def test_sealed_group_completed_while_paused_is_revealed_on_resume(db, toy) -> None:
    tg = new_game(seats=2)
    tg.submit("p1", "bid 1")
    with store.transaction() as s:
        service.pause(s, tg.game_id, tg.admin_token)
    with store.transaction() as s, pytest.raises(Conflict):
        service.submit(s, tg.game_id, "p2", tg.tokens["p2"], "bid 2", None)
    with store.transaction() as s:
        service.resume(s, tg.game_id, tg.admin_token)
    tg.submit("p2", "bid 2")  # completes the group after the resume: revealed at once
    last = [e for e in tg.full_export()["entries"] if e["kind"] != "note"][-1]
    assert last["kind"] == "orders" and last["data"]["orders"] == {"p1": {"bid": 1}, "p2": {"bid": 2}}


def test_replace_seat(db, toy) -> None:
    tg = new_game(seats=2)
    old = tg.tokens["p2"]
    with store.transaction() as s:
        invite = service.replace_seat(s, tg.game_id, tg.admin_token, "p2")
    with store.transaction() as s, pytest.raises(Forbidden):
        service.seat_state(s, tg.game_id, "p2", old)
    assert [seat.joined for seat in tg.public().seats] == [True, False]
    with store.transaction() as s:
        joined = service.join_game(s, tg.game_id, "p2", invite, "Carol", email="carol@example.org",
                                   entropy="ignored")
    assert not joined.started and tg.public().status == "running"
    tg.tokens["p2"] = joined.seat_token
    tg.submit("p2", "bid 1")
    tg.submit("p1", "bid 0")
    tg.reveal("round-1")
    doc = tg.export()
    assert doc["entries"][1]["data"] == {"action": "replace_seat", "seat": "p2", "generation": 1}
    assert doc["entries"][0]["data"]["entropy"] == ["e0", "e1"], "the seed is fixed at the start"
    assert tg.public().seats[1].display_name == "Carol"


def test_export_of_finished_game_after_defaults_verifies(db, toy) -> None:
    tg = new_game(seats=2, options={"rounds": 1}, policy=DeadlinePolicy(step_seconds=HOUR))
    due = tg.public().deadline
    sweep(due)  # everyone bids 0: no unique bid, the game ends
    pub = tg.public()
    assert pub.status == "finished" and pub.server_seed
    assert pub.deadline is None
    report = verify_record(tg.export())
    assert report.replayed and report.finished


def test_sweep_reveals_a_complete_group_left_unrevealed(db, toy) -> None:
    """A group whose orders are all in is revealed by the order that completes it; should one be
    left complete but unrevealed (a sealed row written by an older version, or by hand), the
    sweep reveals it."""
    from adjudicator.record import commitment
    from adjudicator.store import Game, SealedOrder

    tg = new_game(seats=2, policy=DeadlinePolicy(step_seconds=10 * HOUR))
    tg.submit("p1", "bid 1")
    with store.transaction() as s:
        gid = s.exec(select(Game.id).where(Game.public_id == tg.game_id)).one()
        s.add(SealedOrder(game_id=gid, group="round-1", seat="p2", order={"bid": 2}, salt="ab",
                          commitment=commitment({"bid": 2}, "ab")))
    due = tg.public().deadline
    sweep(due - timedelta(hours=5))
    assert tg.public().record_length == 2
    assert tg.full_export()["entries"][1]["data"]["orders"] == {"p1": {"bid": 1}, "p2": {"bid": 2}}
    assert sweep(due - timedelta(hours=5)) == []
