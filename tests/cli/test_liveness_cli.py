"""`pbem liveness`: the sweep's report and its refusals."""

from __future__ import annotations

import pytest

from adjudicator.cli import liveness
from adjudicator.cli.main import COMMANDS


def test_liveness_reports_every_mode_and_no_dead_games(capsys) -> None:
    assert "liveness" in COMMANDS
    assert liveness.main(["china", "--seeds", "1", "--mode", "defaults"]) == 0
    out = capsys.readouterr().out.splitlines()
    played = len(list(liveness.configurations("china", full=False)))
    assert played >= 3 * 3  # every player count with at least the default set and both fortifications
    assert out[0].startswith(f"china defaults: games {played}, steps max ")
    assert out[-1] == "not live: 0"


def test_a_game_over_its_bound_is_reported_and_fails(monkeypatch, capsys) -> None:
    monkeypatch.setitem(liveness.STEP_BOUNDS, "china", 10)
    assert liveness.main(["china", "--seeds", "1", "--mode", "defaults"]) == 1
    out = capsys.readouterr().out
    assert "not live: china players=3 options=[default set] mode=defaults seed=1-0: no end within 10 steps" in out


def test_an_unknown_game_is_refused_with_the_known_ones() -> None:
    with pytest.raises(SystemExit, match="known: .*doge"):
        liveness.main(["chess"])
