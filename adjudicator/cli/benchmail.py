"""`pbem bench mail [--messages N]`: messages per second from SMTP receipt to the reply in the outbox.

A Doge game on a fresh SQLite file; the built-in listener on a free loopback port; tasks run
inline (PBEM_EAGER=1), so when the SMTP transaction ends the reply row is committed. Every mail is
a real sealed order (the seat replaces its placement each time), so parsing, authentication, the
service and the reply are all measured. Prints `name: value unit` lines.
"""

from __future__ import annotations

import argparse
import os
import smtplib
import socket
import statistics
import tempfile
import time
from email.message import EmailMessage
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench mail", description=__doc__)
    parser.add_argument("--messages", type=int, default=200)
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-"))
    os.environ.update({"PBEM_EAGER": "1", "PBEM_MAIL_DIR": str(tmp / "mail"), "PBEM_MAIL_DNS": "0"})
    os.environ.pop("SMTP_HOST", None)

    from sqlmodel import func, select

    from adjudicator import service, store
    from adjudicator.service.core import find_game, seat_row
    from adjudicator.service.notify import reply_address
    from adjudicator.store import OutboxMessage
    from workers.smtp import start

    store.configure(f"sqlite:///{tmp / 'bench.sqlite'}")
    store.init_db()
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4, title="Bench")
    for i, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            service.join_game(s, created.game_id, seat, invite, f"P{i}", email=f"{seat}@bench.test")
    with store.transaction(write=False) as s:
        g = find_game(s, created.game_id)
        to = reply_address(g, seat_row(s, g, "red"))
        prompt = service.core.current_prompts(g)["red"]
        from adjudicator.engine import get_game

        orders = [get_game("doge").format_order(c) for c in prompt.choices[:2]]

    def replies() -> int:
        with store.transaction(write=False) as s:
            return s.exec(select(func.count(OutboxMessage.id)).where(OutboxMessage.kind == "reply")).one()

    port = _free_port()
    controller = start("127.0.0.1", port)
    latencies: list[float] = []
    try:
        with smtplib.SMTP("127.0.0.1", port) as client:
            started = time.perf_counter()
            for i in range(args.messages):
                msg = EmailMessage()
                msg["From"], msg["To"], msg["Subject"] = "red@bench.test", to, "orders"
                msg["Message-ID"] = f"<bench-{i}@bench.test>"
                msg.set_content(f"{orders[i % 2]}\n")
                t0 = time.perf_counter()
                client.send_message(msg)
                latencies.append(time.perf_counter() - t0)
            elapsed = time.perf_counter() - started
    finally:
        controller.stop()
    count = replies()
    if count != args.messages:
        print(f"error: {count} replies for {args.messages} messages")
        return 1
    ordered = sorted(latencies)
    print(f"mail messages: {args.messages} messages")
    print(f"mail throughput: {args.messages / elapsed:.1f} messages/s")
    print(f"mail latency p50: {statistics.median(ordered) * 1000:.1f} ms")
    print(f"mail latency p99: {ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000:.1f} ms")
    return 0
