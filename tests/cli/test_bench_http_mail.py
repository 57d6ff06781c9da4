"""`pbem bench http` and `pbem bench mail` run end to end (tiny runs) and print each figure beside
its same-run baseline; every request and every mail is answered."""

from __future__ import annotations

import pytest

from adjudicator.bench.main import main as bench_main
from adjudicator.cli.run import default_workers

pytestmark = pytest.mark.slow

ENV = ("PBEM_EAGER", "PBEM_MAIL_DIR", "PBEM_VAR_DIR", "SECRET_KEY", "CELERY_BROKER_URL", "PBEM_BASE_URL",
       "DATABASE_URL", "PBEM_MAIL_DNS", "PBEM_CELERY_QUEUE", "PBEM_MAIL_REPLIES_PER_HOUR")


@pytest.fixture(autouse=True)
def _restored_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ENV:  # the benches set them; restored after the test
        monkeypatch.setenv(name, "")


def _figures(out: str) -> dict[str, str]:
    return dict(line.split(": ", 1) for line in out.splitlines() if ": " in line)


def test_bench_http_posts_orders_beside_the_minimal_app(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["http", "--games", "1", "--rate", "20", "--requests", "20", "--duration", "2",
                       "--saturation", "1,2", "--saturation-seconds", "0.5"]) == 0
    figures = _figures(capsys.readouterr().out)
    assert figures["http seats ordering"] == "3 seats in 1 games"
    for name in ("http order POST", "http baseline minimal app"):
        assert figures[f"{name} requests"] == "20 requests"
        assert figures[f"{name} errors"] == "0 requests"
        assert float(figures[f"{name} throughput"].split()[0]) > 0
        assert figures[f"{name} latency p99"].endswith(" ms")
        assert figures[f"{name} server CPU"].endswith(" ms/request")
        assert figures[f"{name} saturation"].endswith(" connections")  # the better of 1 and 2 connections
        assert float(figures[f"{name} saturation"].split()[0]) > 0
    assert float(figures["http saturation ratio to baseline"]) > 0


def test_bench_mail_answers_every_mail_through_a_real_worker(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["mail", "--games", "2", "--messages", "6", "--connections", "2", "--latency", "3"]) == 0
    figures = _figures(capsys.readouterr().out)
    assert figures["mail mode"] == "real workers on the embedded broker"
    assert figures["mail messages"] == "6 messages over 2 connections, 2 games, 6 seats"  # spread over the games
    assert float(figures["mail throughput ratio to baseline"]) > 0
    assert figures["mail workers"] == f"{default_workers()} processes"  # as many as `pbem run` starts
    for name in ("mail throughput", "mail baseline aiosmtpd + parse + insert"):
        assert float(figures[name].split()[0]) > 0
    for name in ("mail latency p50", "mail latency baseline same work inline p50"):
        assert figures[name].endswith(" ms")


def test_bench_mail_runs_on_postgresql_and_redis(capsys: pytest.CaptureFixture[str]) -> None:
    from tests.support.databases import postgres_database, redis_or_skip

    redis_or_skip()
    with postgres_database():  # reachable (else skipped, or failed with PBEM_REQUIRE_SERVICES=1)
        pass
    assert bench_main(["mail", "--backend", "postgres", "--games", "1", "--messages", "6", "--connections", "2",
                       "--latency", "3"]) == 0
    figures = _figures(capsys.readouterr().out)
    assert figures["mail backend"] == "postgres (PostgreSQL and Redis)"
    assert figures["mail mode"] == "real workers on Redis"
    assert float(figures["mail throughput"].split()[0]) > 0
    assert figures["mail latency p50"].endswith(" ms")
