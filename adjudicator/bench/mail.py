"""`pbem bench mail [--messages N] [--connections C] [--latency L] [--eager] [--backend B]`: order mails
from SMTP receipt to the reply in the outbox, on the embedded default (`--backend postgres`:
PostgreSQL and Redis, set up as `pbem bench burst` does; the workers are `--pool solo` there too,
so that their CPU is measured).

Doge games on a fresh SQLite file, the built-in SMTP listener on a free loopback port and real
Celery workers on the embedded broker (`--pool solo`, as many as `pbem run` starts: one per core,
at most 4; `--workers`), all private to the run; `--eager` runs the tasks inline in the listener
instead (PBEM_EAGER=1). Every mail is a real
sealed order (three seats of each game replace their placements again and again), so parsing,
authentication, the service and the reply are all measured. The mails are spread over `--games`
games (default 50, as a server sees them: 150 distinct seats and sender addresses), not a few
games whose rows stay hot.

- throughput: N mails sent over C connections at once; the clock stops when the last reply row
  is in the outbox. Baseline, same run, same mails and connections: aiosmtpd with a handler that
  parses each message and inserts it into a table of the same database (the floor of any intake
  that stores what it accepts). The ratio project / baseline is printed: the target is ≥ 0.8.
- latency: L mails one at a time, each from the start of its SMTP transaction to its reply row.
  Baseline, same run: the same work done inline in this process (store the mail, process it:
  the reply row is in), without SMTP and without the hop through the broker to the worker.
- CPU per message: this process (listener, senders, polling for replies) and the workers (until
  every reply is delivered) beside the baseline's process (server and senders): on a busy
  machine a steadier figure than the clock.

Prints `name: value unit` lines.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from adjudicator.cli.run import default_workers

from .burst import ROOT, _database
from .openloop import percentile


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


Seats = list[tuple[str, str, list[str]]]  # (reply address, registered address, two orders)


Wire = tuple[str, list[str], bytes]  # (envelope sender, recipients, the message's bytes)


def _mails(count: int, seats: Seats, prefix: str) -> list[Wire]:
    """Order mails as they go on the wire, flattened here: the senders only send (they share the
    machine's two cores with what is measured, in the baseline as in the project's figure)."""
    mails = []
    for i in range(count):
        to, sender, orders = seats[i % len(seats)]
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, to, "orders"
        msg["Message-ID"] = f"<{prefix}-{i}@bench.test>"
        msg.set_content(f"{orders[(i // len(seats)) % 2]}\n")
        mails.append((sender, [to], msg.as_bytes(policy=msg.policy.clone(linesep="\r\n"))))  # as send_message
    return mails


def _send_all(port: int, mails: list[Wire], connections: int) -> None:
    def sender(part: list[Wire]) -> None:
        with smtplib.SMTP("127.0.0.1", port) as client:
            for envelope_from, to, raw in part:
                client.sendmail(envelope_from, to, raw)

    threads = [threading.Thread(target=sender, args=(mails[k::connections],)) for k in range(connections)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _make_games(count: int) -> Seats:
    """(reply address, registered address, two orders) of every seat but one in each game: the sealed group never
    completes, so every mail meets the same decision."""
    from adjudicator import service, store
    from adjudicator.engine import get_game
    from adjudicator.service.common.core import current_prompts, find_game, seat_row
    from adjudicator.service.play.notify import reply_address

    doge = get_game("doge")
    seats = []
    for n in range(count):
        with store.transaction() as s:
            created = service.create_game(s, game="doge", seats=4, title=f"Bench {n}")
        for i, (seat, invite) in enumerate(created.invites.items()):
            with store.transaction() as s:
                service.common.verified.verify_address(s, f"{seat}{n}@bench.test")  # a confirmed player's: mails flow
                service.join_game(s, created.game_id, seat, invite, f"P{i}", email=f"{seat}{n}@bench.test")
        with store.transaction(write=False) as s:
            g = find_game(s, created.game_id)
            prompts = current_prompts(g)
            for seat in list(created.invites)[:-1]:
                orders = [doge.format_order(c) for c in prompts[seat].choices[:2]]
                seats.append((reply_address(g, seat_row(s, g, seat)), f"{seat}{n}@bench.test", orders))
    return seats


def _replies() -> int:
    from sqlmodel import func, select

    from adjudicator import store
    from adjudicator.store import OutboxMessage

    with store.transaction(write=False) as s:
        return s.exec(select(func.count(OutboxMessage.id)).where(OutboxMessage.kind == "reply")).one()


def _pending() -> int:
    from sqlmodel import func, select

    from adjudicator import store
    from adjudicator.store import OutboxMessage

    with store.transaction(write=False) as s:
        return s.exec(select(func.count(OutboxMessage.id)).where(
            OutboxMessage.status == "pending", OutboxMessage.kind == "reply")).one()


def _wait_idle(timeout: float) -> None:
    """Until the worker has sent every reply (so a latency mail does not queue behind them)."""
    deadline = time.perf_counter() + timeout
    while _pending() and time.perf_counter() < deadline:
        time.sleep(0.01)


def _wait_for(count: int, timeout: float, poll: float = 0.002) -> bool:
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if _replies() >= count:
            return True
        time.sleep(poll)
    return False


def _cpu_seconds(pids: list[int]) -> float:
    """User + system CPU of these processes so far (Linux /proc; 0 elsewhere)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15 of stat)
    return total / os.sysconf("SC_CLK_TCK")


