"""The mail door does bounded work: a hostile MIME tree or HTML body ends in one reply or one
logged drop, never in a crash, a RecursionError or minutes of HTML conversion (issue 11).
Speed is printed by `pbem bench mail`; these tests check the bounds structurally."""

from __future__ import annotations

import sys
import time

import pytest

from adjudicator.mail import mime
from adjudicator.mail.parse import parse
from tests.mail.conftest import address, inbox, outbox, send
from tests.support.play import PlayedGame


def _deep_mime(depth: int, to: str, sender: str, body: str = "bid 2") -> bytes:
    head = (f"From: {sender}\r\nTo: {to}\r\nSubject: deep\r\nMessage-ID: <deep{depth}{sender}@c>\r\n"
            "MIME-Version: 1.0\r\n")
    parts = [head]
    for i in range(depth):
        parts.append(f"Content-Type: multipart/mixed; boundary=\"b{i}\"\r\n\r\n--b{i}\r\n")
    parts.append(f"Content-Type: text/plain\r\n\r\n{body}\r\n")
    for i in reversed(range(depth)):
        parts.append(f"--b{i}--\r\n")
    return "".join(parts).encode()


def _nested_html(size: int) -> str:
    unit = "<ul><li>x"
    html = unit * (size // len(unit))
    return f"<html><body><p>bid 2</p>{html}</body></html>"


def _html_mail(html: str, to: str, sender: str, mid: str) -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: html\r\nMessage-ID: <{mid}@c>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n").encode()


@pytest.fixture
def no_html2text(monkeypatch: pytest.MonkeyPatch):
    import html2text

    def refuse(*a, **k):
        raise AssertionError("html2text must not run on this mail")

    monkeypatch.setattr(html2text, "HTML2Text", refuse)


def test_deep_mime_from_a_seat_gets_one_clear_reply(game: PlayedGame) -> None:
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(1000)  # the default; a 1,000-level tree once raised RecursionError here
    try:
        send(_deep_mime(1000, address(game.game_id, "p1"), "p1@example.org"))
    finally:
        sys.setrecursionlimit(limit)
    row = inbox()[-1]
    assert row.status == "done", row.outcome
    replies = outbox("p1@example.org", "reply")
    assert len(replies) == 1 and "nested MIME containers" in replies[0].body


def test_deep_mime_from_a_stranger_is_one_logged_drop(game: PlayedGame) -> None:
    send(_deep_mime(1000, "pbem@pbem.test", "stranger@evil.test"))
    row = inbox()[-1]
    assert row.status == "dropped" and "not identified" in row.outcome
    assert not outbox(kind="reply")


def test_a_shallow_tree_still_reads(game: PlayedGame) -> None:
    send(_deep_mime(5, address(game.game_id, "p1"), "p1@example.org"))
    assert inbox()[-1].status == "done" and "bid 2" in outbox("p1@example.org", "reply")[-1].body


def test_huge_nested_html_from_a_stranger_never_reaches_html2text(game: PlayedGame, no_html2text) -> None:
    start = time.perf_counter()
    send(_html_mail(_nested_html(300_000), "pbem@pbem.test", "stranger@evil.test", "h1"))
    print(f"300 KB nested-list HTML from a stranger: {time.perf_counter() - start:.3f} s")
    row = inbox()[-1]
    assert row.status == "dropped" and not outbox(kind="reply")


def test_huge_nested_html_from_a_seat_is_read_cheaply(game: PlayedGame, no_html2text) -> None:
    start = time.perf_counter()
    send(_html_mail(_nested_html(300_000), address(game.game_id, "p1"), "p1@example.org", "h2"))
    print(f"300 KB nested-list HTML from a seat: {time.perf_counter() - start:.3f} s")
    row = inbox()[-1]
    assert row.status == "done", row.outcome
    reply = outbox("p1@example.org", "reply")[-1]
    assert "bid 2" in reply.body and len(reply.body) < 200_000


def test_small_html_from_a_seat_keeps_quoted_blocks_out(game: PlayedGame) -> None:
    html = "<html><body><p>bid 1</p><blockquote><p>bid 3</p></blockquote></body></html>"
    send(_html_mail(html, address(game.game_id, "p1"), "p1@example.org", "h3"))
    assert "bid 1" in outbox("p1@example.org", "reply")[-1].body


def test_cheap_converter() -> None:
    html = ("<html><head><style>p{}</style><title>t</title></head><body><p>bid&nbsp;2</p><div>keep</div>"
            "<blockquote><blockquote>bid 9</blockquote>bid 8</blockquote><script>x</script>"
            "<ul><li>a &amp; b</li></ul><br/>end</body></html>")
    assert mime.cheap_html_to_text(html) == "bid 2\nkeep\na & b\nend\n"
    # output never longer than input, also for runs that once made a regex scan to the end per "<"
    for big in ("<ul><li>" * 50_000, "<a" * 100_000, "<" * 100_000, "<!--" * 50_000, "<blockquote>" * 20_000):
        assert len(mime.cheap_html_to_text(big)) <= len(big) + 1
    assert mime.cheap_html_to_text("a<!-- never closed <p>bid 9") == "a\n"
    assert mime.html_shape("<ul><li>a</li><ul><li>b</li></ul></ul>") == (8, 3)


def test_too_many_parts_and_shape_check() -> None:
    many = ("From: a@b\r\nContent-Type: multipart/mixed; boundary=z\r\n\r\n"
            + "--z\r\nContent-Type: text/plain\r\n\r\nx\r\n" * 600 + "--z--\r\n").encode()
    mail = parse(many)
    assert mail.text == "" and "MIME parts" in mail.problem
    deep = parse(_deep_mime(30, "a@b", "c@d"))  # 30 containers pass the count...
    assert not deep.problem and deep.text == ""  # ... but are never walked deeper than MAX_DEPTH
    assert parse(_deep_mime(19, "a@b", "c@d")).text.strip() == "bid 2"


@pytest.mark.parametrize("unit", ["<a", "<a b='", "<!--", "</", "<?"])
def test_small_html_full_of_unclosed_tags_from_a_seat_is_read_cheaply(unit: str, no_html2text) -> None:
    """64 KB of `<a b='` kept Python's HTML parser (under html2text) busy for 5-25 s; found by
    `pbem bench fuzz`. Such a body now takes the linear converter."""
    html = unit * (60_000 // len(unit))
    started = time.perf_counter()
    mime.html_to_text(html, trusted=True)
    assert time.perf_counter() - started < 2


def test_small_well_formed_html_from_a_seat_still_gets_html2text() -> None:
    text = mime.html_to_text("<p>bid 2</p><blockquote>old orders</blockquote><p>a < b</p>", trusted=True)
    assert "bid 2" in text and "> old orders" in text
