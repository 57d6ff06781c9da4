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
    from adjudicator.service.core import find_game, seat_row
    from adjudicator.service.notify import reply_address
    from adjudicator.store import InboxMessage, OutboxMessage

    store.configure(f"sqlite:///{tmp / 'bench.sqlite'}")
    store.init_db()
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=3, title="Bench\r\nBcc: x@y")
    for i, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            service.verified.verify_address(s, f"{seat}@bench.test")  # a confirmed player's: the mails flow
            service.join_game(s, created.game_id, seat, invite, f"P{i}\r\nCc: z@y", email=f"{seat}@bench.test")
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
