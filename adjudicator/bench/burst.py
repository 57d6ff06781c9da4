"""`pbem bench burst --games N [--backend embedded|postgres] [--disorder K]`: a deadline burst, end to end.

N Doge games (four seats, every seat playing by mail) whose deadlines all fall at one moment,
adjudicated by real Celery workers (two, one per core) from one deadline sweep, and their
notifications delivered. Prints `name: value unit` lines, each beside a baseline measured in the
same run:

- one deadline's whole work (lock, snapshot, defaults, record, save, outbox), in this process on
  games outside the burst: wall and CPU time p50 and SQL statements, beside one SQLModel commit
  of one row (the floor of any transaction);
- the burst: seconds from the sweep until every game is adjudicated, beside N such commits one
  after another; then seconds until every notification is sent, beside the raw rate of the
  mail's destination: an SMTP sink taking the same number of messages over one connection
  (`--mail smtp`, the default on postgres), or writing as many .eml files (`--mail files`, the
  embedded default's PBEM_MAIL_DIR);
- the workers' CPU seconds (both cores: up to twice the wall time), and their CPU per mail sent.

The SMTP sink stands for a relay elsewhere: it runs in a process of its own (bench/sink.py) and
its CPU seconds while the mails are sent are printed, the share of the two cores it took from the
workers, PostgreSQL and Redis.

`--disorder K`: K seats of each game are in civil disorder with the substitute on. The deadline
hands their moves to the recovery sweep (sent every few seconds here, the beat's is every 30 s),
which hands them to the workers as tasks, after the adjudication; the bench prints when the last
game was adjudicated, then waits for every move the substitute owes (and reports how many).

embedded: a SQLite file and the SQLite broker in a temporary directory. postgres: a fresh schema
in PBEM_TEST_PG_URL's database (default postgresql+psycopg://postgres@127.0.0.1:5432/test) and
Redis (PBEM_TEST_REDIS_URL, default redis://127.0.0.1:6379/0) on a queue of its own; both are
removed afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import secrets
import shutil
import signal
import smtplib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path
from typing import Any

from .schemas import fresh_schema

PG_URL = os.environ.get("PBEM_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("PBEM_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
ROOT = Path(__file__).resolve().parents[2]
PROBE_GAMES = 40  # games outside the burst whose deadline is timed one by one in this process
SETUP_BATCH = 50  # games created per set-up transaction
RECOVERY_SECONDS = 5.0  # --disorder: the recovery sweep that hands the substitute's moves on (the beat's, 30 s)


def _p50(values: list[float]) -> float:
    return statistics.median(values) if values else 0.0


@contextlib.contextmanager
def _database(backend: str, tmp: Path) -> Iterator[tuple[str, str]]:
    """(database URL, broker URL), private to the run."""
    if backend == "embedded":
        yield f"sqlite:///{tmp / 'pbem.sqlite'}", f"sqla+sqlite:///{tmp / 'broker.sqlite'}"
        return
    with fresh_schema(PG_URL) as url:
        yield url, REDIS_URL


def _create_games(count: int, title: str, disorder: int = 0) -> list[str]:
    """Doge games of four seats, every seat with an address; their start mails are marked sent
    (the burst counts only the mails it causes). `disorder`: that many seats of each game are in
    civil disorder, with the substitute on (it plays them after the deadline, in worker tasks)."""
    from sqlalchemy import update
    from sqlmodel import select

    from adjudicator import service, store
    from adjudicator.store import Game, Seat

    policy = service.DeadlinePolicy(step_hours=24, reminder_hours=23, substitutes=disorder > 0)
    ids: list[str] = []
    for first in range(0, count, SETUP_BATCH):
        with store.transaction() as s:
            for n in range(first, min(count, first + SETUP_BATCH)):
                c = service.create_game(s, game="doge", seats=4, title=f"{title} {n}", policy=policy)
                for seat, invite in c.invites.items():
                    service.common.verified.verify_address(s, f"{seat}.{title}{n}@bench.test")  # confirmed: mails flow
                    service.join_game(s, c.game_id, seat, invite, seat.title(), email=f"{seat}.{title}{n}@bench.test")
                ids.append(c.game_id)
    if disorder:  # after the start: the seats missed their deadlines (the last seats, the first still plays)
        with store.transaction() as s:
            for game_id in ids:
                g = s.exec(select(Game).where(Game.public_id == game_id)).one()
                s.connection().execute(update(Seat).where(Seat.game_id == g.id, Seat.position >= 4 - disorder)  # type: ignore[arg-type]
                                       .values(disorder=True, missed=2))
    return ids


def _make_due(game_ids: list[str]) -> None:
    from sqlalchemy import update

    from adjudicator import store
    from adjudicator.service import utcnow
    from adjudicator.store import Game, OutboxMessage

    with store.transaction() as s:
        conn = s.connection()
        conn.execute(update(OutboxMessage).where(OutboxMessage.status == "pending").values(status="sent"))
        for i in range(0, len(game_ids), 500):
            conn.execute(update(Game).where(Game.public_id.in_(game_ids[i:i + 500]))  # type: ignore[attr-defined]
                         .values(due_at=utcnow() - timedelta(seconds=1), reminded=True))


def _one_commit_seconds(rounds: int = 40) -> tuple[float, float]:
    """Wall and CPU p50 of one SQLModel row inserted and committed."""
    from adjudicator import store
    from adjudicator.store import Person

    wall, cpu = [], []
    for i in range(rounds):
        t0, c0 = time.perf_counter(), time.process_time()
        with store.transaction() as s:
            s.add(Person(email=f"baseline-{i}-{secrets.token_hex(3)}@bench.test"))
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return _p50(wall), _p50(cpu)


def _probe_deadlines(game_ids: list[str]) -> tuple[float, float, float]:
    """Wall p50, CPU p50 and statements p50 of one deadline, each in its own transaction."""
    from sqlalchemy import event

    from adjudicator import service, store

    statements = [0]

    def count(*_args: Any) -> None:
        statements[0] += 1

    engine = store.get_engine()
    event.listen(engine, "before_cursor_execute", count)
    wall, cpu, stmts = [], [], []
    try:
        for game_id in game_ids:
            statements[0] = 0
            t0, c0 = time.perf_counter(), time.process_time()
            with store.transaction() as s:
                service.sweep_game(s, game_id)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            stmts.append(statements[0] + 1)  # + the COMMIT, which the driver issues itself
    finally:
        event.remove(engine, "before_cursor_execute", count)
    return _p50(wall), _p50(cpu), _p50([float(n) for n in stmts])


def _cpu_seconds(pids: list[int]) -> float:
    """utime + stime of the processes and their children (Linux /proc), in seconds."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    wanted = set(pids)
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(stat.parent.name) in wanted or int(fields[1]) in wanted:
            total += int(fields[11]) + int(fields[12])
    return total / tick


