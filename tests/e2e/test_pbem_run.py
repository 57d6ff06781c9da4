"""The README's first command: `pbem run` on the embedded default (SQLite, no Redis) starts the web
app, a real Celery worker with beat on the serverless broker, and the SMTP listener."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from adjudicator import service, store
from tests.support.browser import free_port
from tests.support.processes import wait_for
from workers.celery_app import make_celery
from workers.enqueue import enqueue

pytestmark = pytest.mark.slow


def test_pbem_run_serves_pages_reveals_in_its_worker_and_listens_for_mail(tmp_path: Path) -> None:
    port, smtp_port = free_port(), free_port()
    env = {k: v for k, v in os.environ.items()
           if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL", "PBEM_EAGER", "SMTP_HOST",
                        "PBEM_CELERY_QUEUE", "PBEM_VAR_DIR", "PBEM_MAIL_DIR")}
    log = tmp_path / "run.log"
    pbem = Path(sys.executable).with_name("pbem")
    with log.open("wb") as out:
        proc = subprocess.Popen([str(pbem), "run", "--port", str(port), "--smtp-port", str(smtp_port)],
                                cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: b"is ready at" in log.read_bytes(), "pbem run to print its URL", log=log)
        assert b"<h1>Games</h1>" in urllib.request.urlopen(f"http://127.0.0.1:{port}/").read()

        # a sealed group completed through the service is revealed by the worker pbem run started
        store.configure(f"sqlite:///{tmp_path / 'var' / 'pbem.sqlite'}")
        with store.transaction() as s:
            created = service.create_game(s, game="doge", seats=3)
        tokens = {}
        for seat, invite in created.invites.items():
            with store.transaction() as s:
                tokens[seat] = service.join_game(s, created.game_id, seat, invite, seat).seat_token
        tasks = []
        for seat, token in tokens.items():
            with store.transaction() as s:
                page = service.seat_state(s, created.game_id, seat, token)
                sub = service.submit(s, created.game_id, seat, token, page.choices[0], page.prompt_token)
            assert sub.error is None, sub.error
            tasks += sub.tasks
        broker = f"sqla+sqlite:///{tmp_path / 'var' / 'broker.sqlite'}"
        enqueue(tasks, app=make_celery({"broker_url": broker, "task_default_queue": "pbem"}))

        def revealed() -> bool:
            with store.transaction(write=False) as s:
                return service.public_game(s, created.game_id).record_length > 1

        wait_for(revealed, "the worker of pbem run to reveal the sealed group", timeout=60, log=log)

        with smtplib.SMTP("127.0.0.1", smtp_port, timeout=10) as smtp:
            assert smtp.noop()[0] == 250
    finally:
        store.configure(None)
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
    time.sleep(0.1)
