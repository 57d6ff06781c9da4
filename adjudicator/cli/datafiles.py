"""Checking replacement data files (China boards, Founding Fathers decks) the same way."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any


def check_files(paths: list[Path], validate: Callable[[Any], list[str]],
                summary: Callable[[Any], str]) -> int:
    """Print `PATH: OK: <summary>` or every problem; exit status 1 if any file fails."""
    failed = 0
    for path in paths:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            print(f"{path}: cannot read as JSON: {exc}", file=sys.stderr)
            failed += 1
            continue
        problems = validate(data)
        if problems:
            failed += 1
            print(f"{path}: {len(problems)} problem(s):", file=sys.stderr)
            for problem in problems:
                print(f"  - {problem}", file=sys.stderr)
            continue
        print(f"{path}: OK: {summary(data)}")
    return 1 if failed else 0
