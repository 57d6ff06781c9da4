"""`pbem bench fuzz`, short: a few hundred Hypothesis-generated and crafted hostile mails through
the real intake, each ending in exactly one reply or one logged drop (issue 11). The 10,000-mail
run is `pbem bench fuzz --mails 10000`."""

from __future__ import annotations

import pytest

from adjudicator.bench.fuzz import KINDS, fuzz_environment, run_fuzz

pytest.importorskip("hypothesis")
pytest.importorskip("adjudicator.games.doge")

MAILS = 200


@pytest.fixture
def fuzz_env(monkeypatch: pytest.MonkeyPatch, tmp_path):
    for name, value in fuzz_environment(tmp_path).items():
        monkeypatch.setenv(name, value)
    monkeypatch.delenv("SMTP_HOST", raising=False)
    monkeypatch.delenv("MAIL_FROM", raising=False)


def test_every_fuzzed_mail_ends_in_one_reply_or_one_logged_drop(fuzz_env, sqlite_db) -> None:
    report = run_fuzz(MAILS, seed=11)
    assert report.mails >= MAILS
    assert report.crashes == [] and report.stuck == 0, report.lines()
    assert report.unaccounted == [], report.lines()
    assert report.replies + report.drops == report.mails
    # the corpus reaches every kind, and both ends: answers and drops (repeated Message-IDs among them)
    assert set(report.kinds) == set(KINDS)
    assert report.replies > 0 and report.drops > report.duplicates > 0


def test_a_crash_in_the_intake_is_counted(fuzz_env, sqlite_db, monkeypatch: pytest.MonkeyPatch) -> None:
    """The accounting can fail: a body reader that raises makes internal errors, which count."""
    from adjudicator.service.mail import mailprep

    def broken(text: str):
        raise RuntimeError("boom")

    monkeypatch.setattr(mailprep, "parse_body", broken)  # the intake's (inbound._handle, the drain)
    report = run_fuzz(40, seed=3)
    assert report.crashes and not report.ok
    assert any("internal error: RuntimeError" in c for c in report.crashes)