class Workers:
    """Two Celery worker processes on the run's broker and queue (one per core)."""

    def __init__(self, backend: str, env: dict[str, str], tmp: Path) -> None:
        py = sys.executable
        pool = ["--pool", "solo"] if backend == "embedded" else ["--pool", "prefork", "--concurrency", "1"]
        self.logs = [tmp / f"worker{n}.log" for n in (1, 2)]
        self.procs = []
        for n, log in enumerate(self.logs, start=1):
            with log.open("wb") as out:
                self.procs.append(subprocess.Popen(
                    [py, "-m", "celery", "-A", "workers.celery_app", "worker", *pool,
                     "-n", f"bench{n}-{env['PBEM_CELERY_QUEUE']}@%h", "--loglevel", "INFO",
                     "--without-mingle", "--without-gossip"],
                    cwd=tmp, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True))
        deadline = time.monotonic() + 60
        while not all(b"ready." in log.read_bytes() or proc.poll() is not None
                      for log, proc in zip(self.logs, self.procs, strict=True)):
            if time.monotonic() > deadline:
                break
            time.sleep(0.2)

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.procs]

    def stop(self) -> None:
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


def _adjudicated(s: Any) -> int:
    """Games whose deadline is more than an hour away: an adjudicated burst game has a new one a
    day away, a game still due has one in the past."""
    from sqlmodel import func, select

    from adjudicator.service import utcnow
    from adjudicator.store import Game

    return s.exec(select(func.count(Game.id)).where(Game.due_at > utcnow() + timedelta(hours=1))).one()


