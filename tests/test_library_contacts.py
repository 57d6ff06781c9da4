"""Where the code touches a library's private parts (issue 27): a name starting with one
underscore, imported from a library, read on a library's object, or overridden in a subclass of a
library's class. Each contact left is listed here with why it stays and the test that fails if an
upgrade changes it, and the library has an upper version bound in pyproject.toml. A new contact,
or a listed one that is gone, fails this test: use the library's public API or settings, or list
the contact with its guard."""

from __future__ import annotations

import ast
import importlib
import inspect
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = ("adjudicator", "web", "workers")

# contact -> (why it stays, the test that guards it)
ALLOWED = {
    ("workers/rawmail.py", "import email.contentmanager._encode_text"): (
        "the email package's text encoder, so the fast path encodes exactly as set_content does",
        "tests/workers/test_rawmail.py"),
    ("workers/beat.py", "override celery.beat.Scheduler._ensure_connected"): (
        "beat's broker retries at most 2 s apart; Celery has no setting for its intervals",
        "tests/workers/test_beat_reconnect.py"),
    **{("workers/wakebroker.py", f"override kombu.transport.sqlalchemy.Channel.{name}"): (
        "the embedded broker's woken channel: kombu's documented virtual-channel hooks and its "
        "SQLAlchemy transport's session", "tests/workers/test_wakebroker.py")
       for name in ("_engine_from_config", "_get", "_get_or_create", "_new_queue", "_put")},
    **{("workers/wakebroker.py", f"attribute super().{name}"): (
        "calls the SQLAlchemy transport's own hook it extends", "tests/workers/test_wakebroker.py")
       for name in ("_engine_from_config", "_get_or_create", "_new_queue")},
}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _library(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] not in OURS


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _contacts(path: Path) -> set[tuple[str, str]]:
    rel = str(path.relative_to(ROOT))
    tree = ast.parse(path.read_text())
    found: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and _library(node.module):
            found |= {(rel, f"import {node.module}.{a.name}") for a in node.names if _private(a.name)}
        elif isinstance(node, ast.Attribute) and _private(node.attr):
            owner = ast.unparse(node.value)
            if owner not in ("self", "cls"):
                found.add((rel, f"attribute {owner}.{node.attr}"))
    if any(isinstance(n, ast.ClassDef) for n in tree.body):
        found |= _overrides(rel, importlib.import_module(_module_name(path)))
    return found


def _overrides(rel: str, module: object) -> set[tuple[str, str]]:
    """Methods of our classes that replace a private one of a library base class."""
    found = set()
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if cls.__module__ != module.__name__:  # type: ignore[attr-defined]
            continue
        for name, value in vars(cls).items():
            if not _private(name) or not callable(value):
                continue
            for base in cls.__mro__[1:]:
                if _library(base.__module__) and name in vars(base):
                    found.add((rel, f"override {base.__module__}.{base.__qualname__}.{name}"))
                    break
    return found


def test_every_private_contact_with_a_library_is_listed_with_its_guard() -> None:
    found: set[tuple[str, str]] = set()
    for package in OURS:
        for path in sorted((ROOT / package).rglob("*.py")):
            found |= _contacts(path)
    assert sorted(found - set(ALLOWED)) == [], "a new private contact: use the public API, or list it here"
    assert sorted(set(ALLOWED) - found) == [], "a listed contact is gone: take it off the list"
    for _why, guard in ALLOWED.values():
        assert (ROOT / guard).exists(), guard


def test_libraries_touched_have_an_upper_bound() -> None:
    text = (ROOT / "pyproject.toml").read_text()
    for requirement in ("kombu>=5.4,<5.8", "celery[redis]>=5.4,<5.8"):
        assert f'"{requirement}"' in text, requirement
