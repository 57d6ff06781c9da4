"""Benchmarks and the fault suite (`pbem bench ...`, `pbem chaos`), kept out of the runtime.

No module of web/, workers/, adjudicator/service or the rest of adjudicator/cli imports this package:
`pbem` imports it only when a bench or the chaos run is asked for (tests/test_bench_isolation.py).
What only the benches need is the `bench` extra of pyproject.toml: `pip install 'pbem[bench]'`.
"""

from __future__ import annotations

import importlib.util

EXTRA = "pbem[bench]"
# the third-party modules the benches import beyond the runtime's dependencies (the `bench` extra)
EXTRA_MODULES = ("hypothesis",)


def missing_extra(modules: tuple[str, ...] = EXTRA_MODULES) -> list[str]:
    """The modules of the bench extra that are not installed."""
    return [name for name in modules if importlib.util.find_spec(name) is None]


def install_hint(command: str, missing: list[str]) -> str:
    return f"{command} needs {', '.join(missing)}: install the bench extra, pip install '{EXTRA}'"