def _clear_owed(game_ids: list[str]) -> None:
    from sqlalchemy import update

    from adjudicator import store
    from adjudicator.store import Game

    with store.transaction() as s:
        s.connection().execute(update(Game).where(Game.public_id.in_(game_ids))  # type: ignore[attr-defined]
                               .values(substitute_at=None))


def _owed(s: Any) -> int:
    """Games where the substitute still owes a move (--disorder)."""
    from sqlmodel import func, select

    from adjudicator.store import Game

    return s.exec(select(func.count(Game.id)).where(Game.substitute_at.is_not(None))).one()  # type: ignore[union-attr]


def _progress(before: int, first_mail: int) -> tuple[int, int, int, int]:
    """(games adjudicated since the burst, notifications written, notifications sent, games where
    the substitute owes a move): cheap counts, so that polling does not slow the workers."""
    from sqlmodel import func, select

    from adjudicator import store
    from adjudicator.store import OutboxMessage

    def read(s: Any) -> tuple[int, int, int, int]:
        done = _adjudicated(s) - before
        rows = dict(s.exec(select(OutboxMessage.status, func.count(OutboxMessage.id))
                           .where(OutboxMessage.id > first_mail).group_by(OutboxMessage.status)).all())
        return done, sum(rows.values()), rows.get("sent", 0), _owed(s)

    return store.run_in_transaction(read, write=False)


def _sink_rate(port: int, count: int, sample: bytes) -> float:
    """Messages per second the sink accepts from one client over one connection."""
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "pbem@bench.test", "sink@bench.test", "baseline"
    msg["Message-ID"] = "<baseline@bench.test>"
    msg.set_content(sample.decode("utf-8", "replace"))
    started = time.perf_counter()
    with smtplib.SMTP("127.0.0.1", port) as client:
        for _ in range(count):
            client.send_message(msg)
    return count / (time.perf_counter() - started)


def _file_rate(folder: Path, count: int, sample: bytes) -> float:
    """.eml files per second written the way the mailer writes one (a temporary file renamed)."""
    folder.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    for n in range(count):
        path = folder / f"{n:08d}.eml"
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(sample)
        tmp.replace(path)
    return count / (time.perf_counter() - started)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench burst", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--backend", choices=("embedded", "postgres"), default="embedded")
    parser.add_argument("--mail", choices=("files", "smtp"), default=None,
                        help="where notifications go: .eml files (embedded default) or SMTP to a sink "
                             "(default: files on embedded, smtp on postgres)")
    parser.add_argument("--timeout", type=float, default=600.0)
    parser.add_argument("--disorder", type=int, default=0, metavar="SEATS",
                        help="that many seats of each game (of 4) are in civil disorder with the substitute on: it "
                             "plays them after the deadline in worker tasks (the burst then also waits for "
                             "its moves to be made)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory (worker logs)")
    args = parser.parse_args(argv)
    mail = args.mail or ("files" if args.backend == "embedded" else "smtp")
    tmp = Path(tempfile.mkdtemp(prefix=f"pbem-bench-burst-{args.backend}-"))
    saved = dict(os.environ)
    try:
        return _run(args, mail, tmp)
    finally:
        os.environ.clear()
        os.environ.update(saved)
        if args.keep:
            print(f"kept: {tmp}")
        else:
            shutil.rmtree(tmp, ignore_errors=True)


