"""Real processes for tests: a Celery worker with beat as a subprocess, and waiting helpers."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.databases import Database
from workers.celery_app import make_celery

ROOT = Path(__file__).resolve().parents[2]


def wait_for(check: Callable[[], bool], what: str, timeout: float = 40, log: Path | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.3)
    tail = log.read_text()[-3000:] if log and log.exists() else ""
    pytest.fail(f"timed out waiting for {what}\n--- worker log ---\n{tail}")


class Worker:
    def __init__(self, broker: str, db: Database, tmp: Path, pool: str = "solo", concurrency: int = 1,
                 env: dict[str, str] | None = None) -> None:
        self.broker, self.tmp, self.pool, self.concurrency = broker, tmp, pool, concurrency
        self.queue = f"pbem-test-{secrets.token_hex(4)}"  # never share a queue with another run
        self.mail = tmp / "mail"
        self.log = tmp / "worker.log"
        self.env = {
            **os.environ,
            "DATABASE_URL": db.url,
            "CELERY_BROKER_URL": broker,
            "PBEM_CELERY_QUEUE": self.queue,
            "PBEM_PLUGINS": "tests.support.toygame",
            "PBEM_SWEEP_SECONDS": "1",
            "PBEM_MAIL_DIR": str(self.mail),
            "PBEM_BEAT_SCHEDULE": str(tmp / "beat-schedule"),
            "PYTHONPATH": str(ROOT),
            **(env or {}),
        }
        self.env.pop("PBEM_EAGER", None)
        self.env.pop("SMTP_HOST", None)
        self.app = make_celery({"broker_url": broker, "task_default_queue": self.queue})
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        celery = Path(sys.executable).with_name("celery")
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [str(celery), "-A", "workers.celery_app", "worker", "-B", f"--pool={self.pool}",
                 f"--concurrency={self.concurrency}", "--loglevel=INFO",
                 "-n", f"{self.queue}@%h"],  # PBEM_CELERY_QUEUE names its queues
                cwd=self.tmp, env=self.env, stdout=out, stderr=subprocess.STDOUT,
            )

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
