"""The fault-injection suite behind `pbem chaos` (issue 15, "nothing lost").

It starts a deployment shape on this machine, all of it private to the run: gunicorn (web), two
Celery workers (prefork, two children each), beat, the SMTP listener, and either a private
PostgreSQL (initdb/pg_ctl) and Redis (redis-server) or the embedded default (SQLite, the SQLite
broker). Outbound mail goes by SMTP to a sink in this process, which counts every delivery per
outbox row, so a mail sent twice is seen (the .eml directory would overwrite it).

Scenario: N Doge games whose deadline falls at one moment (the burst), a stream of order mails
over SMTP into M other games, and meanwhile: SIGKILL of worker children and of the web app, two
beats at once, a broker restart (its queue is not persisted: every wake-up in it is lost), a
database restart, and the broker stopped for a while. On the embedded default the "outages" are
an exclusive lock held on the broker's and the database's SQLite file.

The burst starts once the set-up's own mail is sent. Then it waits until everything is drained
(printing the backlog every 10 s) and prints the figures: games adjudicated 0 / 1 / 2+ times for
the deadline, mails accepted vs processed, notifications due vs sent once / twice / never (the
repeats split into resends under the row's one Message-ID and true doubles under two), and the
time to drain after the last fault. The knobs it sets for its processes
(PBEM_SWEEP_SECONDS, PBEM_RECOVERY_SECONDS, PBEM_RECOVERY_GRACE_SECONDS, PBEM_SEND_LEASE_SECONDS)
make the recovery sweep act within seconds instead of minutes.
"""

from __future__ import annotations

import contextlib
import os
import random
import secrets
import shutil
import signal
import smtplib
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SENDERS = 4  # sending servers delivering the order mails at once
PG_BIN = Path(os.environ.get("PBEM_PG_BIN", "/usr/local/bin"))


# --- settings -----------------------------------------------------------------------------------

@dataclass
class Plan:
    games: int = 1000  # games in the deadline burst
    mail_games: int = 20  # games the order mails go to
    mails: int = 600  # inbound order mails over SMTP
    mail_seconds: float = 120.0  # the stream is spread over this long
    rounds: int = 3  # how often the kill sequence is repeated
    outage: float = 60.0  # seconds the broker is stopped
    db_outage: float = 5.0  # seconds a database restart (or SQLite lock) lasts
    drain_timeout: float = 1200.0
    # a grace shorter than the queue's wait re-enqueues rows whose task is only waiting (harmless,
    # but it lengthens the queue): seconds here, two minutes in production
    grace: float = 60.0  # PBEM_RECOVERY_GRACE_SECONDS
    sweep: float = 20.0  # PBEM_SWEEP_SECONDS (queued deadline sweeps expire after three of these)
    recovery: float = 10.0  # PBEM_RECOVERY_SECONDS
    lease: float = 30.0  # PBEM_SEND_LEASE_SECONDS


def short_plan() -> Plan:
    return Plan(games=50, mail_games=4, mails=60, mail_seconds=20, rounds=1, outage=6, db_outage=3,
                drain_timeout=120, grace=15, sweep=8, recovery=3, lease=10)


