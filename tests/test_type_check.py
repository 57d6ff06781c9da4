"""The type checker in the test command (issue 27): mypy over the packages that pyproject.toml's
[tool.mypy] names, so a type error fails the suite like a failing test, and the ignores in those
packages stay few. mypy comes with the `test` extra; without it the check is skipped, or fails
when PBEM_REQUIRE_SERVICES=1 (CI, whose run installs the extra)."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAX_IGNORES = 20
# an ignore names its error code (mypy enforces that) and says why, after it or on the line above
IGNORE = re.compile(r"#\s*type:\s*ignore\b(\[[^\]]*\])?(.*)")


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]


def _checked_files() -> list[Path]:
    return sorted(f for package in _config()["packages"]
                  for f in (ROOT / package.replace(".", "/")).rglob("*.py"))


def test_mypy_finds_no_error() -> None:
    if importlib.util.find_spec("mypy") is None:
        message = "mypy is not installed: pip install -e '.[test]'"
        if os.environ.get("PBEM_REQUIRE_SERVICES") == "1":
            pytest.fail(message)
        pytest.skip(message)
    # its cache (.mypy_cache, git-ignored) makes a run after a small change take a few seconds
    done = subprocess.run([sys.executable, "-m", "mypy", "--no-error-summary"], cwd=ROOT,
                          capture_output=True, text=True)
    errors = [line for line in done.stdout.splitlines() if ": error:" in line]
    assert not errors, "\n".join(errors)
    assert done.returncode == 0, done.stdout + done.stderr


def test_ignores_are_few_and_explained() -> None:
    found = []
    for f in _checked_files():
        lines = f.read_text().splitlines()
        for n, line in enumerate(lines):
            if m := IGNORE.search(line):
                why = "#" in m.group(2) or (n > 0 and lines[n - 1].lstrip().startswith("#"))
                found.append((f"{f.relative_to(ROOT)}:{n + 1}", bool(m.group(1)) and why))
    unexplained = [where for where, explained in found if not explained]
    assert not unexplained, f"a type: ignore without its error code or a reason after it: {unexplained}"
    assert len(found) <= MAX_IGNORES, f"{len(found)} type: ignore comments, at most {MAX_IGNORES}"
