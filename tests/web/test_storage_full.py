"""A database that cannot store anything (full, read-only, out of reach): the web answers 503 with
Retry-After in plain words, nothing is changed, and the log says it once a minute, not a
traceback per request; the SMTP listener keeps its 451 (issue 31)."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import func
from sqlalchemy.exc import OperationalError
from sqlmodel import select

from adjudicator import store
from adjudicator.store import SealedOrder, outage
from tests.web.forms import text_of


def test_a_read_only_database_gives_503_and_one_log_line(app, client, toy_game, tmp_path,  # noqa: ANN001
                                                         caplog: pytest.LogCaptureFixture) -> None:
    _admin, players, _game_id = toy_game
    form = players[0].command_form()
    path = tmp_path / "web.sqlite3"
    store.configure(f"sqlite:///file:{path}?mode=ro&uri=true")  # the volume went read-only
    caplog.set_level(logging.ERROR)
    answers = [form.submit(client, players[0].url, commands="bid 1") for _ in range(3)]
    assert {a.status_code for a in answers} == {503}
    assert answers[0].headers["Retry-After"] == "120"
    page = text_of(answers[0].get_data(as_text=True))
    assert "cannot store anything right now" in page and "Nothing was changed" in page
    lines = [r for r in caplog.records if "cannot store anything now" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None  # one line, no traceback
    assert "read only" in lines[0].getMessage()
    store.configure(app.config["DATABASE_URL"])
    with store.transaction(write=False) as s:  # nothing was stored
        assert s.exec(select(func.count()).select_from(SealedOrder)).one() == 0


@pytest.mark.parametrize(("message", "problem"), [
    ("database or disk is full", "disk full"),
    ("attempt to write a readonly database", "read only"),
    ("unable to open database file", "unreachable"),
])
def test_sqlite_storage_errors_are_classified(message: str, problem: str) -> None:
    import sqlite3

    assert outage.storage_problem(OperationalError("INSERT", {}, sqlite3.OperationalError(message))) == problem


def test_other_errors_stay_loud() -> None:
    import sqlite3

    from sqlalchemy.exc import IntegrityError

    assert outage.storage_problem(IntegrityError("INSERT", {}, sqlite3.IntegrityError("UNIQUE constraint"))) is None
    assert outage.storage_problem(ValueError("bug")) is None


def test_smtp_keeps_its_451_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import concurrent.futures
    import sqlite3
    from types import SimpleNamespace

    from workers import smtp

    def full(*_a, **_k):  # noqa: ANN002, ANN003
        future: concurrent.futures.Future = concurrent.futures.Future()
        future.set_exception(OperationalError("INSERT", {}, sqlite3.OperationalError("database or disk is full")))
        return future

    monkeypatch.setattr(smtp, "submit", full)
    envelope = SimpleNamespace(original_content=b"Subject: x\r\n\r\nbid 1\r\n", content=None,
                               mail_from="a@example.org", rcpt_tos=["game@pbem.localhost"])
    answer = asyncio.run(smtp.Handler().handle_DATA(None, SimpleNamespace(peer=("127.0.0.1", 1)), envelope))
    assert answer.startswith("451 4.3.0") and "cannot store mail right now" in answer