def services_available() -> str | None:
    """None if PostgreSQL and Redis can be started here, else why not."""
    missing = [str(p) for p in (PG_BIN / "initdb", PG_BIN / "pg_ctl") if not p.exists()]
    if not shutil.which("redis-server"):
        missing.append("redis-server")
    if missing:
        return "not installed: " + ", ".join(missing)
    if os.geteuid() == 0 and not shutil.which("runuser"):
        return "running as root without runuser (PostgreSQL refuses to run as root)"
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _log(msg: str) -> None:
    print(f"[chaos {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# --- private services -----------------------------------------------------------------------------

class PrivateRedis:
    """redis-server on its own port without persistence: a restart loses every queued message."""

    def __init__(self, tmp: Path) -> None:
        self.port, self.dir = free_port(), tmp / "redis"
        self.dir.mkdir()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        with (self.dir / "redis.log").open("ab") as out:
            self.proc = subprocess.Popen(
                [shutil.which("redis-server") or "redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                 "--save", "", "--appendonly", "no", "--dir", str(self.dir)],
                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
        _wait(lambda: _connectable(self.port), "redis-server", 15)

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


class PrivatePostgres:
    """A throwaway cluster (initdb) on its own port; as root, run as the `postgres` user."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="pbem-chaos-pg-"))
        self.data = self.dir / "data"
        self.as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        if self.as_user:
            shutil.chown(self.dir, "postgres")

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/pbem"

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)

    def init(self) -> None:
        self._run(str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust",
                  "-E", "UTF8", "--no-sync")
        self.start()
        from sqlalchemy import create_engine, text

        admin = create_engine(self.url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
        with admin.connect() as conn:
            conn.execute(text("CREATE DATABASE pbem"))
        admin.dispose()

    def start(self) -> None:
        # fsync off: the faults are process deaths, not power cuts
        opts = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                "-c max_connections=300")
        self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-l", str(self.dir / "pg.log"), "-o", opts,
                  "-w", "start")

    def stop(self, mode: str = "immediate") -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(PG_BIN / "pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


def _connectable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _wait(check: Callable[[], bool], what: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"timed out waiting for {what}")
        time.sleep(0.2)


def hold_sqlite_lock(path: Path, seconds: float) -> None:
    """Hold an exclusive lock on a SQLite file: to everyone else it is down for `seconds`."""
    conn = sqlite3.connect(str(path), timeout=30, isolation_level=None)
    try:
        conn.execute("BEGIN EXCLUSIVE")
        time.sleep(seconds)
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")
        conn.close()


# --- the SMTP sink ----------------------------------------------------------------------------------

class Sink:
    """Counts deliveries per (outbox id, recipient), from our stable Message-IDs, and keeps the
    Message-IDs each (outbox id, recipient) arrived with: a mailbox that drops a message whose
    Message-ID it holds already (as Gmail does, and Dovecot's or procmail's duplicate filters)
    shows a row once unless it came with two different Message-IDs."""

    def __init__(self) -> None:
        self.port = free_port()
        self.counts: Counter[tuple[int, str]] = Counter()
        self.message_ids: dict[tuple[int, str], set[str]] = {}
        self.foreign = 0
        self.repeats: list[str] = []  # "time outbox-id recipient" of every repeated delivery
        self.lock = threading.Lock()
        self.controller: Any = None

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        from adjudicator.mail.bounce import parse_outbox_message_id

        headers = BytesHeaderParser().parsebytes(envelope.original_content or envelope.content or b"")
        parsed = parse_outbox_message_id(str(headers.get("Message-ID") or ""))
        with self.lock:
            if parsed is None:
                self.foreign += 1
            for rcpt in envelope.rcpt_tos:
                if parsed is not None:
                    key = (parsed[0], rcpt.lower())
                    self.counts[key] += 1
                    if self.counts[key] > 1:
                        self.repeats.append(f"{time.strftime('%H:%M:%S')} {key[0]} {key[1]}")
                    self.message_ids.setdefault(key, set()).add(str(headers.get("Message-ID")))
        return "250 2.0.0 ok"

    def start(self) -> None:
        from aiosmtpd.controller import Controller

        self.controller = Controller(self, hostname="127.0.0.1", port=self.port)
        self.controller.start()

    def stop(self) -> None:
        if self.controller is not None:
            self.controller.stop()


# --- processes --------------------------------------------------------------------------------------

class Proc:
    """One service process (its own session, so its children can be found and killed with it)."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], tmp: Path) -> None:
        self.name, self.argv, self.env, self.tmp = name, argv, env, tmp
        self.log = tmp / f"{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(self.argv, cwd=self.tmp, env=self.env, stdout=out,
                                         stderr=subprocess.STDOUT, start_new_session=True)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        if self.proc and self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, sig)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(20)
        if self.proc and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()

    def children(self) -> list[int]:
        if not self.proc:
            return []
        found = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == self.proc.pid:
                found.append(int(stat.parent.name))
        return found


# --- the run ----------------------------------------------------------------------------------------

@dataclass
class Figures:
    backend: str
    games: Counter[str] = field(default_factory=Counter)  # "0", "1", "2+"
    mails_sent: int = 0
    mails_accepted: int = 0
    mails_stored: int = 0
    mails_processed: int = 0
    mails_failed: int = 0
    mails_waiting: int = 0
    due: int = 0
    sent_once: int = 0
    sent_twice: int = 0  # rows that went over SMTP twice or more, of which:
    resent_same_id: int = 0  # every time under its one Message-ID (recipients' mail systems drop the repeat)
    true_doubles: int = 0  # under two or more Message-IDs: two different mails for one notification
    never_sent: int = 0
    outbox_status: Counter[str] = field(default_factory=Counter)
    worker_kills: int = 0
    faults: list[str] = field(default_factory=list)
    drained: bool = False
    drain_seconds: float = 0.0
    total_seconds: float = 0.0
    web_ok: int = 0
    web_failed: int = 0
    restarts: list[str] = field(default_factory=list)  # processes that exited by themselves, started again

    @property
    def ok(self) -> bool:
        """Nothing lost, no deadline adjudicated twice. A mail sent twice is allowed only in the one
        documented window (a worker killed between the SMTP server's 250 and recording `sent`), so
        at most once per killed worker child, and always under the row's one Message-ID: a true
        double (two Message-IDs for one row) fails the run."""
        return (self.drained and self.games["0"] == 0 and self.games["2+"] == 0
                and self.mails_processed == self.mails_accepted == self.mails_stored
                and self.never_sent == 0 and self.sent_twice <= self.worker_kills and self.true_doubles == 0)

    def lines(self) -> list[str]:
        return [
            f"backend: {self.backend}",
            f"faults: {len(self.faults)} ({', '.join(self.faults)})",
            f"games adjudicated for the deadline: 0 times {self.games['0']}, once {self.games['1']}, "
            f"twice or more {self.games['2+']}",
            f"mails: sent {self.mails_sent}, accepted (250) {self.mails_accepted}, stored {self.mails_stored}, "
            f"processed {self.mails_processed}, failed {self.mails_failed}, waiting {self.mails_waiting}",
            f"notifications: due {self.due}, sent once {self.sent_once}, sent twice or more {self.sent_twice}, "
            f"never sent {self.never_sent} (outbox: "
            + ", ".join(f"{k} {v}" for k, v in sorted(self.outbox_status.items())) + ")",
            f"notifications sent twice or more: resent under the same Message-ID {self.resent_same_id} "
            f"(at-least-once; a mailbox that drops a repeated Message-ID shows them once), "
            f"true doubles under different Message-IDs {self.true_doubles}",
            f"worker children killed: {self.worker_kills}",
            f"restarted by the supervisor (exited by themselves): {', '.join(self.restarts) or 'none'}",
            f"web requests: ok {self.web_ok}, failed {self.web_failed}",
            (f"drained {self.drain_seconds:.1f} s after the last fault" if self.drained
             else f"NOT drained {self.drain_seconds:.1f} s after the last fault"),
            f"total: {self.total_seconds:.1f} s",
            f"result: {'OK' if self.ok else 'FAILED'}",
        ]


class Run:
    def __init__(self, backend: str, plan: Plan, keep: bool = False) -> None:
        self.backend, self.plan, self.keep = backend, plan, keep
        self.tmp = Path(tempfile.mkdtemp(prefix=f"pbem-chaos-{backend}-"))
        self.redis: PrivateRedis | None = None
        self.pg: PrivatePostgres | None = None
        self.sink = Sink()
        self.procs: dict[str, Proc] = {}
        self.figures = Figures(backend)
        self.burst: list[str] = []
        self.baseline: dict[str, int] = {}
        self.accepted: set[str] = set()
        self.sent = 0
        self.stop_flag = threading.Event()
        self.queue = f"chaos-{secrets.token_hex(4)}"
        self.web_port, self.smtp_port = free_port(), free_port()
        self.db_url = self.broker_url = ""
        self.saved_env: dict[str, str] | None = None

    # set-up --------------------------------------------------------------------------------------
    def env(self) -> dict[str, str]:
        p = self.plan
        env = {
            **os.environ,
            "DATABASE_URL": self.db_url, "CELERY_BROKER_URL": self.broker_url,
            "PBEM_CELERY_QUEUE": self.queue, "PBEM_SWEEP_SECONDS": str(p.sweep),
            "PBEM_RECOVERY_SECONDS": str(p.recovery), "PBEM_RECOVERY_GRACE_SECONDS": str(p.grace),
            "PBEM_SEND_LEASE_SECONDS": str(p.lease),
            "SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(self.sink.port), "SMTP_SECURITY": "none",
            "PBEM_MAIL_DNS": "0", "PBEM_VAR_DIR": str(self.tmp / "var"), "SECRET_KEY": "chaos-" + self.queue,
            "PBEM_BASE_URL": f"http://127.0.0.1:{self.web_port}",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")])),
        }
        for name in ("PBEM_EAGER", "SMTP_USER", "SMTP_PASSWORD", "REDIS_URL", "PBEM_DEV_MAIL"):
            env.pop(name, None)
        return env

    def start_services(self) -> None:
        if self.backend == "postgres":
            self.redis, self.pg = PrivateRedis(self.tmp), PrivatePostgres()
            self.redis.start()
            self.pg.init()
            self.db_url, self.broker_url = self.pg.url, self.redis.url
        else:
            self.db_url = f"sqlite:///{self.tmp / 'pbem.sqlite'}"
            self.broker_url = f"sqla+sqlite:///{self.tmp / 'broker.sqlite'}"
        # this process computes reply addresses (signed with the server key) and writes games:
        # it shares the services' settings for the run, and gets its own back afterwards
        self.saved_env = dict(os.environ)
        os.environ.update({k: v for k, v in self.env().items() if k.startswith(("PBEM_", "SECRET_KEY"))})
        os.environ.pop("PBEM_EAGER", None)
        from adjudicator import store

        store.configure(self.db_url)
        store.init_db()
        self.sink.start()

    def processes(self) -> None:
        py, env, tmp = sys.executable, self.env(), self.tmp
        (tmp / "var").mkdir(exist_ok=True)
        celery = [py, "-m", "celery", "-A", "workers.celery_app"]
        # PostgreSQL + Redis: prefork workers with two children each (deploy/compose.yaml); the
        # embedded broker: one process per worker (its default pool, see workers/celery_app.py)
        pool = ["--pool", "prefork", "--concurrency", "2"] if self.backend == "postgres" else []
        for n in (1, 2):
            self.procs[f"worker{n}"] = Proc(f"worker{n}", [
                *celery, "worker", *pool, "-n", f"chaos{n}-{self.queue}@%h",
                "--loglevel", "INFO", "--without-mingle", "--without-gossip"], env, tmp)
        for n in (1, 2):
            self.procs[f"beat{n}"] = Proc(f"beat{n}", [
                *celery, "beat", "--loglevel", "INFO", "--schedule", str(tmp / f"beat{n}-schedule")], env, tmp)
        self.procs["web"] = Proc("web", [
            py, "-m", "gunicorn", "--bind", f"127.0.0.1:{self.web_port}", "--workers", "2", "--threads", "2",
            "--timeout", "30", "web.wsgi:app"], env, tmp)
        self.procs["smtp"] = Proc("smtp", [
            py, "-m", "adjudicator.cli.main", "smtp", "--host", "127.0.0.1", "--port", str(self.smtp_port)], env, tmp)
        if self.backend != "postgres":  # the embedded broker's queues, before the workers race to
            from workers.celery_app import make_celery
            from workers.sqlitebroker import declare_queues

            declare_queues(make_celery({"broker_url": self.broker_url, "task_default_queue": self.queue}))
        for name in ("worker1", "worker2", "beat1", "web", "smtp"):
            self.procs[name].start()
        _wait(lambda: _connectable(self.web_port) and _connectable(self.smtp_port), "web and SMTP listener", 60)
        _wait(lambda: all(b"ready." in self.procs[w].log.read_bytes() for w in ("worker1", "worker2")),
              "the workers", 60)

    def make_games(self) -> list[dict[str, Any]]:
        """The burst games (deadline set later) and the mail games with their seats' addresses."""
        from adjudicator import service, store
        from adjudicator.engine import get_game
        from adjudicator.service.common.core import current_prompts, find_game, seat_row
        from adjudicator.service.play.notify import reply_address
        from workers.celery_app import make_celery
        from workers.enqueue import enqueue

        app = make_celery({"broker_url": self.broker_url, "task_default_queue": self.queue})
        policy = service.DeadlinePolicy(step_hours=24, reminder_hours=23, substitutes=False)
        created: list[str] = []

        def join(game_id: str, seat: str, invite: str, email: str) -> Callable[[Any], Any]:
            def joining(s: Any) -> Any:
                service.common.verified.verify_address(s, email)  # a confirmed player's address: the mails flow
                return service.join_game(s, game_id, seat, invite, seat.title(), email=email)
            return joining

        for n in range(self.plan.games + self.plan.mail_games):
            c = store.run_in_transaction(lambda s, n=n: service.create_game(
                s, game="doge", seats=4, title=f"Chaos {n}", policy=policy))
            tasks: list[Any] = []
            for k, (seat, invite) in enumerate(c.invites.items()):
                # burst games: two seats play by mail, two by the web only (no mail to count)
                email = f"{seat}.{n}@chaos.test" if k < 2 or n >= self.plan.games else ""
                tasks += store.run_in_transaction(join(c.game_id, seat, invite, email)).tasks
            enqueue(tasks, app=app)
            created.append(c.game_id)
        self.burst = created[:self.plan.games]
        targets: list[dict[str, Any]] = []
        doge = get_game("doge")
        with store.transaction(write=False) as s:
            for n, game_id in enumerate(created[self.plan.games:], start=self.plan.games):
                g = find_game(s, game_id)
                prompts = current_prompts(g)
                for seat in ("red", "blue", "green"):  # never all four: the group stays open
                    orders = [doge.format_order(c) for c in prompts[seat].choices[:2]]
                    targets.append({"from": f"{seat}.{n}@chaos.test", "to": reply_address(g, seat_row(s, g, seat)),
                                    "orders": orders})
        return targets

    def record_lengths(self) -> dict[str, int]:
        from sqlmodel import func, select

        from adjudicator import store
        from adjudicator.store import Game, RecordEntry

        def read(s: Any) -> dict[str, int]:
            rows = s.exec(select(Game.public_id, func.count(RecordEntry.id)).join(
                RecordEntry, RecordEntry.game_id == Game.id).group_by(Game.public_id)).all()
            return {gid: n for gid, n in rows}

        return store.run_in_transaction(read, write=False)

    def settle(self) -> None:
        """Wait until the set-up's own mail (the 4,000 "welcome" mails of the games' creation) is
        sent: the burst and the faults then meet a server in its steady state, and the drain counts
        the scenario's work, not the set-up's."""
        started = time.monotonic()
        while time.monotonic() - started < self.plan.drain_timeout:
            self.measure()
            if self.figures.outbox_status["pending"] + self.figures.outbox_status["sending"] == 0:
                break
            time.sleep(1)
        _log(f"{self.backend}: set-up mail sent after {time.monotonic() - started:.0f} s")

    def set_burst(self) -> None:
        """Every burst game's deadline now: one moment, N games due."""
        from sqlalchemy import update

        from adjudicator import store
        from adjudicator.service import utcnow
        from adjudicator.store import Game

        self.baseline = {g: self.record_lengths().get(g, 0) for g in self.burst}
        store.run_in_transaction(lambda s: s.connection().execute(
            update(Game).where(Game.public_id.in_(self.burst))  # type: ignore[attr-defined]
            .values(due_at=utcnow() - timedelta(seconds=1), reminded=True)))

    # load ----------------------------------------------------------------------------------------
    def mail_stream(self, targets: list[dict[str, Any]]) -> None:
        """Order mails over SMTP at the plan's rate (the i-th is due `i * gap` after the start,
        whatever the earlier ones took: a slow listener does not stretch the stream past the
        faults), each retried like a sending MTA would (4xx, refused connection). Several
        sending servers at once, as on the Internet."""
        from concurrent.futures import ThreadPoolExecutor

        gap = self.plan.mail_seconds / max(self.plan.mails, 1)
        start = time.monotonic()
        with ThreadPoolExecutor(max_workers=SENDERS) as senders:
            for i in range(self.plan.mails):
                time.sleep(max(0.0, start + i * gap - time.monotonic()))
                senders.submit(self.send_mail, i, targets[i % len(targets)])

    def send_mail(self, i: int, t: dict[str, Any]) -> None:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = t["from"], t["to"], "orders"
        msg["Message-ID"] = mid = f"<chaos-{i}-{self.queue}@chaos.test>"
        msg.set_content(t["orders"][i % 2] + "\n")
        with self.sink.lock:
            self.sent += 1
        deadline = time.monotonic() + self.plan.drain_timeout
        while time.monotonic() < deadline:
            try:
                with smtplib.SMTP("127.0.0.1", self.smtp_port, timeout=30) as client:
                    client.send_message(msg)
                with self.sink.lock:
                    self.accepted.add(mid)
                return
            except (OSError, smtplib.SMTPException):
                time.sleep(0.5)

    def web_probe(self) -> None:
        while not self.stop_flag.is_set():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.web_port}/", timeout=5) as r:
                    ok = r.status < 500
            except urllib.error.HTTPError as exc:
                ok = exc.code < 500
            except OSError:
                ok = False
            if ok:
                self.figures.web_ok += 1
            else:
                self.figures.web_failed += 1
            self.stop_flag.wait(0.5)

    def supervise(self) -> None:
        """What systemd's Restart=on-failure does for the deployed services (deploy/systemd): a
        process that exits by itself with an error (a Celery worker whose broker reconnection hit
        an unrecoverable kombu error, say) is started again a second later. Processes the run
        kills itself (a negative exit code: a signal) are restarted by the fault that killed them."""
        while not self.stop_flag.wait(1):
            for name, proc in list(self.procs.items()):
                code = proc.proc.poll() if proc.proc is not None else None
                if code is None or code <= 0:
                    continue
                if self.stop_flag.wait(1):
                    return
                _log(f"{self.backend}: {name} exited with {code}; the supervisor starts it again")
                proc.start()
                self.figures.restarts.append(f"{name} (exit {code})")

    # faults --------------------------------------------------------------------------------------
    def kill_worker_child(self, name: str) -> None:
        """SIGKILL one prefork child (the worker starts another); a solo worker is itself the
        process running the task, so it is killed and started again (as systemd would)."""
        proc = self.procs[name]
        if self.backend != "postgres":
            proc.kill(signal.SIGKILL)
            proc.start()
            self.figures.worker_kills += 1
            self.figures.faults.append(f"SIGKILL {name}")
            return
        children = proc.children()
        if children:
            os.kill(random.choice(children), signal.SIGKILL)
            self.figures.worker_kills += 1
        self.figures.faults.append(f"SIGKILL {name} child")

    def kill_web(self) -> None:
        web = self.procs["web"]
        web.kill(signal.SIGKILL)
        time.sleep(1)
        web.start()  # what systemd or compose's restart policy does
        self.figures.faults.append("SIGKILL web")

    def broker_restart(self, down: float) -> None:
        if self.redis is not None:
            self.redis.kill()
            time.sleep(down)
            self.redis.start()
        else:
            hold_sqlite_lock(self.tmp / "broker.sqlite", down)
        self.figures.faults.append(f"broker down {down:g} s")

    def database_restart(self) -> None:
        if self.pg is not None:
            self.pg.stop("immediate")
            time.sleep(self.plan.db_outage)
            self.pg.start()
            self.figures.faults.append(f"PostgreSQL restart ({self.plan.db_outage:g} s)")
        else:
            hold_sqlite_lock(self.tmp / "pbem.sqlite", self.plan.db_outage)
            self.figures.faults.append(f"SQLite locked {self.plan.db_outage:g} s")

    def faults(self) -> None:
        beat2 = self.procs["beat2"]
        beat2.start()  # two beats at once for the whole fault period
        self.figures.faults.append("two beats")
        for _ in range(self.plan.rounds):
            self.kill_worker_child("worker1")
            time.sleep(1.5)
            self.kill_web()
            time.sleep(1)
            self.broker_restart(1)
            time.sleep(1.5)
            self.kill_worker_child("worker2")
            time.sleep(1)
            self.database_restart()
            time.sleep(1.5)
            self.kill_worker_child("worker1")
            self.kill_worker_child("worker2")
            time.sleep(1)
        self.broker_restart(self.plan.outage)
        self.kill_worker_child("worker1")
        beat2.kill(signal.SIGTERM)

    # figures -------------------------------------------------------------------------------------
    def measure(self) -> bool:
        """Fill in the figures; True once nothing is left to do."""
        from sqlmodel import select

        from adjudicator import store
        from adjudicator.store import InboxMessage, OutboxMessage

        f = self.figures
        lengths = self.record_lengths()
        f.games = Counter()
        for g in self.burst:
            done = lengths.get(g, 0) - self.baseline.get(g, 0)
            f.games["0" if done <= 0 else "1" if done == 1 else "2+"] += 1

        def read(s: Any) -> tuple[list[Any], list[Any]]:
            inbox = s.exec(select(InboxMessage.message_id, InboxMessage.status)
                           .where(InboxMessage.source == "smtp")).all()
            outbox = s.exec(select(OutboxMessage.id, OutboxMessage.to, OutboxMessage.status)
                            .where(OutboxMessage.channel == "mail")).all()
            return list(inbox), list(outbox)

        inbox, outbox = store.run_in_transaction(read, write=False)
        ours = [(m, st) for m, st in inbox if (m or "").startswith("<chaos-")]
        f.mails_sent, f.mails_accepted = self.sent, len(self.accepted)
        f.mails_stored = len({m for m, _ in ours})
        f.mails_processed = sum(st in ("done", "dropped") for _, st in ours)
        f.mails_failed = sum(st == "failed" for _, st in ours)
        f.mails_waiting = sum(st == "new" for _, st in ours)
        with self.sink.lock:
            counts = dict(self.sink.counts)
            mids = {key: len(ids) for key, ids in self.sink.message_ids.items()}
        f.outbox_status = Counter(st for _, _, st in outbox)
        due = [(i, to) for i, to, st in outbox if st not in ("held", "digested")]
        f.due = len(due)
        hits = [counts.get((i, to.lower()), 0) for i, to in due]
        f.sent_once, f.sent_twice = hits.count(1), sum(h >= 2 for h in hits)
        f.true_doubles = sum(mids.get((i, to.lower()), 0) >= 2 for i, to in due)
        f.resent_same_id = sum(h >= 2 and mids.get((i, to.lower()), 0) == 1
                               for h, (i, to) in zip(hits, due, strict=True))
        f.never_sent = hits.count(0)
        busy = f.outbox_status["pending"] + f.outbox_status["sending"]
        return (f.games["0"] == 0 and f.mails_waiting == 0 and busy == 0
                and f.mails_stored >= f.mails_accepted)

    def backlog(self) -> str:
        """What is left to do while draining, and whether it waits for the recovery sweep (a due
        time or a lease in the future) or only for a worker: where the drain time goes."""
        from sqlalchemy import case, text
        from sqlmodel import func, select

        from adjudicator import store
        from adjudicator.service import utcnow
        from adjudicator.store import InboxMessage, OutboxMessage

        now = utcnow()

        def read(s: Any) -> list[tuple[str, str, bool, int]]:
            # grouped by position: PostgreSQL takes the two `> now` expressions as two parameters
            by_columns = (text("1"), text("2"))
            inbox = s.exec(select(InboxMessage.status, InboxMessage.next_attempt_at > now, func.count())
                           .where(InboxMessage.status == "new").group_by(*by_columns)).all()
            waits = case((OutboxMessage.status == "sending", OutboxMessage.lease_until),
                         else_=OutboxMessage.next_attempt_at) > now
            outbox = s.exec(select(OutboxMessage.status, waits, OutboxMessage.kind, func.count())
                            .where(OutboxMessage.status.in_(("pending", "sending")))  # type: ignore[attr-defined]
                            .group_by(*by_columns, text("3"))).all()
            return [("inbox", st, bool(later), n) for st, later, n in inbox] + [
                (f"outbox {kind}", st, bool(later), n) for st, later, kind, n in outbox]

        rows = store.run_in_transaction(read, write=False)
        f = self.figures
        parts = [f"games not yet adjudicated {f.games['0']}"]
        parts += [f"{kind} {st} {n}" + (" (due later)" if later else "") for kind, st, later, n in sorted(rows)]
        return ", ".join(parts)

    # the whole run -------------------------------------------------------------------------------
    def run(self) -> Figures:
        started = time.monotonic()
        try:
            _log(f"{self.backend}: starting services in {self.tmp}")
            self.start_services()
            _log(f"{self.backend}: creating {self.plan.games} + {self.plan.mail_games} games")
            targets = self.make_games()
            self.processes()
            self.settle()
            self.set_burst()
            _log(f"{self.backend}: deadline burst of {len(self.burst)} games, {self.plan.mails} mails, faults")
            mailer = threading.Thread(target=self.mail_stream, args=(targets,), daemon=True)
            probe = threading.Thread(target=self.web_probe, daemon=True)
            supervisor = threading.Thread(target=self.supervise, daemon=True)
            mailer.start()
            probe.start()
            supervisor.start()
            self.faults()
            last_fault = time.monotonic()
            _log(f"{self.backend}: faults over ({len(self.figures.faults)}); waiting for the drain")
            mailer.join(self.plan.drain_timeout)
            deadline = last_fault + self.plan.drain_timeout
            next_report = 0.0
            while True:
                try:
                    drained = self.measure()
                except Exception as exc:  # noqa: BLE001 - the database may still be coming back
                    _log(f"measure failed: {type(exc).__name__}: {exc}")
                    drained = False
                if time.monotonic() >= next_report and not drained:
                    next_report = time.monotonic() + 10
                    with contextlib.suppress(Exception):  # only a progress line
                        _log(f"{self.backend}: +{time.monotonic() - last_fault:.0f} s: {self.backlog()}")
                if drained or time.monotonic() > deadline:
                    break
                time.sleep(1)
            self.figures.drained = drained
            self.figures.drain_seconds = time.monotonic() - last_fault
            time.sleep(0.5)  # a second copy in flight would reach the sink now
            self.measure()
            self.stop_flag.set()
        finally:
            self.stop_flag.set()
            self.teardown()
        self.figures.total_seconds = time.monotonic() - started
        return self.figures

    def teardown(self) -> None:
        if self.sink.repeats:  # to match against the workers' logs (which fault made them)
            (self.tmp / "repeats.txt").write_text("\n".join(self.sink.repeats) + "\n")
        for proc in self.procs.values():
            proc.kill(signal.SIGTERM)
        self.sink.stop()
        if self.redis is not None:
            self.redis.kill()
        if self.pg is not None:
            self.pg.remove()
        from adjudicator import store

        store.configure(None)
        if self.saved_env is not None:
            os.environ.clear()
            os.environ.update(self.saved_env)
        if not self.keep and self.figures.ok:
            shutil.rmtree(self.tmp, ignore_errors=True)
        else:
            _log(f"logs kept in {self.tmp}")


def run(backend: str, plan: Plan, keep: bool = False) -> Figures:
    return Run(backend, plan, keep).run()
