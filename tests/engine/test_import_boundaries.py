"""The engine and the games are pure: standard library and the engine only."""

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "adjudicator"
PURE = sorted([*ROOT.joinpath("engine").rglob("*.py"), *ROOT.joinpath("games").rglob("*.py")])
ALLOWED_PREFIXES = ("adjudicator.engine", "adjudicator.games")
FORBIDDEN_STDLIB = {"time", "datetime", "socket", "subprocess", "threading", "asyncio", "urllib", "http", "os"}
# A pure, deterministic encoder the engine may use where it is installed, and only here: the
# canonical bytes are the same without it (tests/engine/test_fast_path.py), so the engine still
# runs on the standard library alone (the browser's verifier, Pyodide without the package).
OPTIONAL_ACCELERATORS = {"orjson": "canonical.py"}


def imported_modules(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


@pytest.mark.parametrize("path", PURE, ids=lambda p: str(p.relative_to(ROOT)))
def test_pure_layers_import_only_stdlib_and_engine(path):
    for name in imported_modules(path):
        top = name.split(".")[0]
        if name.startswith(ALLOWED_PREFIXES) or top == "__future__":
            continue
        if OPTIONAL_ACCELERATORS.get(top) == path.name and path.parent.name == "engine":
            assert _only_tried(path, top), f"{path.name} imports {top} without falling back when it is missing"
            continue
        assert top in sys.stdlib_module_names, f"{path.name} imports {name}, outside stdlib and engine"
        assert top not in FORBIDDEN_STDLIB, f"{path.name} imports {name}: no clock, I/O or threads in rules"


def _only_tried(path: Path, module: str) -> bool:
    """Every import of `module` in `path` sits in a `try` that catches ImportError."""
    tree = ast.parse(path.read_text(), filename=str(path))
    tried = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Try) and any(
                isinstance(h.type, ast.Name) and h.type.id == "ImportError" for h in node.handlers):
            tried.update(id(inner) for stmt in node.body for inner in ast.walk(stmt))
    imports = [node for node in ast.walk(tree) if isinstance(node, ast.Import | ast.ImportFrom)
               and module in ([a.name.split(".")[0] for a in node.names] if isinstance(node, ast.Import)
                              else [(node.module or "").split(".")[0]])]
    return bool(imports) and all(id(node) in tried for node in imports)


def test_the_scan_sees_files():
    assert any(p.name == "rng.py" for p in PURE)


def test_the_registry_imports_no_game():
    """Games register themselves (entry points, or a default source named above the engine)."""
    path = ROOT / "engine" / "registry.py"
    for name in imported_modules(path):
        assert not name.startswith("adjudicator.games"), f"registry.py imports {name}"
    tree = ast.parse(path.read_text())
    strings = [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
    named = [s for s in strings if "adjudicator.games" in s and "\n" not in s]
    assert not named, f"registry.py names a game module: {named}"


def test_no_engine_module_imports_a_game():
    for path in ROOT.joinpath("engine").rglob("*.py"):
        for name in imported_modules(path):
            assert not name.startswith("adjudicator.games"), f"{path.name} imports {name}"


def test_web_reaches_the_workers_only_through_its_backend_adapter():
    """Web views call the service; only web/backend.py knows how tasks reach the workers."""
    web = ROOT.parent / "web"
    for path in web.rglob("*.py"):
        if path.name == "backend.py":
            continue
        for name in imported_modules(path):
            assert not name.startswith("workers"), f"web/{path.relative_to(web)} imports {name}"
