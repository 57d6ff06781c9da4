"""Bounces of our own mail: matched by the VERP envelope sender or our Message-ID, marked on the
outbox row, never answered, shown to the moderator and to the affected seat only."""

from __future__ import annotations

import smtplib

from adjudicator import store
from adjudicator.mail.bounce import outbox_message_id
from adjudicator.service.mail.bounces import envelope_sender, message_id_for
from adjudicator.store import OutboxMessage
from tests.mail.conftest import address, inbox, message, outbox, send
from tests.support.play import PlayedGame
from workers import mailer


def _start_row(seat: str) -> OutboxMessage:
    return [m for m in outbox(f"{seat}@example.org") if m.kind == "start"][0]


def dsn(row: OutboxMessage, *, to: str = "pbem@pbem.test", action: str = "failed", mid: str | None = None,
        returned: str = "text/rfc822-headers") -> bytes:
    """A delivery status notification as Postfix writes it (RFC 3464)."""
    original_mid = mid or message_id_for(row.id or 0, int(row.created_at.timestamp()))
    return "\r\n".join([
        "From: MAILER-DAEMON@mx.example.org (Mail Delivery System)", f"To: {to}",
        "Subject: Undelivered Mail Returned to Sender", f"Message-ID: <dsn-{row.id}-{action}-{returned}{mid}@mx.test>",
        "MIME-Version: 1.0", 'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"', "",
        "--b1", "Content-Type: text/plain", "", "This is the mail system at host mx.example.org.", "",
        "--b1", "Content-Type: message/delivery-status", "", "Reporting-MTA: dns; mx.example.org", "",
        f"Final-Recipient: rfc822; {row.to}", f"Action: {action}", "Status: 5.1.1",
        f"Diagnostic-Code: smtp; 550 5.1.1 <{row.to}>: Recipient address rejected: User unknown", "",
        "--b1", f"Content-Type: {returned}", "", "From: pbem@pbem.test", f"To: {row.to}",
        f"Subject: {row.subject}", f"Message-ID: {original_mid}", "", "--b1--", "",
    ]).encode()


def status_of(row_id: int | None) -> OutboxMessage:
    with store.transaction(write=False) as s:
        return s.get(OutboxMessage, row_id)


def test_a_dsn_to_the_verp_address_marks_the_row_and_is_never_answered(game: PlayedGame) -> None:
    row = _start_row("p1")
    bounce = dsn(row, to=envelope_sender(row.id or 0), mid="<lost@elsewhere>")
    send(bounce, envelope_from="")
    after = status_of(row.id)
    assert after.status == "bounced" and "User unknown" in after.last_error
    assert inbox()[-1].status == "dropped" and inbox()[-1].outcome.startswith("bounce: outbox")
    assert outbox(kind="reply") == []  # no mail loops
    assert _start_row("p2").status != "bounced"


def test_a_dsn_without_verp_is_matched_by_our_message_id(game: PlayedGame) -> None:
    row = _start_row("p2")
    send(dsn(row, returned="message/rfc822"), envelope_from="")
    assert status_of(row.id).status == "bounced"


def test_forged_or_unrelated_reports_change_nothing(game: PlayedGame) -> None:
    row = _start_row("p1")
    forged = envelope_sender(row.id or 0).replace("+", "+9")  # another row's number, our signature
    send(dsn(row, to=forged, mid="<x@y>"), envelope_from="")
    wrong_time = message_id_for(row.id or 0, int(row.created_at.timestamp()) + 1)
    send(dsn(row, mid=wrong_time), envelope_from="")
    send(dsn(row, action="delayed"), envelope_from="")  # a delay warning is not a failure
    assert status_of(row.id).status == "pending"
    assert [m.outcome.split(":")[0] for m in inbox()] == ["bounce not matched to any of our messages"] * 2 + [
        f"delivery report (delayed) for outbox {row.id}"]
    assert {m.status for m in inbox()} == {"dropped"}
    assert outbox(kind="reply") == []
    # a plain mailer-daemon text bounce that names nothing of ours: a logged drop, no reply
    send(message("bid 1", to=address(game.game_id, "p1"), sender="MAILER-DAEMON@mx.example.org"))
    assert inbox()[-1].status == "dropped" and outbox(kind="reply") == []


def test_a_bounce_quoting_a_guessed_message_id_is_ignored(game: PlayedGame) -> None:
    """Row numbers and send times are guessable: the forger knows both, but not the tag."""
    row = _start_row("p1")
    created = int(row.created_at.timestamp())
    old_style = f"<pbem-{row.id}-{created}@pbem.test>"  # what earlier releases sent
    guessed = outbox_message_id(row.id or 0, created, "a" * 16)
    for i, mid in enumerate([old_style, guessed]):
        forged = dsn(row, mid=mid).replace(b"User unknown", f"ATTACKER TEXT {i}".encode())
        send(forged, envelope_from="")
        assert inbox()[-1].outcome.startswith("bounce not matched")
    assert status_of(row.id).status == "pending"
    assert "ATTACKER" not in game.page("p1").delivery_problem
    # the genuine Message-ID (as our mailer sends it) marks the row
    sent = mailer.build_message(status_of(row.id))["Message-ID"]
    assert sent == message_id_for(row.id or 0, created) and sent not in (old_style, guessed)
    send(dsn(row, mid=sent), envelope_from="")
    assert status_of(row.id).status == "bounced"


def test_smtp_delivery_uses_the_verp_envelope_sender(game: PlayedGame, monkeypatch) -> None:
    sent: list[tuple[str | None, str]] = []

    class FakeSMTP:
        def __init__(self, *args, **kwargs) -> None:
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            pass

        def starttls(self, **kwargs) -> None:
            pass

        def send_message(self, msg, from_addr=None) -> None:
            sent.append((from_addr, msg["Message-ID"]))

    monkeypatch.setenv("SMTP_HOST", "smtp.test")
    monkeypatch.setattr(smtplib, "SMTP", FakeSMTP)
    row = _start_row("p1")
    assert mailer.deliver(row.id) == "sent"
    assert sent == [(envelope_sender(row.id), message_id_for(row.id, int(row.created_at.timestamp())))]


def test_bounces_show_to_the_moderator_and_to_the_seat_only(tmp_path, toy) -> None:
    from tests.mail.test_outbound_and_web import _app
    from tests.support.play import new_game

    app = _app(tmp_path)
    client = app.test_client()
    game = new_game(seats=2)
    row = _start_row("p1")
    send(dsn(row, to=envelope_sender(row.id or 0)), envelope_from="")
    admin = client.get(f"/admin/{game.game_id}/{game.admin_token}").data.decode()
    assert "bounced" in admin and "p1@example.org" in admin and "User unknown" in admin
    mine = client.get(f"/play/{game.game_id}/p1/{game.tokens['p1']}").data.decode()
    theirs = client.get(f"/play/{game.game_id}/p2/{game.tokens['p2']}").data.decode()
    assert "Our last mail to you" in mine and "check your address" in mine
    assert "Our last mail to you" not in theirs and "User unknown" not in theirs
    assert game.page("p2").delivery_problem == ""
    # once the player mails us, the address evidently works: the notice goes
    send(message("STATUS", to=address(game.game_id, "p1")))
    assert game.page("p1").delivery_problem == ""
    store.configure(None)
