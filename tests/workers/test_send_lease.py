"""The send lease (workers/lease.py): a live sender keeps its rows however long it takes; a dead
sender's rows are free for the recovery sweep within a minute."""

from __future__ import annotations

import time
from datetime import timedelta
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.upkeep import recovery
from adjudicator.store import OutboxMessage
from tests.support.play import new_game
from workers import lease, mailer


@pytest.fixture
def mail_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    return tmp_path / "mail"


def _ids() -> list[int]:
    with store.transaction(write=False) as s:
        return sorted(r.id for r in s.exec(select(OutboxMessage)))


def _swept_now() -> list[int]:
    with store.transaction() as s:
        return recovery.sweep(s, now=service.utcnow()).outbox


def test_a_live_sender_keeps_its_rows_past_the_lease(db, toy, mail_dir, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setenv("PBEM_SEND_LEASE_SECONDS", "0.6")
    monkeypatch.setenv("PBEM_RECOVERY_GRACE_SECONDS", "0")
    new_game(seats=2)
    ids = [r.id for r in mailer.claim_many(_ids())]
    assert ids
    with lease.kept(ids):
        time.sleep(1.5)  # two and a half leases: renewed meanwhile
        assert _swept_now() == []
    time.sleep(0.8)  # the sender is gone and its last renewal has run out
    assert _swept_now() == ids


def test_a_dead_senders_rows_are_retried_within_a_minute() -> None:
    # its lease runs out, and the next recovery sweep (beat) frees and hands on its rows
    from workers.celery_app import make_celery

    sweep_every = make_celery().conf.beat_schedule["recover"]["schedule"]
    assert lease.lease() + timedelta(seconds=sweep_every) <= timedelta(minutes=1)
    assert mailer.record_patience() < lease.lease().total_seconds()
