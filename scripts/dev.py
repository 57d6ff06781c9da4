#!/usr/bin/env python3
"""Bootstrap for a fresh machine that has only Python: `python3 scripts/dev.py run|test`.

- `run`: creates `.venv`, installs the project, starts the whole system (`pbem run`).
- `test`: also installs the test tools and Debian's chromium (for the browser tests), starts the
  local PostgreSQL and Redis if they are installed but down, then runs ruff and the whole suite
  (mypy, the type checker, is one of its tests: tests/test_type_check.py).
- Both fetch the browser verifier's runtime (Pyodide, pinned, from npm) into var/ when npm is
  there (web/verifier_runtime.py); without it `/verify` says so and its browser tests skip.

Only the standard library is used here, since nothing else is installed yet.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = ROOT / ".venv"
BIN = VENV / "bin"


def say(message: str) -> None:
    print(f"[pbem] {message}", flush=True)


def run(cmd: list[str], **kwargs) -> None:
    subprocess.run(cmd, check=True, **kwargs)


def ensure_venv(extras: str) -> None:
    if not (BIN / "python").exists():
        say("creating .venv")
        run([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / f".installed-{extras or 'base'}"
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if stamp.exists() and stamp.read_text() == digest:
        return
    say("installing the project and its dependencies (first run only)")
    run([str(BIN / "python"), "-m", "pip", "install", "-q", "--upgrade", "pip"])
    target = f".[{extras}]" if extras else "."
    run([str(BIN / "python"), "-m", "pip", "install", "-q", "-e", target], cwd=ROOT)
    stamp.write_text(digest)


def ensure_verifier_runtime() -> None:
    """Pyodide for `/verify` (about 14 MB, once); a failure only disables the browser verifier."""
    done = subprocess.run([str(BIN / "python"), "-m", "web.verifier_runtime"], cwd=ROOT)
    if done.returncode:
        say("the browser verifier will be unavailable and its browser tests will skip")


def port_open(port: int) -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.5)
        return sock.connect_ex(("127.0.0.1", port)) == 0


def ensure_chromium() -> None:
    if shutil.which("chromium") or os.environ.get("PBEM_CHROMIUM"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        say("installing Debian's chromium for the browser tests")
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        run(["apt-get", "update", "-qq"], env=env)
        run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, stdout=subprocess.DEVNULL)
    else:
        say("chromium is not installed and cannot be installed here; browser tests will skip")


def ensure_services() -> None:
    """Start the machine's PostgreSQL and Redis when they are installed but not running."""
    if not port_open(5432) and shutil.which("pg_ctlcluster") and Path("/etc/postgresql").exists():
        versions = sorted(os.listdir("/etc/postgresql"))
        if versions:
            say("starting PostgreSQL")
            subprocess.run(["pg_ctlcluster", "--skip-systemctl-redirect", versions[-1], "main", "start"])
    if not port_open(6379) and shutil.which("redis-server"):
        say("starting Redis")
        subprocess.run(["redis-server", "--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379",
                        "--save", "", "--appendonly", "no"])
    for _ in range(40):
        if port_open(5432) and port_open(6379):
            return
        time.sleep(0.25)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else ""
    if command == "run":
        ensure_venv("")
        ensure_verifier_runtime()
        os.execv(str(BIN / "pbem"), [str(BIN / "pbem"), "run", *argv[1:]])
    if command == "test":
        ensure_venv("test")
        ensure_chromium()
        ensure_verifier_runtime()
        ensure_services()
        say("ruff")
        lint = subprocess.run([str(BIN / "ruff"), "check", "."], cwd=ROOT)
        if lint.returncode:
            return lint.returncode
        say("pytest")
        return subprocess.run([str(BIN / "python"), "-m", "pytest", *argv[1:]], cwd=ROOT).returncode
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