@contextmanager
def _workers(tmp: Path, env: dict[str, str], count: int) -> Iterator[list[int]]:
    """`count` worker processes, each `--pool solo`, as `pbem run` starts them (without beat)."""
    log = (tmp / "worker.log").open("wb")
    # this checkout's code in the workers too (they start in the run's folder), as bench burst does
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    procs = [subprocess.Popen([sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker", "--pool", "solo",
                               "-n", f"bench{n + 1}@%h", "--loglevel", "WARNING", "--without-mingle",
                               "--without-gossip", "--without-heartbeat"],
                              env={**os.environ, **env, "PYTHONPATH": path}, stdout=log, stderr=subprocess.STDOUT,
                              cwd=tmp)
             for n in range(count)]
    try:
        yield [proc.pid for proc in procs]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(30)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        log.close()


class _BaselineHandler:
    """Parse and insert, nothing else (see the module doc)."""

    def __init__(self) -> None:
        from sqlalchemy import text

        from adjudicator import store

        blob = "BLOB" if store.is_sqlite() else "BYTEA"
        with store.transaction() as s:
            s.connection().execute(text("CREATE TABLE IF NOT EXISTS bench_mail "
                                        f"(message_id TEXT PRIMARY KEY, raw {blob}, subject TEXT)"))

    def insert(self, raw: bytes) -> None:
        from sqlalchemy import text

        from adjudicator import store
        from adjudicator.mail.parse import parse

        mail = parse(raw)
        with store.transaction() as s:
            s.connection().execute(text("INSERT INTO bench_mail VALUES (:id, :raw, :subject)"),
                                   {"id": mail.message_id, "raw": raw, "subject": mail.subject})

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content or b""
        await asyncio.get_running_loop().run_in_executor(None, self.insert, raw)
        return "250 2.0.0 accepted"


def _baseline(mails: list[Wire], connections: int) -> tuple[float, float]:
    """(seconds, CPU seconds of this process: server and senders)."""
    from aiosmtpd.controller import Controller

    port = _free_port()
    controller = Controller(_BaselineHandler(), hostname="127.0.0.1", port=port)
    controller.start()
    try:
        started, cpu = time.perf_counter(), time.process_time()
        _send_all(port, mails, connections)
        return time.perf_counter() - started, time.process_time() - cpu
    finally:
        controller.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench mail", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--connections", type=int, default=8)
    parser.add_argument("--latency", type=int, default=50, help="mails sent one at a time for the latency")
    parser.add_argument("--games", type=int, default=50,
                        help="games the mails are spread over (three seats each, distinct addresses)")
    parser.add_argument("--eager", action="store_true", help="tasks inline in the listener, no worker")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="worker processes (default: as many as `pbem run` starts, one per core, at most 4)")
    parser.add_argument("--backend", choices=("embedded", "postgres"), default="embedded",
                        help="embedded: SQLite and the SQLite broker; postgres: a fresh schema in PBEM_TEST_PG_URL's "
                             "database and Redis (PBEM_TEST_REDIS_URL), as `pbem bench burst`")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-mail-"))
    with _database(args.backend, tmp) as (db_url, broker_url):
        env = {"PBEM_MAIL_DIR": str(tmp / "mail"), "PBEM_MAIL_DNS": "0", "DATABASE_URL": db_url,
               "CELERY_BROKER_URL": broker_url, "PBEM_VAR_DIR": str(tmp / "var"),
               "PBEM_CELERY_QUEUE": f"bench-mail-{secrets.token_hex(4)}", "PBEM_MAIL_REPLIES_PER_HOUR": "1000000"}
        os.environ.update(env)
        for name in ("SMTP_HOST", "REDIS_URL"):
            os.environ.pop(name, None)
        if args.eager:
            os.environ["PBEM_EAGER"] = "1"
        else:
            os.environ.pop("PBEM_EAGER", None)
        from adjudicator import store

        try:
            return _run(args, env, tmp)
        finally:
            store.configure(None)  # its connections closed before the schema is dropped


