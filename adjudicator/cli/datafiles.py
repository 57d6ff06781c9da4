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


def read_json(path: Path) -> Any:
    """A file's JSON, or None after saying on stderr why it cannot be read."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        print(f"{path}: cannot read as JSON: {exc}", file=sys.stderr)
        return None


def install(game: str, kind: str, name: str, data: Any, source: str) -> int:
    """Install into the server's database (DATABASE_URL, else var/pbem.sqlite); new games can
    choose it at once, running games keep the version they started with."""
    from adjudicator import service, store

    store.init_db()
    try:
        with store.transaction() as s:
            info = service.install_content(s, game, kind, name, data, source=source)
    except service.ServiceError as exc:
        print(f"not installed: {exc}", file=sys.stderr)
        return 1
    print(f"installed {game} {kind} {info.name!r} as {info.pin}; new games can choose {info.name!r} "
          f"(database {store.database_url()})")
    return 0


def list_installed(game: str, kind: str) -> int:
    from adjudicator import service, store

    store.init_db()
    with store.transaction(write=False) as s:
        found = service.list_content(s, game, kind)
    for info in found:
        origin = "built in" if info.builtin else f"installed{f' from {info.source}' if info.source else ''}"
        state = "new games get it" if info.current else "kept for the games that use it"
        print(f"{info.name:20} {info.pin:40} {origin}; {state}")
    return 0
