"""The service's modules form layers: no module reaches itself through the modules it imports
(docs/architecture.md, "Inside the service"). An import inside a function counts like one at the
top: imported late, a circle still ties the modules together, it only fails later."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "adjudicator" / "service"
PACKAGE = "adjudicator.service"
FACE = "__init__"  # `from adjudicator.service import submit` imports the package's face


def imported(path: Path, modules: set[str]) -> set[str]:
    """The service modules that `path` imports, wherever the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level == 1 or node.module == PACKAGE:  # from . import x / from .x import y
                base = node.module.split(".")[0] if node.level == 1 and node.module else None
                found |= {base} if base else {a.name if a.name in modules else FACE for a in node.names}
            elif node.level == 0 and (node.module or "").startswith(PACKAGE + "."):
                found.add(node.module.split(".")[2])  # type: ignore[union-attr]
        elif isinstance(node, ast.Import):
            found |= {a.name.split(".")[2] for a in node.names if a.name.startswith(PACKAGE + ".")}
    return found & modules


def import_graph() -> dict[str, set[str]]:
    modules = {p.stem for p in SERVICE.glob("*.py")}
    return {m: imported(SERVICE / f"{m}.py", modules) - {m} for m in sorted(modules)}


def a_circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports (its modules in order, the first repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for other in sorted(graph[module]):
            if state.get(other) == 1:
                return path[path.index(other):] + [other]
            if other not in state and (circle := visit(other)):
                return circle
        path.pop()
        state[module] = 2
        return []

    for module in graph:
        if module not in state and (circle := visit(module)):
            return circle
    return []


def test_the_service_modules_import_in_one_direction() -> None:
    circle = a_circle(import_graph())
    assert not circle, "service modules import each other in a circle: " + " -> ".join(circle)


def test_the_scan_sees_imports_at_the_top_and_inside_functions(tmp_path: Path) -> None:
    graph = import_graph()
    assert {"core", "pace", "steps"} <= graph["orders"]
    assert "reveal" in graph[FACE] and "snapshot" in graph["core"]  # `from .x import` and `from . import x`
    late = tmp_path / "late.py"
    late.write_text("def f():\n    from .pace import settle\n    from adjudicator.service import submit\n")
    assert imported(late, {"pace", FACE}) == {"pace", FACE}
    assert a_circle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert a_circle({"a": {"b"}, "b": set()}) == []
