"""`pbem chaos --short` as a test: a deadline burst and order mails while workers, web, broker and
database are killed and restarted; nothing may be lost or adjudicated twice."""

from __future__ import annotations

import pytest

from adjudicator.bench import chaos
from tests.support.databases import unavailable

pytestmark = pytest.mark.slow


@pytest.mark.parametrize("backend", ["embedded", "postgres"])
def test_short_chaos_run_loses_nothing(backend: str) -> None:
    if backend == "postgres" and (why := chaos.services_available()):
        unavailable(f"cannot start a private PostgreSQL and Redis: {why}")
    figures = chaos.run(backend, chaos.short_plan())
    report = "\n".join(figures.lines())
    print(report)
    assert figures.ok, report
    assert figures.games["1"] == chaos.short_plan().games, report
    assert figures.mails_processed == figures.mails_sent, report
    assert figures.due and figures.never_sent == 0, report


def test_the_supervisor_starts_again_a_process_that_exited_with_an_error(tmp_path) -> None:
    """As systemd's Restart=on-failure does in deploy/: a Celery worker that stops on an
    unrecoverable broker error must not leave the run without workers."""
    import os
    import shutil
    import sys
    import threading
    import time

    run = chaos.Run("embedded", chaos.short_plan())
    try:
        marker = tmp_path / "starts"
        script = f"open({str(marker)!r}, 'a').write('x'); raise SystemExit(3)"
        run.procs["worker"] = chaos.Proc("worker", [sys.executable, "-c", script], dict(os.environ), tmp_path)
        run.procs["worker"].start()
        supervisor = threading.Thread(target=run.supervise, daemon=True)
        supervisor.start()
        deadline = time.monotonic() + 20
        while len(run.figures.restarts) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        run.stop_flag.set()
        supervisor.join(5)
        assert run.figures.restarts[:2] == ["worker (exit 3)", "worker (exit 3)"]
        assert len(marker.read_text()) >= 2  # it really ran again
    finally:
        run.stop_flag.set()
        shutil.rmtree(run.tmp, ignore_errors=True)
