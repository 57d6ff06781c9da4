"""Replying to a press mail answers its sender (and is never read as orders); ABSENT by mail and
on the pages; public press on the game page."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import Game, Seat
from tests.mail.conftest import address, message, outbox, send
from tests.support.play import PlayedGame, new_game
from workers.enqueue import enqueue


def test_a_plain_reply_to_press_goes_back_to_the_sender_and_is_never_orders(game: PlayedGame) -> None:
    send(message("PRESS TO p2\nShall we both bid 2?\nENDPRESS", to=address(game.game_id, "p1")))
    [press] = outbox("p2@example.org", "press")
    reply_to = press.headers["Reply-To"]
    assert reply_to != address(game.game_id, "p2") and "+p2-" in reply_to
    assert "nothing in it is read as an order" in press.body
    # p2 presses Reply: order lines and commands in it are press text, not orders
    send(message("bid 3\nRESIGN\nNo, I bid 3.\n\nOn Monday p1 wrote:\n> Shall we both bid 2?",
                 to=reply_to, sender="p2@example.org"))
    assert game.page("p2").receipt is None and not game.page("p2").over
    with store.transaction(write=False) as s:
        [_, answer] = service.press_for(s, game.game_id, "p1", game.tokens["p1"])
        assert not s.exec(select(Seat).where(Seat.resigned == True)).all()  # noqa: E712
    assert answer.sender == "p2" and answer.recipients == ["p1"]
    assert answer.body == "bid 3\nRESIGN\nNo, I bid 3."
    assert "Press sent to p1" in outbox("p2@example.org", "reply")[-1].body
    # p1's copy can be answered in turn
    back = outbox("p1@example.org", "press")[-1]
    assert "+p1-" in back.headers["Reply-To"] and back.headers["Reply-To"] != address(game.game_id, "p1")


def test_press_reply_addresses_cannot_be_moved_to_another_seat(game: PlayedGame) -> None:
    send(message("PRESS TO p2\nhi\nENDPRESS", to=address(game.game_id, "p1")))
    reply_to = outbox("p2@example.org", "press")[0].headers["Reply-To"]
    send(message("as p1", to=reply_to.replace("+p2-", "+p1-"), sender="mallory@evil.test"))
    send(message("", to=reply_to, sender="p2@example.org"))  # an empty reply: told, nothing sent
    with store.transaction(write=False) as s:
        assert len(service.press_for(s, game.game_id, "p1", game.tokens["p1"])) == 1
    assert "was empty" in outbox("p2@example.org", "reply")[-1].body


def test_a_digest_is_answered_at_the_seats_own_address(game: PlayedGame) -> None:
    with store.transaction() as s:
        service.update_settings(s, game.game_id, "p2", game.tokens["p2"], "digest")
    send(message("PRESS TO p2\nhi\nENDPRESS", to=address(game.game_id, "p1")))
    with store.transaction() as s:
        service.send_digests(s)
    [digest] = outbox("p2@example.org", "digest")
    assert digest.headers["Reply-To"] == address(game.game_id, "p2", tagged=True)


def test_absent_by_mail_status_and_cancel(game: PlayedGame) -> None:
    to = address(game.game_id, "p1")
    day = datetime.now(UTC).date()
    first, last = day.isoformat(), (day + timedelta(days=3)).isoformat()
    send(message(f"ABSENT {first} {last}\nSTATUS", to=to))
    body = outbox(kind="reply")[-1].body
    assert f"Absence recorded: {first} to {last} (UTC)" in body and "You are marked absent" in body
    send(message("ABSENT 2020-01-01 2020-01-02", to=to))
    assert "in the past" in outbox(kind="reply")[-1].body
    send(message(f"ABSENT {first} {(day + timedelta(days=30)).isoformat()}", to=to))
    assert "longer than this game allows" in outbox(kind="reply")[-1].body
    send(message("ABSENT", to=to))
    assert f"Your absence: {first} to {last}" in outbox(kind="reply")[-1].body
    send(message("ABSENT cancel", to=to))
    assert "Your absence was cancelled" in outbox(kind="reply")[-1].body
    assert game.page("p1").absence == ""


def test_absences_on_the_seat_and_moderator_pages(tmp_path, toy) -> None:
    from tests.mail.test_outbound_and_web import _app

    app = _app(tmp_path, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    game = new_game(seats=2)
    day = datetime.now(UTC).date()
    base = f"/play/{game.game_id}/p1/{game.tokens['p1']}"
    assert client.post(base + "/mail", data={"action": "absence", "start": day.isoformat(),
                                             "end": (day + timedelta(days=1)).isoformat()}).status_code == 303
    assert b"You are marked absent" in client.get(base).data
    assert b"marked absent" not in client.get(f"/play/{game.game_id}/p2/{game.tokens['p2']}").data
    admin = client.get(f"/admin/{game.game_id}/{game.admin_token}").data.decode()
    assert "Absences" in admin and f"away {day.isoformat()}" in admin
    bad = client.post(base + "/mail", data={"action": "absence", "start": "soon", "end": "later"})
    assert bad.status_code == 400 and b"YYYY-MM-DD" in bad.data
    assert client.post(base + "/mail", data={"action": "absence_cancel"}).status_code == 303
    assert b"You are marked absent" not in client.get(base).data
    store.configure(None)


def _finish(game: PlayedGame) -> None:
    game.submit("p1", "bid 3")
    enqueue(game.submit("p2", "bid 1").tasks)
    if game.page("p1").prompt:
        game.submit("p1", "keep")
    assert game.page("p1").over


def test_public_press_on_the_game_page(tmp_path, toy) -> None:
    from tests.mail.test_outbound_and_web import _app

    client = _app(tmp_path).test_client()
    games = [new_game(seats=2, options={"rounds": 1}) for _ in range(2)]
    with store.transaction() as s:  # the second game publishes its private press at the end
        g = s.exec(select(Game).where(Game.public_id == games[1].game_id)).one()
        g.publish_press = True
        s.add(g)
    for game in games:
        with store.transaction() as s:
            service.send_press(s, game.game_id, "p1", game.tokens["p1"], ["all"],
                               "**Hello** all <script>alert(1)</script>")
            service.send_press(s, game.game_id, "p2", game.tokens["p2"], ["p1"], "secret deal")
    running = client.get(f"/game/{games[0].game_id}").data.decode()
    assert "Hello" not in running and "secret deal" not in running  # nothing public while it runs
    for game in games:
        _finish(game)
    plain, published = (client.get(f"/game/{g.game_id}").data.decode() for g in games)
    assert "<strong>Hello</strong>" in plain and "<script>alert" not in plain
    assert "secret deal" not in plain
    assert "secret deal" in published
    store.configure(None)
