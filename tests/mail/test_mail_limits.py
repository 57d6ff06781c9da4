"""Smaller limits of the mail door (issue 11): a reused Message-ID is logged and counted, STATUS
is answered once per mail, help mails to a (forgeable) sender are few per hour."""

from __future__ import annotations

import logging

from adjudicator import service, store
from adjudicator.mail.body import parse_body
from adjudicator.mail.compose import MAX_REPLY_CHARS, reply_body
from tests.mail.conftest import address, inbox, message, outbox, send
from tests.support.play import PlayedGame


def test_reused_message_id_with_other_content_is_logged_and_counted(game: PlayedGame, caplog) -> None:
    to = address(game.game_id, "p1")
    send(message("bid 2", to=to, mid="<same@c>"))
    send(message("bid 2", to=to, mid="<same@c>"))  # a plain duplicate: same bytes
    assert inbox()[0].auth.get("reused") is None
    with caplog.at_level(logging.WARNING):
        send(message("bid 3", to=to, mid="<same@c>"))
    assert len(inbox()) == 1 and inbox()[0].auth["reused"] == 1
    assert "reused with different content" in caplog.text
    with store.transaction(write=False) as s:
        log = service.mail_log(s, game.game_id, game.admin_token)
    assert log["inbound"][0]["reused"] == 1


def test_status_is_answered_once_per_mail(game: PlayedGame) -> None:
    commands = parse_body("STATUS\n" * 300 + "bid 1\nHELP\nHELP\nHISTORY\nLIST\nSTATUS")
    assert [c.name for c in commands] == ["status", "orders", "help", "history", "list"]
    send(message("STATUS\n" * 300, to=address(game.game_id, "p1")))
    reply = outbox("p1@example.org", "reply")[-1]
    assert reply.body.count("## Status") == 1 and len(reply.body) < 100_000


def test_reply_body_is_capped() -> None:
    body = reply_body("T", "g1", "p1", ["x" * 1000] * 1000, [])
    assert len(body) < MAX_REPLY_CHARS + 500 and "This reply was cut" in body


def test_help_mails_to_one_sender_are_few_per_hour(game: PlayedGame) -> None:
    """p1's address is registered; a forger sends mails "from" it without any token."""
    for i in range(10):
        send(message(f"hello {i}", to="pbem@pbem.test", sender="p1@example.org"))
    helps = [m for m in outbox("p1@example.org", "reply") if m.game_id is None]
    assert len(helps) == 3
    assert [r.outcome for r in inbox()].count("help: not identified") == 3
    assert all(r.status == "dropped" and "help limit" in r.outcome for r in inbox()[3:])


def test_a_mail_to_two_seats_names_the_one_it_acted_for(toy, db) -> None:
    from adjudicator.mail.parse import parse
    from adjudicator.service.mail.intake import also_addressed
    from adjudicator.service.people.mailauth import identify
    from tests.support.play import new_game

    game = new_game(seats=3)
    to = [address(game.game_id, "p1"), address(game.game_id, "p2"), "pbem-x+p3-aaaaaaaaaa@pbem.test"]
    mail = parse(bytes(message("bid 1", to=", ".join(to))))
    with store.transaction(write=False) as s:
        who = identify(s, mail.recipients, None, mail.from_addr)
        assert who is not None and who.seat == "p1"
        notice = also_addressed(s, mail.recipients, who)
        assert "acted for p1" in notice and "p2 in" in notice and "p3 in" not in notice  # (a game id may hold "p3")
        assert also_addressed(s, [to[0]], who) == ""


def test_the_reply_to_a_mail_for_two_seats_says_so(game: PlayedGame) -> None:
    to = f"{address(game.game_id, 'p1')}, {address(game.game_id, 'p2')}"
    send(message("bid 1", to=to))
    reply = outbox("p1@example.org", "reply")[-1]
    assert "acted for p1" in reply.body and "nothing was done for p2" in reply.body
    assert not outbox("p2@example.org", "reply")
