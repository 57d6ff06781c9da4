"""Press and the moderator's broadcast are rendered once, when written (issue 26): the stored HTML
is what pages show and what mails carry (a digest too); rows older than the column are rendered
on read. On SQLite and PostgreSQL."""

from __future__ import annotations

import time

from sqlmodel import select

from adjudicator import service, store
from adjudicator.render.usertext import user_text_html
from adjudicator.store import Press
from tests.mail.conftest import outbox
from tests.support.play import PlayedGame
from workers.mailer import message_bytes

HOSTILE = "![" * 5000  # 76 s on a page and 71 s in the worker before


def _press(game: PlayedGame, text: str, to: str = "p2") -> None:
    with store.transaction() as s:
        service.send_press(s, game.game_id, "p1", game.tokens["p1"], [to], text)


def test_the_stored_html_is_what_pages_and_mails_show(game: PlayedGame) -> None:
    _press(game, "Shall we *share*? <script>x()</script>")
    with store.transaction(write=False) as s:
        [row] = s.exec(select(Press)).all()
        [line] = service.press_for(s, game.game_id, "p2", game.tokens["p2"])
    assert row.html == "<p>Shall we <em>share</em>? &lt;script&gt;x()&lt;/script&gt;</p>"
    assert line.html == row.html
    [mail] = outbox("p2@example.org", "press")
    assert row.html in mail.html and "<h1>" in mail.html and "nothing in it is read as an order" in mail.html
    assert "Shall we *share*? <script>x()</script>" in mail.body  # the plain text part: as written
    raw = message_bytes(mail).decode()
    assert "<em>share</em>" in raw and "<script>" not in raw.split("text/html")[1]


def test_the_worst_body_costs_little_to_send_mail_and_read(game: PlayedGame) -> None:
    start = time.perf_counter()
    _press(game, HOSTILE)
    [mail] = outbox("p2@example.org", "press")
    raw = message_bytes(mail)
    with store.transaction(write=False) as s:
        [line] = service.press_for(s, game.game_id, "p2", game.tokens["p2"])
    seconds = time.perf_counter() - start
    assert seconds < 2.0, f"{seconds:.2f} s"
    assert line.html == "<p>" + HOSTILE + "</p>" and b"![![![" in raw


def test_rows_from_before_the_column_are_rendered_when_read(game: PlayedGame) -> None:
    _press(game, "**old** press")
    with store.transaction() as s:
        row = s.exec(select(Press)).one()
        row.html = None  # as the migration leaves a row written before it
        s.add(row)
    with store.transaction(write=False) as s:
        [line] = service.press_for(s, game.game_id, "p2", game.tokens["p2"])
    assert line.html == "<p><strong>old</strong> press</p>"


def test_the_broadcast_is_stored_and_a_digest_carries_the_stored_html(game: PlayedGame) -> None:
    with store.transaction() as s:
        service.update_settings(s, game.game_id, "p2", game.tokens["p2"], "digest")
    text = "Round two starts *now*\n\n" + "[" * 3000
    with store.transaction() as s:
        service.broadcast(s, game.game_id, game.admin_token, text)
    with store.transaction(write=False) as s:
        row = s.exec(select(Press).where(Press.sender == "moderator")).one()
    assert row.html == user_text_html(text) and "<em>now</em>" in row.html
    [held] = outbox("p2@example.org", "press")
    assert held.status == "held" and row.html in held.html
    with store.transaction() as s:
        service.send_digests(s)
    [digest] = outbox("p2@example.org", "digest")
    assert row.html in digest.html and "Daily digest" in digest.html
