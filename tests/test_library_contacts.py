"""Where the code touches a library's private parts (issue 27): a name starting with one
underscore, imported from a library, read or written on a library's object (`self._x` too, in a
subclass of a library's class, when the library names `_x`), or overridden in such a subclass;
and any write to a library module's globals (`TRANSPORT_ALIASES["x"] = ...`, `kombu.x = ...`,
`ALIASES.update(...)`, `setattr(module, ...)`). Each contact left is listed here with why it stays
and the test that fails if an upgrade changes it, and the library has an upper version bound in
pyproject.toml. A new contact, or a listed one that is gone, fails this test: use the library's
public API or settings, or list the contact with its guard."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = ("adjudicator", "web", "workers")
SCANNED = (*OURS, "scripts")  # every directory of the repository's code (tests excepted)

# contact -> (why it stays, the test that guards it): none is left (issue 27). The embedded broker
# is kombu's SQLAlchemy transport set up through documented settings (workers/sqlitebroker.py).
ALLOWED: dict[tuple[str, str], tuple[str, str]] = {}
# Library globals made to be written, as their documentation says: the process environment, the
# module search path ("a program is free to modify this list"), and Flask's request-bound objects
# (g, the session, the request's own limits).
WRITABLE_GLOBALS = frozenset({"os.environ", "sys.path", "flask.g", "flask.session", "flask.request"})
MUTATING = frozenset({"update", "setdefault", "pop", "popitem", "clear", "append", "extend", "insert", "remove",
                      "add", "discard", "__setitem__", "__delitem__"})


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
    found |= {(rel, f"global write {name}") for name in _global_writes(tree)}
    if any(isinstance(n, ast.ClassDef) for n in tree.body):
        module = importlib.import_module(_module_name(path))
        found |= _overrides(rel, module) | _inherited_private(rel, tree, module)
    return found


def _imported_libraries(tree: ast.Module) -> dict[str, str]:
    """Names bound to a library's module or to one of its globals -> what they name."""
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _library(alias.name):
                    bound = alias.asname or alias.name.split(".")[0]
                    names[bound] = alias.name if alias.asname else bound
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and _library(node.module):
            names |= {alias.asname or alias.name: f"{node.module}.{alias.name}" for alias in node.names}
    return names


def _is_module(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _root(node: ast.expr) -> ast.expr:
    while isinstance(node, ast.Attribute | ast.Subscript):
        node = node.value
    return node


def _global_writes(tree: ast.Module) -> set[str]:
    """What is assigned, deleted or changed in place under a name imported from a library."""
    libraries = _imported_libraries(tree)
    changed: list[tuple[ast.expr, str]] = []  # (the expression written, how: assigned, a call, setattr)
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.Delete):
            changed += [(t, "assigned") for t in node.targets]
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            changed.append((node.target, "assigned"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in MUTATING:
            changed.append((node.func.value, "call"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("setattr", "delattr"):
            changed += [(a, "setattr") for a in node.args[:1]]
    written = set()
    for target, how in changed:
        for part in (target.elts if isinstance(target, ast.Tuple | ast.List) else [target]):
            root = _root(part)
            if not isinstance(root, ast.Name) or root.id not in libraries or (part is root and how == "assigned"):
                continue  # rebinding a name of our own module is no write to the library
            name = libraries[root.id] + ast.unparse(part)[len(root.id):]
            if how == "call" and _is_module(name):
                continue  # a module's function (event.remove), not a change of the module
            if not any(name == w or name.startswith((f"{w}.", f"{w}[")) for w in WRITABLE_GLOBALS):
                written.add(name)
    return written


def _inherited_private(rel: str, tree: ast.Module, module: object) -> set[tuple[str, str]]:
    """`self._x` / `cls._x` in a subclass of a library's class where a library class of its MRO
    defines or assigns `_x` (its attribute, not ours)."""
    found = set()
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        cls = getattr(module, node.name, None)
        if not inspect.isclass(cls):
            continue
        bases = [b for b in cls.__mro__[1:] if _library(b.__module__) and b is not object]
        for attr in ast.walk(node):
            if not (isinstance(attr, ast.Attribute) and _private(attr.attr)
                    and isinstance(attr.value, ast.Name) and attr.value.id in ("self", "cls")):
                continue
            owner = next((b for b in bases if _names(b, attr.attr)), None)
            if owner is not None:
                found.add((rel, f"attribute {attr.value.id}.{attr.attr} of {owner.__module__}.{owner.__qualname__}"))
    return found


def _names(cls: type, name: str) -> bool:
    """Whether a library class defines `name` or assigns it on its instances."""
    if name in vars(cls):
        return True
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):
        return False
    return re.search(rf"\b(self|cls)\.{re.escape(name)}\b", source) is not None


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
    for package in SCANNED:
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


SAMPLE = '''
import kombu.transport
from kombu.transport import TRANSPORT_ALIASES
from kombu.transport import sqlalchemy as sqla
from email.contentmanager import _encode_text
import os

TRANSPORT_ALIASES["sqla"] = "ours:Transport"
kombu.transport.TRANSPORT_ALIASES.update(sqlalchemy="ours:Transport")
os.environ["PBEM_X"] = "1"
mine = {}
mine["a"] = 1


class Channel(sqla.Channel):
    def _put(self, queue, message):
        self._session = None
        self._mine = 1  # ours: no library class names it
'''


def test_each_kind_of_contact_is_found(tmp_path: Path) -> None:
    """The detectors on a sample that makes every kind of contact once (and two that are none)."""
    import os
    import sys
    import types

    import kombu.transport

    path = tmp_path / "sample.py"
    path.write_text(SAMPLE)
    module = types.ModuleType("sample")
    aliases, environ = dict(kombu.transport.TRANSPORT_ALIASES), dict(os.environ)
    try:  # the sample really writes kombu's table and the environment: both are put back after
        exec(compile(SAMPLE, str(path), "exec"), module.__dict__)  # noqa: S102 - the sample above
    finally:
        kombu.transport.TRANSPORT_ALIASES.clear()
        kombu.transport.TRANSPORT_ALIASES.update(aliases)
        os.environ.clear()
        os.environ.update(environ)
    sys.modules["sample"] = module
    try:
        tree = ast.parse(SAMPLE)
        assert _global_writes(tree) == {"kombu.transport.TRANSPORT_ALIASES['sqla']",
                                        "kombu.transport.TRANSPORT_ALIASES"}
        assert _overrides("sample.py", module) == {("sample.py", "override kombu.transport.sqlalchemy.Channel._put")}
        assert _inherited_private("sample.py", tree, module) == {
            ("sample.py", "attribute self._session of kombu.transport.sqlalchemy.Channel")}
    finally:
        del sys.modules["sample"]