def _run(args: argparse.Namespace, env: dict[str, str], tmp: Path) -> int:
    from adjudicator import store
    from workers.celery_app import make_celery
    from workers.smtp import start

    store.configure(env["DATABASE_URL"])
    store.init_db()
    seats = _make_games(args.games)
    broker = "the embedded broker" if args.backend == "embedded" else "Redis"
    mode = "inline tasks (PBEM_EAGER)" if args.eager else f"real workers on {broker}"
    print(f"mail mode: {mode}")
    stores = "SQLite and its broker" if args.backend == "embedded" else "PostgreSQL and Redis"
    print(f"mail backend: {args.backend} ({stores})")
    if not args.eager:
        print(f"mail workers: {args.workers} processes")
    print(f"mail messages: {args.messages} messages over {args.connections} connections, "
          f"{args.games} games, {len(seats)} seats")
    baseline, baseline_cpu = _baseline(_mails(args.messages, seats, "baseline"), args.connections)
    print(f"mail baseline aiosmtpd + parse + insert: {args.messages / baseline:.1f} messages/s")
    print(f"mail baseline CPU: {baseline_cpu / args.messages * 1000:.2f} ms/message")

    app = make_celery()
    port = _free_port()
    controller = start("127.0.0.1", port, app=app)
    try:
        with _workers(tmp, env, args.workers) if not args.eager else _no_worker() as pids:
            _send_all(port, _mails(2, seats, "warm"), 1)  # the worker's imports and first connection
            if not _wait_for(2, 60):
                print("error: the worker answered no mail within 60 s")
                return 1
            _wait_idle(60)
            mails = _mails(args.messages, seats, "bench")  # built before the clock, as the baseline's are
            started, cpu, workers_cpu = time.perf_counter(), time.process_time(), _cpu_seconds(pids)
            _send_all(port, mails, args.connections)
            done = _wait_for(2 + args.messages, 600, poll=0.02)  # a poll costs this process CPU too
            elapsed = time.perf_counter() - started
            cpu = time.process_time() - cpu  # the listener, the senders and the polling for replies
            _wait_idle(600)  # the replies' delivery is the workers' work too
            workers_cpu = _cpu_seconds(pids) - workers_cpu
            latencies = []
            for i, msg in enumerate(_mails(args.latency, seats, "latency")):
                _wait_idle(600)
                before = _replies()
                t0 = time.perf_counter()
                _send_all(port, [msg], 1)
                if not _wait_for(before + 1, 30):
                    print(f"error: no reply to latency mail {i} within 30 s")
                    return 1
                latencies.append(time.perf_counter() - t0)
    finally:
        controller.stop()
    if not done:
        print(f"error: {_replies() - 2} replies for {args.messages} messages after 600 s")
        return 1
    print(f"mail throughput: {args.messages / elapsed:.1f} messages/s")
    print(f"mail throughput ratio to baseline: {baseline / elapsed:.2f}")
    print(f"mail CPU: {(cpu + workers_cpu) / args.messages * 1000:.2f} ms/message "
          f"(this process {cpu / args.messages * 1000:.2f}, workers {workers_cpu / args.messages * 1000:.2f})")
    print(f"mail latency p50: {statistics.median(latencies) * 1000:.1f} ms")
    print(f"mail latency p90: {percentile(latencies, 0.90) * 1000:.1f} ms")
    print(f"mail latency p99: {percentile(latencies, 0.99) * 1000:.1f} ms")
    inline = _inline_latencies(_mails(args.latency, seats, "inline"))
    print(f"mail latency baseline same work inline p50: {statistics.median(inline) * 1000:.1f} ms")
    print(f"mail latency baseline same work inline p90: {percentile(inline, 0.90) * 1000:.1f} ms")
    store.configure(None)
    return 0


def _inline_latencies(mails: list[Wire]) -> list[float]:
    from adjudicator import service, store

    latencies = []
    for sender, to, raw in mails:
        t0 = time.perf_counter()
        tasks = store.run_in_transaction(lambda s, raw=raw, sender=sender, to=to: service.receive_mail(
            s, raw, "smtp", sender, to, "127.0.0.1"))
        for _kind, inbox_id in tasks:
            store.run_in_transaction(lambda s, inbox_id=inbox_id: service.process_mail(s, inbox_id))
        latencies.append(time.perf_counter() - t0)
    return latencies


@contextmanager
def _no_worker() -> Iterator[list[int]]:
    yield []
