"""A PostgreSQL connection that dies in the pool (a database restart, an idle timeout) costs no
request: an idle one is tried before use, and one found dead by a request's first statement is
replaced and the transaction runs again (pooled connections in steady use are not pinged at each
checkout: store/db.py)."""

from __future__ import annotations

import secrets

import pytest
from sqlalchemy import create_engine, text

from adjudicator import store
from adjudicator.store import db as store_db
from tests.support.databases import PG_URL, postgres_database
from tests.web.conftest import create_game, join
from tests.web.forms import text_of


@pytest.fixture
def pg_app(tmp_path, monkeypatch, toy):
    monkeypatch.setenv("PBEM_EAGER", "1")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    from web import create_app

    name = f"pbem_lost_{secrets.token_hex(4)}"  # this test's connections, and no one else's
    with postgres_database() as database:
        app = create_app({
            "TESTING": True,
            "DATABASE_URL": f"{database.url}&application_name={name}",
            "SECRET_KEY": "test-secret",
            "PBEM_BASE_URL": "http://pbem.test",
            "PBEM_VAR_DIR": str(tmp_path / "var"),
        })
        try:
            yield app.test_client(), name
        finally:
            store.configure(None)


def _kill_connections(name: str) -> int:
    """What a database restart does to the app's pooled connections."""
    admin = create_engine(PG_URL)
    try:
        with admin.begin() as conn:
            return len(conn.execute(text("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                         "WHERE application_name = :name"), {"name": name}).all())
    finally:
        admin.dispose()


def _started_game(client):  # type: ignore[no-untyped-def]
    _, _, invites = create_game(client, seats=2, **{"opt-rounds": "2"})
    return [join(client, url, n) for url, n in zip(invites, ["Ada", "Bob"], strict=True)]


@pytest.mark.parametrize("idle_ping", [False, True])
def test_orders_and_pages_survive_dead_pooled_connections(pg_app, monkeypatch, idle_ping: bool) -> None:
    client, name = pg_app
    # False: no connection counts as idle, so the dead one is met by the request's first statement
    # (the write's or the read's retry); True: every connection is tried at checkout
    monkeypatch.setattr(store_db, "PING_IDLE_SECONDS", 0.0 if idle_ping else 1e9)
    ada, bob = _started_game(client)
    assert _kill_connections(name) >= 1
    resp = ada.choose("bid 2")  # a write (the order POST), then the redirected page (reads)
    assert resp.status_code == 200
    assert "bid 2" in text_of(resp.get_data(as_text=True))
    assert _kill_connections(name) >= 1
    resp = bob.choose("bid 1")  # completes the sealed group: revealed in the same transaction
    assert resp.status_code == 200
    assert _kill_connections(name) >= 1
    assert "Ada" in text_of(ada.page())  # a read alone
