"""Header safety: a CR or LF in a game title or a display name never breaks a game's mail and never
adds a header (issue 11)."""

from __future__ import annotations

from datetime import UTC, datetime
from email import message_from_bytes, policy

from adjudicator import service, store
from adjudicator.mail.headers import one_line
from adjudicator.service.common import verified
from adjudicator.store import OutboxMessage
from tests.mail.conftest import outbox
from workers.enqueue import enqueue
from workers.mailer import build_message

EVIL = "A\r\nBcc: x@y"


def test_title_and_name_with_line_breaks_mail_fine(sqlite_db, toy, mail_env) -> None:
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, title=EVIL)
    tasks = []
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            joined = service.join_game(s, created.game_id, seat, invite, name=EVIL + "\u2028Cc: z@y",
                                       email=f"{seat}@example.org\r\nBcc: w@y")
        tasks += joined.tasks
    with store.transaction() as s:  # the players confirm their addresses: the held mails with the title go out
        for address in {r.to for r in outbox() if r.kind == "confirm"}:
            verified.verify_address(s, address)
            tasks += verified.release_held(s, address)
    enqueue(tasks)
    rows = outbox()
    assert {r.kind for r in rows} == {"confirm", "start"}
    assert rows and all(r.status == "sent" for r in rows), [(r.status, r.last_error) for r in rows]
    with store.transaction(write=False) as s:
        page = service.public_game(s, created.game_id)
    assert page.title == "A Bcc: x@y" and all("\n" not in i.display_name for i in page.seats)
    files = sorted(mail_env.glob("*.eml"))
    assert len(files) == len(rows)
    for path in files:
        msg = message_from_bytes(path.read_bytes(), policy=policy.default)
        assert msg["Bcc"] is None and msg["Cc"] is None, "no injected header"
        assert len(msg.get_all("To")) == 1 and str(msg["To"]).startswith(("p1@example.org", "p2@example.org"))


def test_an_old_row_with_line_breaks_still_builds() -> None:
    """Rows written before the entry check (or by any future path) are folded when sent."""
    row = OutboxMessage(id=7, to="p1@example.org\nBcc: x@y", subject=EVIL, body="hi",
                        headers={"In-Reply-To": "<a@b>\r\nBcc: x@y", "Bad Name": "v", "Bcc": "x@y",
                                 "X-PBEM-Game": "g\nCc: q@y"},
                        created_at=datetime(2026, 1, 1, tzinfo=UTC))
    msg = build_message(row)
    raw = bytes(msg)
    again = message_from_bytes(raw, policy=policy.default)
    assert again["Bcc"] is None and again["Cc"] is None and again["Bad Name"] is None
    assert again["Subject"] == "A Bcc: x@y"
    assert b"\nBcc:" not in raw and b"\nCc:" not in raw


def test_one_line() -> None:
    assert one_line("a\r\n b\x00c\u2029d\x85e") == "a b c d e"
    assert one_line(None) == "" and len(one_line("x" * 5000)) == 900
