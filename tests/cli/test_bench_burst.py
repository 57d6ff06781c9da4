"""`pbem bench burst --mail smtp` end to end (a tiny run): every notification reaches the sink,
which runs in a process of its own, and the sink's and the workers' CPU are printed."""

from __future__ import annotations

import pytest

from adjudicator.bench.main import main as bench_main

pytestmark = pytest.mark.slow


def test_bench_burst_over_smtp_counts_every_mail_at_a_sink_in_its_own_process(
        capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.databases import postgres_database, redis_or_skip

    redis_or_skip()
    with postgres_database():  # reachable (else skipped, or failed with PBEM_REQUIRE_SERVICES=1)
        pass
    assert bench_main(["burst", "--games", "3", "--backend", "postgres", "--mail", "smtp"]) == 0
    figures = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines() if ": " in line)
    assert figures["burst notifications"] == "12 mails"
    assert figures["burst notifications received by the sink"] == "12 rows, 0 twice or more"
    assert figures["burst SMTP sink CPU"].endswith("standing for a relay elsewhere)")
    assert figures["burst worker CPU per notification after the last adjudication"].endswith(" ms")
