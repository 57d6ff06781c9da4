"""Debian's chromium driven by Playwright (never a browser download), and the web app as a
real server process."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.databases import unavailable


def chromium_or_skip() -> str:
    path = os.environ.get("PBEM_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        unavailable("Debian's chromium is not installed (apt-get install chromium)")
    return path


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextmanager
def web_server(env: dict[str, str], cwd: Path, log: Path) -> Iterator[str]:
    """`pbem run --no-worker` on a free loopback port; yields its base URL."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    pbem = Path(sys.executable).with_name("pbem")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(pbem), "run", "--no-worker", "--smtp-port", "0", "--port", str(port)],
            cwd=cwd, env={**env, "PBEM_BASE_URL": base}, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(base + "/", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None:
                    raise RuntimeError(f"the web server exited:\n{log.read_text()[-3000:]}") from None
                time.sleep(0.2)
        else:
            raise RuntimeError(f"the web server did not start:\n{log.read_text()[-3000:]}")
        yield base
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
