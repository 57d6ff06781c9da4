"""`pbem run`: web, a real Celery worker with beat, on one machine with the embedded defaults.

Embedded default: SQLite in `var/pbem.sqlite`, a Celery broker that needs no server (see
`workers.celery_app`), outbound mail written to `var/mail/` (one `.eml` per message, listed at /dev/mail), and the
built-in SMTP listener for inbound mail on 127.0.0.1:2525 (`--smtp-port`, 0 to switch it off).
Set DATABASE_URL / REDIS_URL to run the same processes against PostgreSQL and Redis.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path


def default_workers() -> int:
    """Celery worker processes `pbem run` starts: one per core, at most 4 (`pbem bench mail` too)."""
    return max(1, min(os.cpu_count() or 1, 4))


def _wait_until_up(url: str, timeout: float = 30.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status < 500:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def _loopback(host: str) -> bool:
    import ipaddress

    host = host.strip().strip("[]").lower()
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem run", description=__doc__)
    parser.add_argument("--host", default=os.environ.get("PBEM_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PBEM_PORT", "8000")))
    parser.add_argument("--no-worker", action="store_true", help="start the web app only")
    parser.add_argument("--workers", type=int, default=default_workers(),
                        help="Celery worker processes (default: one per core, at most 4); the first also runs beat. "
                             "A deadline burst is spread over all of them")
    parser.add_argument("--smtp-host", default=os.environ.get("PBEM_SMTP_HOST", "127.0.0.1"))
    parser.add_argument("--smtp-port", type=int, default=int(os.environ.get("PBEM_SMTP_PORT", "2525")))
    args = parser.parse_args(argv)
    # development mode: without an SMTP host, mail goes to var/mail/ and, when bound to loopback
    # only, /dev/mail shows it (every player's mail with its secret reply address)
    os.environ["PBEM_BIND_HOST"] = args.host
    dev_mail = not os.environ.get("SMTP_HOST") and _loopback(args.host)
    if dev_mail:
        os.environ.setdefault("PBEM_DEV_MAIL", "1")

    Path("var").mkdir(exist_ok=True)
    base_url = f"http://{args.host}:{args.port}"
    if _loopback(args.host):  # development: only this machine reaches it, at this address
        os.environ.setdefault("PBEM_BASE_URL", base_url)

    from web import create_app, unsafe_settings  # imported here: `pbem verify` must not need Flask

    app = create_app()
    if (problem := unsafe_settings(app.config)) is not None:  # bound to other machines: a public server
        print(f"pbem will not start on {args.host}: {problem}", file=sys.stderr)
        return 2
    children: list[subprocess.Popen[bytes]] = []
    if not args.no_worker:
        from workers.celery_app import celery, is_embedded
        from workers.sqlitebroker import declare_queues

        if is_embedded(celery):  # before the workers, which would race to create them
            declare_queues(celery)
        worker = [sys.executable, "-m", "celery", "-A", "workers.celery_app", "worker",
                  "--pool", "solo", "--loglevel", "warning", "--without-mingle", "--without-gossip"]
        for n in range(max(1, args.workers)):
            # one process each (the embedded broker's pool, see workers/celery_app.py); one beat
            beat = ["--beat", "--schedule", "var/celerybeat-schedule"] if n == 0 else []
            children.append(subprocess.Popen([*worker, "-n", f"pbem{n + 1}@%h", *beat]))

    smtp = None
    if args.smtp_port:
        from workers.smtp import start as start_smtp

        try:
            smtp = start_smtp(args.smtp_host, args.smtp_port)
        except OSError as exc:
            print(f"cannot listen for mail on {args.smtp_host}:{args.smtp_port} ({exc}); pass "
                  "--smtp-port with a free port, or --smtp-port 0 to run without the listener",
                  file=sys.stderr)
            for child in children:
                child.terminate()
            return 1

    imap_stop = None
    if os.environ.get("IMAP_HOST") and os.environ.get("IMAP_MODE", "").strip().lower() == "idle":
        from workers.imap import start_idle

        _thread, imap_stop = start_idle()

    from werkzeug.serving import make_server

    server = make_server(args.host, args.port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop(*_: object) -> None:
        server.shutdown()

    signal.signal(signal.SIGTERM, stop)
    if _wait_until_up(base_url + "/"):
        print(f"pbem is ready at {base_url}/  (database: {app.config.get('DATABASE_URL', 'default')}; "
              + ("mail goes to var/mail/" + (f", listed at {base_url}/dev/mail" if dev_mail else "")
                 if not os.environ.get("SMTP_HOST") else "mail goes out by SMTP")
              + (f"; SMTP for inbound mail on {args.smtp_host}:{args.smtp_port}" if smtp else "") + ")", flush=True)
    try:
        while thread.is_alive():
            thread.join(0.5)
            for child in children:
                if child.poll() is not None:
                    print(f"the worker stopped with exit code {child.returncode}", file=sys.stderr)
                    server.shutdown()
                    return 1
    except KeyboardInterrupt:
        server.shutdown()
    finally:
        if smtp is not None:
            smtp.stop()
        if imap_stop is not None:
            imap_stop.set()
        for child in children:
            child.terminate()
        for child in children:
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
    return 0
