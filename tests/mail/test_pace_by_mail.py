"""Pace by mail (issue 10): several decisions in one mail, one reply, no "your move" mail for the
decisions it answered; standing orders by mail; civil disorder ends on the seat's next mail."""

from __future__ import annotations

from datetime import timedelta

from adjudicator import service, store
from adjudicator.service import DeadlinePolicy
from tests.mail.conftest import address, message, outbox, send
from tests.support.play import new_game


def test_a_five_line_mail_gets_one_reply_and_no_move_mail(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 3})
    assert send(message("ALWAYS bid: bid 0", to=address(game.game_id, "p2"), sender="p2@example.org"))
    before = len(outbox("p1@example.org"))
    assert send(message("bid 3\nkeep\nbid 3\nkeep\nbid 3", to=address(game.game_id, "p1")))
    new = outbox("p1@example.org")[before:]
    assert [m.kind for m in new] == ["reply"], "exactly one mail: the reply"
    body = new[0].body
    for line in ("bid 3", "keep"):
        assert f"    {line}" in body
    assert "## Since your last mail" in body and "## Now" in body and "keep" in body.split("## Now")[1]
    assert game.page("p1").prompt["kind"] == "choose"


def test_standing_orders_by_mail_are_listed_and_cleared_and_stay_secret(db, toy) -> None:
    game = new_game(seats=2)
    send(message("bid 0", to=address(game.game_id, "p1")))
    send(message("bid 3", to=address(game.game_id, "p2"), sender="p2@example.org"))  # p2 wins, chooses
    send(message("LATER bid 2\nALWAYS choose: double\nSTANDING", to=address(game.game_id, "p1")))
    reply = outbox("p1@example.org", "reply")[-1].body
    assert "1. `LATER bid 2`" in reply and "2. `ALWAYS choose: double`" in reply
    others = [m.body for m in outbox() if m.to != "p1@example.org"]
    assert not any("LATER bid 2" in b or "ALWAYS choose" in b for b in others)
    send(message("STANDING CLEAR", to=address(game.game_id, "p1")))
    assert "Standing orders cleared (2)" in outbox("p1@example.org", "reply")[-1].body
    assert game.page("p1").standing == []


def test_civil_disorder_ends_with_the_seats_next_mail(db, toy) -> None:
    game = new_game(seats=2, options={"rounds": 5}, policy=DeadlinePolicy(step_hours=1, disorder_after=1))
    now = service.utcnow()
    send(message("bid 3", to=address(game.game_id, "p1")))
    with store.transaction() as s:
        service.sweep_deadlines(s, now + timedelta(hours=2))
    assert game.public().seats[1].disorder
    assert len(outbox("p2@example.org", "disorder")) == 1
    send(message("STATUS", to=address(game.game_id, "p2"), sender="p2@example.org"))
    assert not game.public().seats[1].disorder
