"""Inbound mail end to end through the service (tasks inline): who speaks, the body language,
dedupe, loops, sizes and encodings."""

from __future__ import annotations

import base64
import re
from email.message import EmailMessage
from email.mime.text import MIMEText

import pytest

from adjudicator import service, store
from tests.mail.conftest import address, inbox, message, outbox, send
from tests.support.play import PlayedGame, new_game


def bids(game: PlayedGame, seat: str) -> str | None:
    page = game.page(seat)
    return page.receipt.order_text if page.receipt else None


def test_order_by_mail_gets_a_receipt_and_the_current_prompt(game: PlayedGame) -> None:
    assert send(message("bid 2 // my bid", to=address(game.game_id, "p1")))
    assert bids(game, "p1") == "bid 2"
    [reply] = outbox("p1@example.org", "reply")
    assert "Receipt (commitment)" in reply.body and "## Now" in reply.body
    commitment = reply.body.split("Receipt (commitment): `")[1].split("`")[0]
    assert f"    pbem receipt: game {game.game_id} seat p1 commitment {commitment}\n" in reply.body  # a line to keep
    assert reply.headers["Auto-Submitted"] == "auto-replied"
    assert reply.headers["In-Reply-To"].startswith("<t")
    assert reply.headers["Reply-To"] == address(game.game_id, "p1", tagged=True)
    assert inbox()[-1].status == "done" and inbox()[-1].auth["via"] == "token"
    # a later mail replaces the sealed order until the reveal
    send(message("bid 3", to=address(game.game_id, "p1")))
    assert bids(game, "p1") == "bid 3"


def test_duplicate_message_id_is_applied_once(game: PlayedGame) -> None:
    msg = message("bid 1", to=address(game.game_id, "p1"), mid="<same@client.test>")
    assert send(msg) is True
    assert send(msg) is False
    assert len(inbox()) == 1 and len(outbox(kind="reply")) == 1


def test_forged_from_with_token_is_applied_and_the_registered_address_told(game: PlayedGame) -> None:
    send(message("bid 1", to=address(game.game_id, "p1"), sender="Mallory <mallory@evil.test>"))
    assert bids(game, "p1") == "bid 1"
    assert outbox("mallory@evil.test") == []
    [reply] = outbox("p1@example.org", "reply")
    assert "**Notice:**" in reply.body and "mallory@evil.test" in reply.body


def test_forged_from_without_token_is_not_applied(game: PlayedGame) -> None:
    # a registered From is not a credential: help goes to the registered address, nothing applied
    send(message("bid 3", sender="p1@example.org"))
    assert bids(game, "p1") is None
    [reply] = outbox("p1@example.org", "reply")
    assert "could not be matched to a seat" in reply.body
    # a stranger gets nothing at all (no backscatter): one logged drop
    send(message("bid 3", sender="stranger@evil.test"))
    assert outbox("stranger@evil.test") == [] and inbox()[-1].status == "dropped"


def test_token_of_another_seat_or_game_is_refused(game: PlayedGame, toy) -> None:
    other = new_game(seats=2)
    p1 = address(game.game_id, "p1")
    token = p1.split("-")[-1].split("@")[0]
    wrong_seat = p1.replace("+p1-", "+p2-")
    wrong_game = address(other.game_id, "p1").rsplit("-", 1)[0] + f"-{token}@pbem.test"
    for to in (wrong_seat, wrong_game):
        send(message("bid 3", to=to, sender="mallory@evil.test"))
    assert bids(game, "p2") is None and bids(other, "p1") is None
    assert [m.status for m in inbox()] == ["dropped", "dropped"]
    # the registered player gets help, identical whatever part of the address was wrong
    send(message("bid 3", to=wrong_seat, sender="p2@example.org"))
    send(message("bid 3", to=p1.replace(token, "a" * len(token)), sender="p1@example.org"))
    bodies = [m.body for m in outbox(kind="reply")]
    assert len(bodies) == 2 and bodies[0] == bodies[1]


def test_token_stops_working_after_the_seat_is_replaced(game: PlayedGame) -> None:
    old = address(game.game_id, "p2")
    with store.transaction() as s:
        invite = service.replace_seat(s, game.game_id, game.admin_token, "p2")
    with store.transaction() as s:
        service.join_game(s, game.game_id, "p2", invite, "New", email="new@example.org")
    send(message("bid 2", to=old, sender="p2@example.org"))
    assert inbox()[-1].status == "dropped" and outbox("new@example.org", "reply") == []
    send(message("bid 2", to=address(game.game_id, "p2"), sender="new@example.org"))
    assert inbox()[-1].status == "done"


