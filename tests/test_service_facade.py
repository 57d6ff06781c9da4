"""The adapters reach the service through its facade only (issue 27): web/, workers/ and
adjudicator/cli/ import `adjudicator.service` and the names of its `__all__`, never one of its
modules (`adjudicator.service.upkeep.recovery`, `from adjudicator.service import reading`, or
`service.recovery` after `from adjudicator import service`). And web calls a use case by the
function itself, `backend.call(service.submit, ...)`, never by its name in a string.

adjudicator/bench (the benchmarks and the fault suite, the `bench` extra) is exempt: it measures
and breaks the service's insides on purpose, so it may import them."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import get_args

import pytest

import adjudicator.service as facade

ROOT = Path(__file__).resolve().parents[1]
ADAPTERS = ("web", "workers", "adjudicator/cli")
PACKAGE = "adjudicator.service"
PUBLIC = frozenset(facade.__all__)
BACKEND_RUNNERS = ("call", "read", "read_raw")


def adapter_files() -> list[Path]:
    return sorted(p for folder in ADAPTERS for p in (ROOT / folder).rglob("*.py"))


def facade_breaches(source: str) -> Iterator[str]:
    """Each use of the service that goes around its facade, described."""
    tree = ast.parse(source)
    aliases: set[str] = set()  # names bound to the facade module itself
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.startswith(PACKAGE + "."):
                    yield f"line {node.lineno}: import {a.name}"
                elif a.name == PACKAGE and a.asname:
                    aliases.add(a.asname)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.startswith(PACKAGE + "."):
                yield f"line {node.lineno}: from {node.module} import ..."
            elif node.module == PACKAGE:
                yield from (f"line {node.lineno}: from {PACKAGE} import {a.name} (not in its __all__)"
                            for a in node.names if a.name not in PUBLIC)
            elif node.module == "adjudicator":
                aliases |= {a.asname or a.name for a in node.names if a.name == "service"}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in aliases and node.attr not in PUBLIC):
            yield f"line {node.lineno}: {node.value.id}.{node.attr} (not in {PACKAGE}.__all__)"


def calls_by_name(source: str) -> Iterator[str]:
    """Each `backend.call/read/read_raw` whose function is given as a string."""
    for node in ast.walk(ast.parse(source)):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in BACKEND_RUNNERS and isinstance(node.func.value, ast.Name)
                and node.func.value.id == "backend" and node.args
                and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            yield f"line {node.lineno}: backend.{node.func.attr}({node.args[0].value!r}, ...)"


@pytest.mark.parametrize("path", adapter_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_adapters_import_the_service_through_its_facade(path: Path) -> None:
    breaches = list(facade_breaches(path.read_text()))
    assert not breaches, f"{path.relative_to(ROOT)} goes around adjudicator.service's facade: {breaches}"


@pytest.mark.parametrize("path", sorted((ROOT / "web").rglob("*.py")), ids=lambda p: str(p.relative_to(ROOT)))
def test_web_calls_the_service_by_function_not_by_name(path: Path) -> None:
    named = list(calls_by_name(path.read_text()))
    assert not named, f"{path.relative_to(ROOT)} names a use case in a string: {named}"


def test_the_facade_exports_what_it_names() -> None:
    assert [n for n in facade.__all__ if not hasattr(facade, n)] == []
    assert len(PUBLIC) == len(facade.__all__)


def test_the_scans_see_the_adapters_and_catch_each_way_around() -> None:
    files = {str(p.relative_to(ROOT)) for p in adapter_files()}
    assert {"web/seat.py", "workers/tasks.py", "adjudicator/cli/mail.py"} <= files
    assert not any(f.startswith("adjudicator/bench") for f in files)
    bad = ("import adjudicator.service.common.core\n"
           "from adjudicator.service.common.tokens import token_matches\n"
           "from adjudicator.service import reading, submit\n"
           "from adjudicator import service as svc\n"
           "svc.recovery.sweep\nsvc.submit\n")
    found = list(facade_breaches(bad))
    assert [f.split(":")[0] for f in found] == ["line 1", "line 2", "line 3", "line 5"], found
    assert list(facade_breaches("from adjudicator import service\nservice.submit\n")) == []
    assert len(list(calls_by_name('backend.call("submit", 1)\nbackend.read(service.lobby)\n'))) == 1


def test_every_kind_of_task_has_its_worker_task() -> None:
    """A Task is a tuple whose first item is a TaskKind; workers/enqueue.py sends each kind to its
    Celery task by name, so the two lists must name the same kinds."""
    from workers.enqueue import TASK_NAMES

    assert set(get_args(facade.TaskKind)) == set(TASK_NAMES)
    kinds = {get_args(get_args(member)[0])[0] for member in get_args(facade.Task)}
    assert kinds == set(TASK_NAMES)
