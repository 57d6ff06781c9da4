"""Graceful degradation: with the broker (Redis) down the web app still takes orders. They are
applied in their own transaction (a completed sealed group is revealed at once); only the mail
about them waits in the outbox for the recovery sweep."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.service import utcnow
from adjudicator.service.upkeep import recovery
from adjudicator.store import OutboxMessage
from tests.web.conftest import create_game, join
from tests.web.forms import text_of


def _dead_redis_url() -> str:
    with socket.socket() as sock:  # a port nobody listens on: "connection refused", as when Redis is down
        sock.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{sock.getsockname()[1]}/0"


@pytest.fixture
def down_client(tmp_path, monkeypatch, toy):
    monkeypatch.delenv("PBEM_EAGER", raising=False)
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    from web import create_app
    from workers.celery_app import make_celery
    from workers.enqueue import enqueue

    dead = make_celery({"broker_url": _dead_redis_url(), "broker_connection_timeout": 1})
    tried: list[object] = []

    def enqueue_to_dead_broker(tasks: list[object]) -> None:
        tried.extend(tasks)
        enqueue(tasks, app=dead)  # raises: the broker cannot be reached

    app = create_app({
        "TESTING": False,  # as in production: an enqueue failure is logged, not raised
        "DATABASE_URL": f"sqlite:///{tmp_path / 'web.sqlite3'}",
        "SECRET_KEY": "test-secret",
        "PBEM_BASE_URL": "http://pbem.test",
        "PBEM_VAR_DIR": str(tmp_path / "var"),
        "PBEM_ENQUEUE": enqueue_to_dead_broker,
    })
    yield app.test_client(), tried
    store.configure(None)


def test_orders_are_taken_and_applied_while_the_broker_is_down(down_client) -> None:
    client, tried = down_client
    _, _, invites = create_game(client, seats=2)
    ada = join(client, invites[0], "Ada", email="ada@example.org")
    bob = join(client, invites[1], "Bob", email="bob@example.org")
    resp = ada.choose("bid 2")
    assert resp.status_code == 200
    assert "Sealed order received: bid 2" in text_of(resp.get_data(as_text=True))
    resp = bob.command("bid 1")
    assert resp.status_code == 200
    # applied without any worker: the group was revealed in the order's own transaction
    assert "You won the round" in text_of(ada.page())
    assert tried, "the web app did try to hand the mail on"

    # the mail about it is stored, waiting; the recovery sweep hands every row on once the
    # broker is back (here: its grace has passed)
    with store.transaction() as s:
        pending = s.exec(select(OutboxMessage.id).where(OutboxMessage.status == "pending")).all()
        assert pending
        swept = recovery.sweep(s, now=utcnow() + recovery.grace() + timedelta(seconds=1))
    assert sorted(swept.outbox) == sorted(pending)
