"""The recovery sweep: rows whose task was lost are handed on, with backoff, at most a set number
of times, then marked failed for the moderator; two sweeps at once never double a row; a row is
sent once however often its task runs (issue 15)."""

from __future__ import annotations

import threading
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.upkeep import recovery
from adjudicator.store import InboxMessage, OutboxMessage
from tests.support.play import new_game
from workers import lease, mailer
from workers.enqueue import enqueue


@pytest.fixture
def eager(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("PBEM_EAGER", "1")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("PBEM_MAIL_DOMAIN", "pbem.test")
    monkeypatch.delenv("SMTP_HOST", raising=False)
    return tmp_path / "mail"


def outbox() -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))


def sweep(minutes: float, run: bool = True) -> recovery.SweepResult:
    with store.transaction() as s:
        result = recovery.sweep(s, now=service.utcnow() + timedelta(minutes=minutes))
    if run:
        enqueue(result.tasks)
    return result


def test_an_outbox_row_whose_task_was_lost_is_sent_by_the_sweep(db, toy, eager: Path) -> None:  # noqa: ANN001
    new_game(seats=2)  # its "your move" mails' tasks are never enqueued: lost with the broker
    pending = [r.id for r in outbox() if r.status == "pending"]
    assert pending
    assert sweep(0).outbox == []  # within the grace their own tasks may still be on the way
    assert sweep(3).outbox == pending
    assert {r.status for r in outbox()} == {"sent"}
    assert len(list(eager.glob("*.eml"))) == len(pending)
    assert sweep(60).outbox == []