def test_signon_password_is_the_fallback(game: PlayedGame) -> None:
    from adjudicator.service.common.core import find_game, seat_row
    from adjudicator.service.common.tokens import signon_password

    with store.transaction(write=False) as s:
        row = seat_row(s, find_game(s, game.game_id), "p1")
        password = signon_password(row.seat_token_hash, game.game_id, "p1")
    send(message(f"SIGNON {game.game_id} p1 {password}\nbid 2"))
    assert bids(game, "p1") == "bid 2" and inbox()[-1].auth["via"] == "password"
    send(message(f"SIGNON {game.game_id} p1 wrongpassword\nbid 3"))
    assert bids(game, "p1") == "bid 2"


def test_html_only_base64_and_odd_charsets(game: PlayedGame) -> None:
    to = address(game.game_id, "p1")
    html = EmailMessage()
    html["From"], html["To"], html["Message-ID"], html["Subject"] = "p1@example.org", to, "<h1@c>", "x"
    html.set_content("<html><body><p>bid 1</p><blockquote>bid 3</blockquote></body></html>", subtype="html")
    send(html)
    assert bids(game, "p1") == "bid 1"
    b64 = MIMEText("bid 2\n// grüße\n", "plain", "utf-8")  # base64 by default for utf-8 in MIMEText
    b64["From"], b64["To"], b64["Message-ID"] = "p1@example.org", to, "<b64@c>"
    assert "base64" in b64.as_string()
    send(b64.as_bytes())
    assert bids(game, "p1") == "bid 2"
    texts = {"koi8-r": "прощай", "iso-8859-15": "adieu €", "shift_jis": "さようなら", "utf-16": "ἀντίο"}
    for i, (charset, word) in enumerate(texts.items()):
        raw = MIMEText(f"bid 3\n// {word}\n", "plain", charset)
        raw["From"], raw["To"], raw["Message-ID"] = "p1@example.org", to, f"<cs{i}@c>"
        send(raw.as_bytes())
        assert bids(game, "p1") == "bid 3", charset
    # an unknown charset and broken quoted-printable still parse
    raw = (f"From: p1@example.org\r\nTo: {to}\r\nMessage-ID: <odd@c>\r\nContent-Type: text/plain; "
           "charset=x-unknown-42\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nbid 1=\r\n=ZZ\r\n").encode()
    send(raw)
    assert inbox()[-1].status == "done"


def test_reply_quoting_the_previous_mail_and_signature_after_signoff(game: PlayedGame) -> None:
    to = address(game.game_id, "p1")
    body = ("bid 2\n\nOn Mon, 3 Mar 2025 at 10:00, pbem <pbem@pbem.test> wrote:\n> Legal orders now:\n"
            ">     bid 3\n> bid 3\n")
    send(message(body, to=to))
    assert bids(game, "p1") == "bid 2"
    send(message("bid 1\nSIGNOFF\nCheers,\nbid 3 is what I really think\n", to=to))
    assert bids(game, "p1") == "bid 1"
    send(message("bid 0\n-- \nAlice, bid 3 forever\n", to=to))
    assert bids(game, "p1") == "bid 0"
    assert all("Not applied" not in m.body for m in outbox(kind="reply"))


def test_first_bad_line_stops_and_the_reply_explains(toy, db) -> None:
    game = new_game(seats=2)
    send(message("bid 9\nbid 1", to=address(game.game_id, "p1")))
    assert bids(game, "p1") is None
    [reply] = outbox(kind="reply")
    assert "## Not applied" in reply.body and "bid 0" in reply.body


def test_oversized_message_gets_one_reply_and_nothing_applied(game: PlayedGame, monkeypatch) -> None:
    monkeypatch.setenv("PBEM_MAIL_MAX_BYTES", "4000")
    send(message("bid 3\n" + "x" * 10_000, to=address(game.game_id, "p1")))
    assert bids(game, "p1") is None
    [reply] = outbox("p1@example.org", "reply")
    assert "at most 4000" in reply.body
    assert len(inbox()[-1].raw) <= 64 * 1024
    # oversized from an unknown sender: a logged drop
    send(message("x" * 10_000, sender="a@b.test"))
    assert inbox()[-1].status == "dropped"


