"""`pbem decks check`: a valid deck gives one OK line, a broken one lists its problems and exits 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.cli.decks import main
from adjudicator.games.founding_fathers.data import deck_text


@pytest.fixture()
def standard(tmp_path: Path) -> Path:
    path = tmp_path / "standard.json"
    path.write_text(deck_text("standard"), encoding="utf-8")
    return path


def test_check_ok_prints_one_summary_line(standard: Path, capsys) -> None:
    assert main(["check", str(standard)]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1
    line = out[0]
    assert line.startswith(f"{standard}: OK: deck 'standard': 50 statesmen")
    assert "67 issues (A 20, B 26, C 21)" in line
    assert "5 taxes, 5 tariffs, 2 bonds" in line
    data = json.loads(standard.read_text())
    values = sum(len(c["stand_in"]) for t in ("statesmen", "states", "offices", "taxes", "issues", "actions")
                 for c in data[t])
    assert f"stand-ins: {values} values" in line


def test_check_reports_every_problem_and_exits_1(standard: Path, tmp_path: Path, capsys) -> None:
    data = json.loads(standard.read_text())
    data["statesmen"][0]["provenance"] = "rumour"
    data["issues"][0]["options"][0]["effects"].append({"op": "teleport"})
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["check", str(standard), str(bad)]) == 1
    captured = capsys.readouterr()
    assert f"{standard}: OK" in captured.out
    assert f"{bad}: 2 problem(s):" in captured.err
    assert "provenance" in captured.err and "unknown op 'teleport'" in captured.err


def test_check_unreadable_files(tmp_path: Path, capsys) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    missing = tmp_path / "missing.json"
    assert main(["check", str(broken), str(missing)]) == 1
    err = capsys.readouterr().err
    assert "broken.json: cannot read as JSON" in err and "missing.json: cannot read as JSON" in err


def test_check_a_stand_in_free_deck(standard: Path, tmp_path: Path, capsys) -> None:
    data = json.loads(standard.read_text())
    for table in ("statesmen", "states", "offices", "taxes", "issues", "actions"):
        for card in data[table]:
            card["stand_in"], card["provenance"] = [], "card"
    data["id"] = "printed"
    path = tmp_path / "printed.json"
    path.write_text(json.dumps(data))
    assert main(["check", str(path)]) == 0
    assert "stand-ins: 0 values on 0 of 196 cards (0 cards wholly stand-in)" in capsys.readouterr().out


def test_usage_errors_exit_nonzero(tmp_path) -> None:
    with pytest.raises(SystemExit):
        main([])
    with pytest.raises(SystemExit):
        main(["remove", "x.json"])
    assert main(["install", str(tmp_path / "missing.json")]) == 1
