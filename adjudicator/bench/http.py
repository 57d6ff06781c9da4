"""`pbem bench http [--backend sqlite|postgres] [--rate R] [--requests N] [--duration S]`: order
POSTs per second over HTTP, under gunicorn as deploy/ runs it, at a fixed open-loop rate.

Doge games on a fresh database (a SQLite file, or a private schema on the PostgreSQL server at
--pg-url); every seat has joined. The real app runs under `gunicorn -c deploy/gunicorn.conf.py`
on a loopback port, and each seat's sealed placement is replaced again and again through the
seat page's order form (CSRF token and session cookie from one GET of the page, the prompt token
of the page), so each POST goes through the whole path: CSRF, locale, authentication, the prompt
token, the order check, the sealed row, the wait's bookkeeping, the redirect. Requests are sent
at R per second whatever the server does (see openloop.py), at most N of them and for at most S
seconds. Baseline, same run, same gunicorn settings, same database and requests: a minimal app
that parses the form and upserts one row (bench/httpapp.py). Prints `name: value unit` lines.

Saturation (`--saturation 1,2,4,...`, `--saturation-seconds T`): the same requests in a closed loop
(closedloop.py), C connections each sending as soon as it is answered, for T seconds at each C;
the highest rate of good answers is each app's saturation, and their ratio (project / minimal app)
is printed; the target is ≥ 0.5.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlencode

from .closedloop import Level, peak, saturate
from .openloop import Outcome, Request, percentile, run
from .schemas import fresh_schema

GUNICORN_CONF = Path(__file__).resolve().parents[2] / "deploy" / "gunicorn.conf.py"
PG_URL = os.environ.get("PBEM_TEST_PG_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def _database(backend: str, tmp: Path, pg_url: str) -> Iterator[str]:
    if backend == "sqlite":
        yield f"sqlite:///{tmp / 'bench.sqlite'}"
        return
    with fresh_schema(pg_url) as url:
        yield url


@contextmanager
def _gunicorn(app: str, env: dict[str, str], port: int, log: Path) -> Iterator[int]:
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", str(GUNICORN_CONF), app],
                                env={**os.environ, **env, "PBEM_BIND": f"127.0.0.1:{port}"},
                                stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"gunicorn did not start; see {log}") from None
                time.sleep(0.1)
        yield proc.pid
    finally:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def _server_cpu(pid: int) -> float:
    """CPU seconds used so far by a gunicorn master and its workers (Linux /proc): the server's
    own cost per request, which a busy machine's lost time slices do not inflate."""
    try:
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return float("nan")
    total = 0
    for each in [str(pid), *children]:
        try:
            fields = Path(f"/proc/{each}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def _idle_cpu(pid: int, timeout: float = 60.0) -> float:
    """The server's CPU seconds once it has gone idle (under 1 % of a core for half a second)."""
    deadline, last = time.monotonic() + timeout, _server_cpu(pid)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = _server_cpu(pid)
        if now - last < 0.005:
            return now
        last = now
    return last


def _measure(name: str, pid: int, posts: list[Request], port: int, args: argparse.Namespace) -> Level | None:
    run(posts, port, 50, len(posts), 5)  # warm-up: imports, connections, caches
    cpu = _server_cpu(pid)
    outcome = run(posts, port, args.rate, args.requests, args.duration)
    cpu = _idle_cpu(pid) - cpu  # requests the client gave up on are still served: count them all
    _print(name, outcome, 303)
    print(f"{name} server CPU: {cpu / max(1, outcome.sent) * 1000:.2f} ms/request")
    if not args.saturation:
        return None
    _idle_cpu(pid)  # the open loop's backlog served first
    levels = saturate(posts, port, args.saturation, args.saturation_seconds, 303)
    print(f"{name} closed loop: " + ", ".join(f"{level.connections}: {level.rate:.0f}" for level in levels)
          + " req/s by connections")
    best = peak(levels)
    print(f"{name} saturation: {best.rate:.1f} req/s at {best.connections} connections"
          + (f" ({best.bad} errors)" if best.bad else ""))
    return best


def _make_games(count: int) -> list[tuple[str, str, str, list[str], str]]:
    """(game, seat, seat token, two order choices as canonical JSON, prompt token) per seat that
    orders: all but one seat of each game, so the sealed group never completes and every POST
    meets the same decision."""
    from adjudicator import service, store
    from adjudicator.engine import canonical_json

    seats = []
    for n in range(count):
        with store.transaction() as s:
            created = service.create_game(s, game="doge", seats=4, title=f"Bench {n}")
        for i, (seat, invite) in enumerate(created.invites.items()):
            with store.transaction() as s:
                service.common.verified.verify_address(s, f"{seat}.{n}@bench.test")  # a confirmed player's: mails flow
                token = service.join_game(s, created.game_id, seat, invite, f"P{i}",
                                          email=f"{seat}.{n}@bench.test").seat_token
            if i < len(created.invites) - 1:
                seats.append((created.game_id, seat, token))
    out = []
    for game_id, seat, token in seats:
        with store.transaction(write=False) as s:
            page = service.seat_state(s, game_id, seat, token)
        choices = [canonical_json(c).decode() for c in page.prompt["choices"][:2]]
        out.append((game_id, seat, token, choices, page.prompt_token))
    return out


def _session(port: int, path: str) -> tuple[str, str]:
    """The session cookie and CSRF token a browser gets with the seat page."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    conn.request("GET", path)
    resp = conn.getresponse()
    html = resp.read().decode()
    cookie = (resp.getheader("Set-Cookie") or "").split(";", 1)[0]
    conn.close()
    found = re.search(r'name="csrf_token" value="([^"]+)"', html)
    if resp.status != 200 or found is None:
        raise RuntimeError(f"seat page {path}: status {resp.status}, no order form")
    return cookie, found.group(1)


def _requests(port: int, seats: list[tuple[str, str, str, list[str], str]], with_session: bool) -> list[Request]:
    """Each seat in turn, alternating its two orders (each POST replaces the seat's sealed order)."""
    per_seat = []
    for game_id, seat, token, choices, prompt_token in seats:
        path = f"/play/{game_id}/{seat}/{token}"
        cookie, csrf = _session(port, path) if with_session else ("", "")
        per_seat.append([Request(path, urlencode({"csrf_token": csrf, "prompt_token": prompt_token,
                                                  "order": choice}).encode(), cookie) for choice in choices])
    return [per_seat[i % len(per_seat)][(i // len(per_seat)) % 2] for i in range(2 * len(per_seat))]


def _print(name: str, outcome: Outcome, ok: int) -> None:
    answered = len(outcome.latencies)
    good = outcome.statuses.get(ok, 0)
    print(f"{name} requests: {outcome.sent} requests")
    print(f"{name} throughput: {good / max(outcome.elapsed, 1e-9):.1f} req/s")
    print(f"{name} latency p50: {percentile(outcome.latencies, 0.50) * 1000:.1f} ms")
    print(f"{name} latency p99: {percentile(outcome.latencies, 0.99) * 1000:.1f} ms")
    print(f"{name} errors: {outcome.errors(ok)} requests"
          + (f" (statuses {dict(sorted(outcome.statuses.items()))}, {answered} answered)"
             if outcome.errors(ok) else ""))


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench http", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--backend", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument("--rate", type=float, default=200.0, help="requests per second offered")
    parser.add_argument("--requests", type=int, default=2000, help="at most this many requests per run")
    parser.add_argument("--duration", type=float, default=10.0, help="at most this many seconds of sending")
    parser.add_argument("--games", type=int, default=8, help="Doge games (4 seats each) the POSTs go to")
    parser.add_argument("--pg-url", default=PG_URL)
    parser.add_argument("--saturation", type=_levels, default=_levels("1,2,4,8,16,32,64"),
                        help="closed-loop connection counts for the saturation figure ('' skips it)")
    parser.add_argument("--saturation-seconds", type=float, default=3.0, help="seconds at each count")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-http-"))
    env = {"SECRET_KEY": "bench", "PBEM_VAR_DIR": str(tmp / "var"), "PBEM_MAIL_DIR": str(tmp / "mail"),
           "CELERY_BROKER_URL": f"sqla+sqlite:///{tmp / 'broker.sqlite'}", "PBEM_BASE_URL": "http://bench.test"}
    os.environ.update(env)
    os.environ.pop("PBEM_EAGER", None)
    from adjudicator import store

    from .httpapp import create_table

    with _database(args.backend, tmp, args.pg_url) as url:
        env["DATABASE_URL"] = url
        store.configure(url)
        store.init_db()
        create_table()
        seats = _make_games(args.games)
        store.configure(None)
        print(f"http backend: {args.backend}")
        print(f"http offered rate: {args.rate:.0f} req/s")
        print(f"http seats ordering: {len(seats)} seats in {args.games} games")
        port = _free_port()
        with _gunicorn("adjudicator.bench.httpapp:app", env, port, tmp / "baseline.log") as pid:
            floor = _measure("http baseline minimal app", pid, _requests(port, seats, with_session=False), port, args)
        port = _free_port()
        with _gunicorn("web.wsgi:app", env, port, tmp / "web.log") as pid:
            project = _measure("http order POST", pid, _requests(port, seats, with_session=True), port, args)
    if project is not None and floor is not None:
        print(f"http saturation ratio to baseline: {project.rate / max(floor.rate, 1e-9):.2f}")
    return 0


def _levels(text: str) -> list[int]:
    return [int(part) for part in text.split(",") if part.strip()]