def _run(args: argparse.Namespace, mail: str, tmp: Path) -> int:
    from adjudicator import store

    from .sink import SinkProcess

    sink = SinkProcess()
    with _database(args.backend, tmp) as (db_url, broker_url):
        queue = f"bench-{secrets.token_hex(4)}"
        env = {**os.environ, "DATABASE_URL": db_url, "CELERY_BROKER_URL": broker_url, "PBEM_CELERY_QUEUE": queue,
               "PBEM_MAIL_DIR": str(tmp / "mail"), "PBEM_MAIL_DNS": "0", "PBEM_VAR_DIR": str(tmp / "var"),
               "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))}
        for name in ("PBEM_EAGER", "REDIS_URL", "SMTP_USER", "SMTP_PASSWORD", "SMTP_HOST"):
            env.pop(name, None)
        if args.disorder:  # the recovery sweep hands the substitute's moves on a second after the deadline
            env["PBEM_SUBSTITUTE_GRACE_SECONDS"] = "1"
        if mail == "smtp":
            sink.start()
            env.update({"SMTP_HOST": "127.0.0.1", "SMTP_PORT": str(sink.port), "SMTP_SECURITY": "none"})
        os.environ.clear()
        os.environ.update(env)
        store.configure(db_url)
        try:
            store.init_db()
            return _measure(args, mail, tmp, env, sink)
        finally:
            store.configure(None)
            sink.stop()


def _measure(args: argparse.Namespace, mail: str, tmp: Path, env: dict[str, str], sink: Any) -> int:
    from sqlmodel import func, select

    from adjudicator import store
    from adjudicator.store import OutboxMessage
    from workers.celery_app import make_celery

    print(f"backend: {args.backend}")
    print(f"mail: {mail}")
    if args.backend == "embedded":
        print(f"sqlite synchronous: {store.db.sqlite_synchronous()} (PBEM_SQLITE_SYNCHRONOUS)")
    started = time.perf_counter()
    if args.disorder:
        print(f"civil disorder: {args.disorder} of 4 seats in each game, the substitute on")
    probe = _create_games(PROBE_GAMES, "probe", args.disorder)
    burst = _create_games(args.games, "burst", args.disorder)
    _make_due(probe + burst)
    print(f"set-up: {args.games + PROBE_GAMES} games in {time.perf_counter() - started:.1f} s")

    commit_wall, commit_cpu = _one_commit_seconds()
    wall, cpu, statements = _probe_deadlines(probe)
    if args.disorder:  # the probes' substitute moves are nobody's to play: not counted as owed
        _clear_owed(probe)
    print(f"deadline p50: {wall * 1000:.2f} ms")
    print(f"deadline CPU p50: {cpu * 1000:.2f} ms")
    print(f"deadline statements p50: {statements:.0f} statements")
    print(f"deadline baseline one SQLModel commit p50: {commit_wall * 1000:.2f} ms (CPU {commit_cpu * 1000:.2f} ms, "
          "2 statements and the COMMIT)")

    with store.transaction(write=False) as s:
        before = _adjudicated(s)
        first_mail = s.exec(select(func.max(OutboxMessage.id))).one() or 0
    workers = Workers(args.backend, env, tmp)
    app = make_celery({"broker_url": env["CELERY_BROKER_URL"], "task_default_queue": env["PBEM_CELERY_QUEUE"]})
    try:
        cpu_before = _cpu_seconds(workers.pids)
        sink_cpu_before = sink_cpu_adjudicated = _cpu_seconds([sink.pid]) if sink.pid else 0.0
        t0 = time.perf_counter()
        app.send_task("workers.tasks.sweep_deadlines")
        adjudicated_at = sent_at = None
        adjudication_cpu = 0.0
        written = sent = done = owed = owed_at_adjudication = 0
        next_recovery = t0 + RECOVERY_SECONDS
        while time.perf_counter() - t0 < args.timeout:
            done, written, sent, owed = _progress(before, first_mail)
            now = time.perf_counter()
            if adjudicated_at is None and done >= len(burst):
                adjudicated_at = now
                adjudication_cpu = _cpu_seconds(workers.pids) - cpu_before
                sink_cpu_adjudicated = _cpu_seconds([sink.pid]) if sink.pid else 0.0
                owed_at_adjudication = owed
                if args.disorder:  # the substitute's moves may take long after: the target's figure now
                    print(f"burst adjudicated (every game; the substitute's moves follow): {adjudicated_at - t0:.2f} s",
                          flush=True)
            if adjudicated_at is not None and sent >= written and not owed:
                sent_at = now
                break
            if args.disorder and now >= next_recovery:  # the beat's recovery sweep, more often
                app.send_task("workers.tasks.recover")
                next_recovery = now + RECOVERY_SECONDS
            time.sleep(0.1)
        worker_cpu = _cpu_seconds(workers.pids) - cpu_before
        sink_cpu = _cpu_seconds([sink.pid]) - sink_cpu_adjudicated if sink.pid else 0.0
        sink_cpu_all = _cpu_seconds([sink.pid]) - sink_cpu_before if sink.pid else 0.0
    finally:
        workers.stop()
    if adjudicated_at is None or sent_at is None:
        print(f"error: timed out after {args.timeout:.0f} s: {done} of {len(burst)} games adjudicated, "
              f"{sent} of {written} notifications sent, the substitute owing moves in {owed} games "
              f"(worker logs in {tmp})")
        return 1
    print(f"burst games: {len(burst)} games")
    print(f"burst adjudicated: {adjudicated_at - t0:.2f} s")
    print(f"burst adjudicated baseline {len(burst)} SQLModel commits in turn: {commit_wall * len(burst):.2f} s")
    if args.disorder:
        print(f"burst substitute: {owed_at_adjudication} games owed its move when the last was adjudicated; "
              f"every move made (until a seat with a player decides) after {sent_at - t0:.2f} s, "
              f"{_substitute_moves(burst)} moves (handed on by a recovery sweep every {RECOVERY_SECONDS:.0f} s)")
    print(f"burst notifications: {written} mails")
    print(f"burst notifications sent after the last adjudication: {sent_at - adjudicated_at:.2f} s "
          f"({written / max(sent_at - adjudicated_at, 1e-9):.0f} mails/s)")
    print(f"burst notifications sent after the sweep: {sent_at - t0:.2f} s")
    sample = _sample_message()
    if mail == "smtp":
        rows, twice = sink.counts()
        print(f"burst notifications received by the sink: {rows} rows, {twice} twice or more")
        print(f"burst SMTP sink CPU: {sink_cpu_all:.2f} s ({sink_cpu:.2f} s after the last adjudication; "
              "its own process, standing for a relay elsewhere)")
        rate = _sink_rate(sink.port, min(written, 2000), sample)
        print(f"burst notifications baseline SMTP sink raw accept rate: {rate:.0f} mails/s "
              f"({written / rate:.2f} s for {written})")
    else:
        rate = _file_rate(tmp / "baseline-mail", min(written, 2000), sample)
        print(f"burst notifications baseline raw .eml writes: {rate:.0f} files/s "
              f"({written / rate:.2f} s for {written})")
    print(f"burst worker CPU: {worker_cpu:.2f} s (two workers; {adjudication_cpu:.2f} s until every game was "
          f"adjudicated, {worker_cpu - adjudication_cpu:.2f} s after)")
    print(f"burst worker CPU per notification after the last adjudication: "
          f"{(worker_cpu - adjudication_cpu) / max(written, 1) * 1000:.2f} ms")
    print(f"machine load average at the end: {os.getloadavg()[0]:.1f} (on {os.cpu_count()} cores: the wall "
          "times are only comparable between runs at a like load; the CPU times much less so)")
    return 0


def _substitute_moves(game_ids: list[str]) -> int:
    """The substitute's moves in the burst's games: sealed orders not yet revealed, and record
    entries with its orders."""
    from sqlalchemy import String, cast
    from sqlmodel import func, select

    from adjudicator import store
    from adjudicator.store import Game, RecordEntry, SealedOrder

    with store.transaction(write=False) as s:
        ids = select(Game.id).where(Game.public_id.in_(game_ids))  # type: ignore[attr-defined]
        sealed = s.exec(select(func.count(SealedOrder.id)).where(  # type: ignore[arg-type]
            SealedOrder.game_id.in_(ids), SealedOrder.origin == "substitute")).one()  # type: ignore[attr-defined]
        recorded = s.exec(select(func.count(RecordEntry.id)).where(  # type: ignore[arg-type]
            RecordEntry.game_id.in_(ids), RecordEntry.kind == "orders",  # type: ignore[attr-defined]
            cast(RecordEntry.data, String).like('%"substitute"%'))).one()
    return sealed + recorded


def _sample_message() -> bytes:
    """One of the burst's notifications as sent (the baselines move messages of this size)."""
    from sqlmodel import select

    from adjudicator import store
    from adjudicator.store import OutboxMessage
    from workers.mailer import build_message

    with store.transaction(write=False) as s:
        row = s.exec(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()  # type: ignore[union-attr]
    return bytes(build_message(row)) if row is not None else b"x" * 4000
