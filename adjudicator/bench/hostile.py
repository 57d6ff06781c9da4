"""`pbem bench hostile [--rounds N]`: hostile and malformed mails through the real intake.

A Doge game on a fresh SQLite file; each crafted mail (deep MIME, huge nested HTML from a seat and
from a stranger, runs of `<`, too many parts, bad charsets, header injection, forged bounces, a
reused Message-ID with new content) is stored and processed by the service exactly as the SMTP
listener does. Prints `name: value unit` lines: per kind the slowest time, and overall the number
of crashes (internal errors) and of messages left unprocessed. Exit status 1 on any of those.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path


def _deep(to: str, sender: str, depth: int, n: int) -> bytes:
    head = f"From: {sender}\r\nTo: {to}\r\nSubject: deep\r\nMessage-ID: <deep-{n}@h.test>\r\nMIME-Version: 1.0\r\n"
    opens = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(depth))
    closes = "".join(f"--b{i}--\r\n" for i in reversed(range(depth)))
    return (head + opens + "Content-Type: text/plain\r\n\r\nSTATUS\r\n" + closes).encode()


def _html(to: str, sender: str, html: str, n: int) -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: html\r\nMessage-ID: <html-{n}@h.test>\r\nMIME-Version: 1.0\r\n"
            f"Content-Type: text/html; charset=utf-8\r\n\r\n{html}\r\n").encode()


def _plain(to: str, sender: str, body: str, n: int, mid: str = "", extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: x{extra}\r\nMessage-ID: {mid or f'<p-{n}@h.test>'}\r\n"
            f"Content-Type: text/plain; charset=x-bogus-42\r\nContent-Transfer-Encoding: quoted-printable\r\n"
            f"\r\n{body}\r\n").encode()


def _parts(to: str, sender: str, count: int, n: int) -> bytes:
    body = "".join("--z\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(count))
    return (f"From: {sender}\r\nTo: {to}\r\nMessage-ID: <parts-{n}@h.test>\r\n"
            f"Content-Type: multipart/mixed; boundary=z\r\n\r\n{body}--z--\r\n").encode()


def _bounce(n: int, mid: str) -> bytes:
    return ("From: MAILER-DAEMON@mx.test\r\nTo: pbem@bench.test\r\nSubject: Undelivered\r\n"
            f"Message-ID: <bounce-{n}@mx.test>\r\nIn-Reply-To: {mid}\r\n\r\nATTACKER TEXT\r\n").encode()


# Press bodies (10,000 characters, the cap) of the shapes that cost the `markdown` package seconds
# to a minute each (issue 26); tests/mail/test_user_text.py runs them and mixes of them.
HOSTILE_PRESS = {
    "images": "![",
    "brackets": "[",
    "40 lines of images": "\n".join(["![" * 249] * 40),
    "empty links": "[]",
    "unclosed targets": "[](",
    "unclosed titles": '[](x "',
    "nested brackets": "[" * 2500 + "a" + "](x)" * 1875,
    "emphasis runs": "*a",
    "underscores": "a_",
    "strong runs": "**a",
    "mixed emphasis": "*_",
    "brackets and emphasis": "[*",
    "block quotes": ">",
    "quote lines": "> a\n",
    "lazy quotes": ">a\nb\n",
    "list items": "- a\n",
    "numbered items": "1. ",
    "nested lists": "".join("  " * i + "- a\n" for i in range(400)),
    "backticks": "` `` ",
    "autolinks": "<http://a",
    "angle brackets": "<",
    "backslashes": "\\",
    "fences": "```\n",
    "setext": "a\n=\n",
    "line breaks": "a  \n",
    "everything": "*[_![`<>&\\]",
}


def hostile_press(unit: str, size: int = 10_000) -> str:
    """`unit` repeated to `size` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def _press_bodies(game_id: str, tokens: dict[str, str], slowest: dict[str, float]) -> None:
    """Each hostile press body sent from red to every seat, its mails built and the recipient's
    page rendered: the slowest of the whole path, and of its rendering alone."""
    from sqlmodel import select

    from adjudicator import service, store
    from adjudicator.render.usertext import user_text_html
    from adjudicator.store import OutboxMessage
    from workers.mailer import message_bytes

    user_text_html("*warm* [up](x)")  # the first call builds the sanitiser
    render: tuple[float, str] = (0.0, "")
    for name, unit in HOSTILE_PRESS.items():
        text = hostile_press(unit)
        user_text_html.cache_clear()
        t0 = time.process_time()  # CPU of this process: the budget is work, not the machine's load
        user_text_html(text)
        render = max(render, (time.process_time() - t0, name))
        user_text_html.cache_clear()
        t0 = time.perf_counter()
        with store.transaction() as s:
            tasks = service.send_press(s, game_id, "red", tokens["red"], ["all"], text)
        with store.transaction(write=False) as s:
            for _kind, row_id in tasks:
                message_bytes(s.exec(select(OutboxMessage).where(OutboxMessage.id == row_id)).one())
            for seat in tokens:
                if seat != "red":
                    service.press_for(s, game_id, seat, tokens[seat])
        slowest[f"press {name} (send, mails, pages)"] = time.perf_counter() - t0
    slowest[f"press rendering alone (CPU), slowest body ({render[1]})"] = render[0]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench hostile", description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="how many times each kind is sent")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-hostile-"))
    os.environ.update({"PBEM_EAGER": "1", "PBEM_MAIL_DIR": str(tmp / "mail"), "PBEM_MAIL_DNS": "0",
                       "PBEM_MAIL_DOMAIN": "bench.test"})
    os.environ.pop("SMTP_HOST", None)

    from sqlmodel import select

    from adjudicator import service, store
    from adjudicator.service.common.core import find_game, seat_row
    from adjudicator.service.play.notify import reply_address
    from adjudicator.store import InboxMessage, OutboxMessage

    store.configure(f"sqlite:///{tmp / 'bench.sqlite'}")
    store.init_db()
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=3, title="Bench\r\nBcc: x@y")
    tokens: dict[str, str] = {}
    for i, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            service.common.verified.verify_address(s, f"{seat}@bench.test")  # a confirmed player's: the mails flow
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, f"P{i}\r\nCc: z@y",
                                             email=f"{seat}@bench.test").seat_token
    with store.transaction(write=False) as s:
        g = find_game(s, created.game_id)
        seat = seat_row(s, g, "red")
        to = reply_address(g, seat)
    me, stranger, nobody = "red@bench.test", "stranger@evil.test", "pbem@bench.test"
    kinds: dict[str, Callable[[int], bytes]] = {
        "deep MIME 1000 (seat)": lambda n: _deep(to, me, 1000, n),
        "deep MIME 1000 (stranger)": lambda n: _deep(nobody, stranger, 1000, n + 10_000),
        "nested-list HTML 300 KB (seat)": lambda n: _html(to, me, "<ul><li>x" * 33_000, n),
        "nested-list HTML 300 KB (stranger)": lambda n: _html(nobody, stranger, "<ul><li>x" * 33_000, n + 10_000),
        "run of '<a' 300 KB (seat)": lambda n: _html(to, me, "<a" * 150_000, n + 20_000),
        "600 MIME parts (seat)": lambda n: _parts(to, me, 600, n),
        "bad charset and QP (seat)": lambda n: _plain(to, me, "STATUS=\r\n=ZZ=FF", n),
        "header injection in subject (seat)": lambda n: _plain(to, me, "HELP", n + 30_000, extra="\r\n\tBcc: x@y"),
        "forged bounce quoting a guessed Message-ID": lambda n: _bounce(n, f"<pbem-{n + 1}-1700000000@bench.test>"),
        "reused Message-ID, new content (seat)": lambda n: _plain(to, me, f"HELP {n}", n, mid="<same@h.test>"),
    }
    slowest: dict[str, float] = {}
    ids: list[int] = []
    _press_bodies(created.game_id, tokens, slowest)
    for n in range(args.rounds):
        for name, make in kinds.items():
            raw = make(n)
            t0 = time.perf_counter()
            with store.transaction() as s:
                tasks = service.receive_mail(s, raw, "smtp", stranger, [], "127.0.0.1")
            for task in tasks:
                with store.transaction() as s:
                    service.process_mail(s, task[1])
                ids.append(task[1])
            slowest[name] = max(slowest.get(name, 0.0), time.perf_counter() - t0)
    with store.transaction(write=False) as s:
        rows = s.exec(select(InboxMessage)).all()
        pending = s.exec(select(OutboxMessage.id).where(OutboxMessage.status == "pending")).all()
    from workers.mailer import deliver

    statuses = [deliver(i) for i in pending]  # every reply (and the game's own mail) must build and send
    crashes = sum(1 for r in rows if r.outcome.startswith("internal error"))
    stuck = sum(1 for r in rows if r.status == "new")
    for name, seconds in slowest.items():
        print(f"hostile {name}: {seconds * 1000:.0f} ms slowest")
    print(f"hostile messages: {len(rows)} stored ({len(ids)} processed)")
    print(f"hostile replies: {sum(1 for r in rows if r.status == 'done')} messages answered")
    print(f"hostile drops: {sum(1 for r in rows if r.status == 'dropped')} messages dropped with a logged reason")
    print(f"hostile crashes: {crashes} messages")
    print(f"hostile stuck: {stuck} messages")
    print(f"hostile outgoing: {statuses.count('sent')} of {len(statuses)} mails sent")
    return 1 if crashes or stuck or statuses.count("sent") != len(statuses) else 0