def test_no_mail_loops(game: PlayedGame, monkeypatch) -> None:
    to = address(game.game_id, "p1")
    send(message("bid 1", to=to, Auto_Submitted="auto-replied"))
    send(message("bid 1", to=to, sender="MAILER-DAEMON@client.test"))
    send(message("bid 1", to=to, sender="pbem@pbem.test"))  # our own mail reflected back
    send(message("bid 1", to=to, Precedence="bulk"))
    send(message("bid 1", to=to), envelope_from="")  # a bounce: null envelope sender
    assert outbox(kind="reply") == [] and {m.status for m in inbox()} == {"dropped"}
    assert bids(game, "p1") is None
    # a correspondent that answers every mail (without saying so) hits the hourly reply brake
    monkeypatch.setenv("PBEM_MAIL_REPLIES_PER_HOUR", "3")
    for _ in range(6):
        send(message("STATUS", to=to))
    assert len(outbox(kind="reply")) == 3 and inbox()[-1].outcome.startswith("reply limit")
    # ... but never drops a mail that acts: an order past the limit is applied and answered
    send(message("bid 1", to=to))
    assert bids(game, "p1") is not None and inbox()[-1].status == "done"
    assert len(outbox(kind="reply")) == 4 and "## Applied" in outbox(kind="reply")[-1].body


def test_commands(game: PlayedGame) -> None:
    to1, to2 = address(game.game_id, "p1"), address(game.game_id, "p2")
    send(message("HELP\nSTATUS\nLIST\nHISTORY 0", to=to1))
    [reply] = outbox(kind="reply")
    for part in ("How to play by mail", "## Status", "## Your games", game.game_id, "## History"):
        assert part in reply.body
    assert "The rules of the game, with every decision and card: " in reply.body  # HELP links the rules page
    assert re.search(r"with every decision and card: \S*/rules/toy\b", reply.body)
    send(message("PRESS TO p2\nMeet me at 3?\n// not a comment in press\nENDPRESS\nABSENT 2030-01-01 2030-01-05",
                 to=to1))
    [press] = outbox("p2@example.org", "press")
    assert "Meet me at 3?" in press.body and "PRESS TO p1" in press.body
    with store.transaction(write=False) as s:
        assert [p.body for p in service.press_for(s, game.game_id, "p2", game.tokens["p2"])] != []
        assert service.public_press(s, game.game_id) == []  # nothing public while the game runs
    send(message("PRESS TO nobody\nhello\nENDPRESS\nbid 2", to=to2))
    assert "Not done" in outbox(kind="reply")[-1].body and bids(game, "p2") is None
    send(message("RESIGN", to=to2, sender="p2@example.org"))
    assert "resigned" in outbox(kind="reply")[-1].body


def test_no_mail_reveals_another_seats_secrets(game: PlayedGame) -> None:
    tokens = {seat: address(game.game_id, seat).split("-")[-1].split("@")[0] for seat in ("p1", "p2")}
    send(message("bid 3", to=address(game.game_id, "p1")))
    send(message("bid 1\nSTATUS\nHISTORY 0", to=address(game.game_id, "p2"), sender="p2@example.org"))
    send(message("keep\nSTATUS", to=address(game.game_id, "p1")))
    for row in outbox():
        for seat, token in tokens.items():
            if row.seat != seat:
                assert token not in row.body and token not in str(row.headers), (row.kind, row.seat)
        if row.seat == "p2":  # p1's private part (its own past bids) never reaches p2
            assert "'p1'" not in row.body


@pytest.mark.parametrize("fmt", ["pbem+{game}.{seat}.{token}@{domain}"])
def test_address_format_is_configurable(fmt: str, monkeypatch, toy, db) -> None:
    monkeypatch.setenv("PBEM_MAIL_ADDRESS", fmt)
    game = new_game(seats=2)
    to = address(game.game_id, "p1")
    assert to.startswith("pbem+") and to.endswith("@pbem.test")
    send(message("bid 2", to=to))
    assert bids(game, "p1") == "bid 2"


def test_base64_header_only_garbage_is_dropped_quietly(game: PlayedGame) -> None:
    send(base64.b64encode(b"\x00\xff" * 100))
    assert inbox()[-1].status == "dropped"
