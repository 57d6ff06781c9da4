"""The `pbem` commands as a user runs them: output format, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.bench import main as bench
from adjudicator.cli import boards, selfplay, verify

BOARDS = Path(__file__).resolve().parents[2] / "adjudicator" / "games" / "china" / "boards"


def test_selfplay_prints_violations_last_and_exports_verifiable_records(tmp_path, capsys) -> None:
    assert selfplay.main(["doge", "--games", "3", "--seed", "t", "--export", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[-1] == "violations: 0"
    assert "games: 3" in lines
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 3
    assert verify.main([str(f) for f in files]) == 0
    assert capsys.readouterr().out.count(": OK:") == 3


def test_verify_reports_the_first_bad_entry_and_exits_non_zero(tmp_path, capsys) -> None:
    selfplay.main(["toy", "--games", "1", "--seed", "v", "--export", str(tmp_path)])
    path = next(tmp_path.glob("*.json"))
    doc = json.loads(path.read_bytes())
    doc["entries"][2]["data"]["orders"] = {"p9": "forged"}
    path.write_bytes(json.dumps(doc, sort_keys=True, separators=(",", ":")).encode() + b"\n")
    capsys.readouterr()
    assert verify.main([str(path)]) == 1
    assert "entry 2" in capsys.readouterr().err


BENCH_FIGURES = (
    "state copy", "state copy baseline copy.deepcopy", "state copy baseline json round trip",
    "state copy baseline recursive copy", "apply p50", "apply p99", "apply baseline state hash p50",
    "apply baseline state hash p99", "apply baseline copy.deepcopy p50", "full games per second",
    "engine games per second", "engine games per second as the service applies (a copy per step)",
    "games per second baseline copy.deepcopy per step", "replay of a full game", "replay of the longest game",
    "replay of the slowest game", "replay baseline load and hash every state",
)


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_bench_prints_each_figure_beside_its_baselines(capsys, clock) -> None:
    assert bench.main(["toy", "--games", "3", "--clock", clock]) == 0
    out = capsys.readouterr().out
    assert f"clock: {clock}" in out.splitlines()
    for name in BENCH_FIGURES:
        line = next(line for line in out.splitlines() if line.startswith((name + ":", name + " (")))
        value, unit = line.split(":", 1)[1].split()
        assert float(value) > 0 and unit in {"us", "games/s", "ms"}, line


def test_boards_check_accepts_the_shipped_boards_and_lists_problems(tmp_path, capsys) -> None:
    assert boards.main(["check", str(BOARDS / "board-3-4p.json"), str(BOARDS / "board-4-5p.json")]) == 0
    assert capsys.readouterr().out.count(": OK:") == 2
    data = json.loads((BOARDS / "board-3-4p.json").read_text())
    data["roads"].append(["nowhere", data["roads"][0][0]])
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data))
    assert boards.main(["check", str(broken)]) == 1
    assert "nowhere" in capsys.readouterr().err


def test_bench_web_prints_page_figures(capsys, monkeypatch) -> None:
    from adjudicator.bench.main import main as bench_main

    monkeypatch.delenv("DATABASE_URL", raising=False)
    for name in ("PBEM_EAGER", "PBEM_MAIL_DIR"):  # the bench sets them; restored after the test
        monkeypatch.setenv(name, "")
    assert bench_main(["web", "--game", "doge", "--players", "3", "--steps", "10,20", "--requests", "3"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "game: doge"
    figures = dict(line.split(": ", 1) for line in out[1:] if not line.startswith("note:"))
    lengths = sorted({int(name.split(" at ")[1].split()[0]) for name in figures})
    assert len(lengths) == 2 and lengths[0] < lengths[1]  # one set of lines per checkpoint, a longer record last
    for length in lengths:
        for page in ("seat page", "public page", "whole log", "baseline game list"):
            for figure in ("p50", "p99", "cpu p50"):
                value = figures[f"{page} at {length} entries {figure}"]
                assert value.endswith(" ms") and float(value.split()[0]) > 0
            assert figures[f"{page} at {length} entries size"].endswith(" KiB")
