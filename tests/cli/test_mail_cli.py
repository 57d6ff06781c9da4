"""`pbem mail`: the operator lists failed mail, hands it on again, and runs a recovery sweep."""

from __future__ import annotations

from sqlmodel import select

from adjudicator import store
from adjudicator.cli import mail
from adjudicator.store import OutboxMessage
from tests.support.play import new_game


def _statuses() -> list[str]:
    with store.transaction(write=False) as s:
        return [r.status for r in s.exec(select(OutboxMessage).order_by(OutboxMessage.id))]


def test_failed_mail_is_listed_and_retried(sqlite_db, toy, tmp_path, monkeypatch, capsys) -> None:  # noqa: ANN001
    monkeypatch.setenv("PBEM_EAGER", "1")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.delenv("SMTP_HOST", raising=False)
    monkeypatch.setenv("PBEM_RECOVERY_GRACE_SECONDS", "0")
    monkeypatch.setenv("PBEM_RECOVERY_MAX_ATTEMPTS", "0")  # the first sweep gives up on every row
    new_game(seats=2)  # its mails' tasks were never enqueued
    assert mail.main(["failed"]) == 0
    assert capsys.readouterr().out.strip() == "no failed mail"
    assert mail.main(["sweep"]) == 0
    assert "gave up on 0 inbox and 2 outbox rows" in capsys.readouterr().out
    assert _statuses() == ["failed", "failed"]
    assert mail.main(["failed"]) == 0
    listed = capsys.readouterr().out.strip().splitlines()
    assert len(listed) == 2 and all(line.startswith("outbox ") and "re-enqueues" in line for line in listed)
    assert mail.main(["retry", "outbox"]) == 0
    assert "handed on 2 outbox row(s)" in capsys.readouterr().out
    assert _statuses() == ["sent", "sent"]
    assert mail.main(["retry", "outbox"]) == 1
    assert "no failed outbox rows" in capsys.readouterr().err
