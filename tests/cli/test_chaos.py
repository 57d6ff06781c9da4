"""`pbem chaos --short` as a test: a deadline burst and order mails while workers, web, broker and
database are killed and restarted; nothing may be lost or adjudicated twice."""

from __future__ import annotations

import pytest

from adjudicator import chaos
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
