"""`pbem bench pace` plays simulated players on a simulated clock and prints the pace figures."""

from __future__ import annotations

import re

from adjudicator import store


def test_bench_pace_prints_waits_mails_and_days(toy, capsys, monkeypatch) -> None:
    from adjudicator.cli.main import main

    monkeypatch.delenv("SMTP_HOST", raising=False)
    try:
        assert main(["bench", "pace", "toy", "--games", "2", "--players", "3"]) == 0
    finally:
        store.configure(None)
    out = capsys.readouterr().out
    assert "games finished: 4 of 4" in out
    waits = float(re.search(r"^waits per player: ([\d.]+)", out, re.M).group(1))
    mails = float(re.search(r"^mails per player: ([\d.]+)", out, re.M).group(1))
    assert waits >= 2 and mails >= waits, "every wait is one mail, plus the start and end mails"
    ratio = float(re.search(r"^mails per wait, worst seat: ([\d.]+)", out, re.M).group(1))
    assert ratio <= 2.0
    normal = float(re.search(r"^days to finish: ([\d.]+)", out, re.M).group(1))
    abandoned = float(re.search(r"^days to finish with an abandoned seat: ([\d.]+)", out, re.M).group(1))
    assert 0 < normal and 0 < abandoned