def test_delivering_a_row_twice_sends_it_once(db, toy, eager: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    new_game(seats=2)
    row = outbox()[0]
    sent: list[str] = []
    monkeypatch.setattr(mailer, "write_eml", lambda outbox_id, msg: sent.append(str(msg["Message-ID"])))
    assert mailer.deliver(row.id) == "sent"
    assert mailer.deliver(row.id) == "sent"
    assert len(sent) == 1


def test_a_claimed_row_is_left_to_its_sender_until_the_lease_expires(db, toy, eager: Path,  # noqa: ANN001
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    new_game(seats=2)
    row = outbox()[0]
    sent: list[str] = []
    monkeypatch.setattr(mailer, "write_eml",
                        lambda outbox_id, msg: sent.append(str(msg["Message-ID"])) if outbox_id == row.id else None)
    claimed, mine = mailer.claim(row.id)  # a worker claims the row, then dies before sending
    assert mine and claimed is not None and claimed.status == "sending"
    assert mailer.claim(row.id)[1] is False  # nobody else may take it meanwhile
    assert mailer.deliver(row.id) == "sending" and sent == []
    assert row.id not in sweep(lease.LEASE.total_seconds() / 120).outbox  # half a lease later: the claim holds
    assert row.id in sweep(lease.LEASE.total_seconds() / 60 + 1).outbox  # expired: sent again
    assert [r.status for r in outbox() if r.id == row.id] == ["sent"]
    assert len(sent) == 1
    redo: list[str] = []
    monkeypatch.setattr(mailer, "write_eml", lambda outbox_id, msg: redo.append(str(msg["Message-ID"])))
    with store.transaction() as s:  # the same row sent again (operator retry): the same Message-ID
        again = s.exec(select(OutboxMessage).where(OutboxMessage.id == row.id)).one()
        again.status = "pending"
        s.add(again)
    mailer.deliver(row.id)
    assert redo == sent


def test_backoff_then_failed_and_the_moderator_sees_it(db, toy, eager: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("PBEM_RECOVERY_MAX_ATTEMPTS", "3")
    tg = new_game(seats=2)
    from adjudicator.service.common.core import find_game, seat_row
    from adjudicator.service.play.notify import reply_address

    with store.transaction() as s:
        g = find_game(s, tg.game_id)
        to = reply_address(g, seat_row(s, g, "p1"))
        raw = (f"From: p1@example.org\r\nTo: {to}\r\nSubject: orders\r\nMessage-ID: <stuck@client.test>\r\n"
               "\r\nbid 1\r\n").encode()
        [(_kind, inbox_id)] = service.receive_mail(s, raw, "smtp", "p1@example.org", [to], "127.0.0.1")
    offsets: list[float] = []  # minutes from now at which the row falls due; nothing processes it
    for _ in range(3):
        with store.transaction(write=False) as s:
            row = s.exec(select(InboxMessage).where(InboxMessage.id == inbox_id)).one()
        due = ((row.next_attempt_at - service.utcnow()).total_seconds() / 60 if row.next_attempt_at
               else recovery.grace().total_seconds() / 60)
        assert sweep(due - 0.5, run=False).inbox == []  # not yet due: no doubling
        assert sweep(due + 0.1, run=False).inbox == [inbox_id]
        offsets.append(due)
    assert offsets[2] - offsets[1] > offsets[1] - offsets[0] > 0  # the waits grow
    result = sweep(offsets[-1] + 120, run=False)
    assert result.failed_inbox == [inbox_id]
    with store.transaction(write=False) as s:
        row = s.exec(select(InboxMessage).where(InboxMessage.id == inbox_id)).one()
        log = service.mail_log(s, tg.game_id, tg.admin_token)
    assert row.status == "failed" and "3 attempts" in row.outcome
    assert [m["status"] for m in log["inbound"]] == ["failed"]
    # the operator hands it on again: it is processed
    with store.transaction() as s:
        tasks = recovery.retry_failed(s, "inbox", [inbox_id])
        failed = recovery.failed_rows(s)
    assert [f.kind for f in failed] == ["outbox"] * len(failed)  # the inbox row is new again
    # the game's "your move" mails were never sent either (nothing ran their tasks): given up too
    assert failed and {m["status"] for m in log["outbound"]} == {"failed"}
    assert all("re-enqueues" in f.error for f in failed)
    enqueue(tasks)
    assert tg.page("p1").receipt is not None


def test_two_sweeps_at_once_hand_each_row_on_once(db, toy, eager: Path) -> None:  # noqa: ANN001
    for _ in range(3):
        new_game(seats=4)
    pending = [r.id for r in outbox() if r.status == "pending"]
    barrier = threading.Barrier(2)
    found: list[list[int]] = []
    now = service.utcnow() + timedelta(minutes=3)

    def go() -> None:
        barrier.wait(10)
        found.append(store.run_in_transaction(lambda s: recovery.sweep(s, now=now)).outbox)

    threads = [threading.Thread(target=go) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert len(found) == 2
    assert sorted(found[0] + found[1]) == sorted(pending)  # each row exactly once, between them


def wake(seconds: float, run: bool = True) -> recovery.SweepResult:
    with store.transaction() as s:
        result = recovery.wake(s, now=service.utcnow() + timedelta(seconds=seconds))
    if run:
        enqueue(result.tasks)
    return result


def test_a_wake_after_a_broker_restart_hands_on_lost_rows_without_waiting(db, toy, eager: Path) -> None:  # noqa: ANN001
    """A worker (re)connected to the broker: rows whose wake-up went out before then are handed on
    now, not after the grace or the backoff, and no attempt is counted for it."""
    new_game(seats=2)  # "your move" rows whose tasks the restarted broker lost
    pending = [r.id for r in outbox() if r.status == "pending"]
    assert pending
    grace = recovery.wake_grace().total_seconds()
    assert wake(grace / 2, run=False).outbox == []  # their own wake-ups may still be on their way
    assert sweep(grace / 60 + 0.01, run=False).outbox == []  # the regular sweep would wait the grace
    assert wake(grace + 1, run=False).outbox == pending
    assert {r.requeues for r in outbox()} == {0}  # not counted: the fault was not the row's
    # a second worker waking at the same moment finds them handed on already
    assert wake(grace + 2).outbox == []
    # their wake-ups were lost again (the broker restarted once more): the next wake sends them
    assert wake(2 * grace + 2).outbox == pending
    assert {r.status for r in outbox()} == {"sent"}
    assert len(list(eager.glob("*.eml"))) == len(pending)
    assert wake(3 * grace + 3).outbox == []


def test_a_wake_skips_the_backoff_of_a_handed_on_row_but_keeps_a_relay_retry_time(db, toy, eager: Path) -> None:  # noqa: ANN001
    new_game(seats=2)
    first, second = [r.id for r in outbox() if r.status == "pending"][:2]
    later = service.utcnow() + recovery.grace() + timedelta(seconds=1)
    with store.transaction() as s:  # the sweep handed both on; the first then failed at the relay
        assert set(recovery.sweep(s, now=later).outbox) >= {first, second}
        row = s.exec(select(OutboxMessage).where(OutboxMessage.id == first)).one()
        row.attempts, row.last_error, row.next_attempt_at = 1, "451 try later", later + timedelta(minutes=5)
        s.add(row)
    # the broker restarts a minute later, long before the sweep's backoff (and the relay's retry) ends
    woken = wake((later - service.utcnow()).total_seconds() + 60, run=False).outbox
    assert second in woken and first not in woken


def test_a_sweep_whose_wake_ups_were_not_published_leaves_its_rows_due(db, toy, eager: Path) -> None:  # noqa: ANN001
    new_game(seats=2)
    now = service.utcnow() + recovery.grace() + timedelta(seconds=1)
    with store.transaction() as s:
        result = recovery.sweep(s, now=now)
    assert result.outbox
    with store.transaction() as s:  # the enqueue after the commit failed: the broker went away
        recovery.not_handed_on(s, result, now=now)
    with store.transaction() as s:  # the next sweep takes them at once, not after the backoff
        assert recovery.sweep(s, now=now + timedelta(seconds=1)).outbox == result.outbox


def test_one_wake_up_hands_on_a_backlog_larger_than_a_batch(db, toy, eager: Path,  # noqa: ANN001
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A broker restart lost a burst's wake-ups: the wake-up after the reconnection hands on every
    waiting row, batch after batch, not one batch with the rest left to the sweep's grace."""
    from workers import tasks

    for _ in range(3):
        new_game(seats=4)  # 12 "your move" mails whose wake-ups were lost
    monkeypatch.setenv("PBEM_RECOVERY_WAKE_SECONDS", "0")
    real_wake = recovery.wake  # the task reaches it through the facade (adjudicator.service)
    monkeypatch.setattr(service, "recovery_wake", lambda s, **kw: real_wake(s, batch=5, **kw))
    handed: list[tuple] = []
    monkeypatch.setattr(tasks, "enqueue", handed.extend)
    follow_ups: list[dict] = []
    monkeypatch.setattr(tasks.recover, "apply_async", lambda **kw: follow_ups.append(kw))
    tasks.recover.run(wake=True)
    assert sorted(i for _, i in handed) == [r.id for r in outbox()]
    # and one more wake-up shortly after, for rows stored just before the reconnection
    assert follow_ups == [{"kwargs": {"wake": True, "follow_up": False}, "countdown": 1.0, "expires": 600}]
    handed.clear()
    tasks.recover.run(wake=True, follow_up=False)  # the follow-up asks for no further one
    assert len(follow_ups) == 1
