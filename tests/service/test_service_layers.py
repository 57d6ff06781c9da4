"""The service's modules live in rooms (sub-packages) that form layers: no module reaches itself
through the modules it imports, and no room reaches itself through the rooms it imports
(docs/architecture.md, "Inside the service"). An import inside a function counts like one at the
top: imported late, a circle still ties the modules together, it only fails later."""

from __future__ import annotations

import ast
from pathlib import Path

SERVICE = Path(__file__).resolve().parents[2] / "adjudicator" / "service"
PACKAGE = "adjudicator.service"
FACE = "__init__"  # `from adjudicator.service import submit` imports the package's face
# The rooms from the bottom up: a room may import the rooms before it, never one after it.
ROOMS = ("common", "history", "play", "people", "pages", "moderation", "seating", "upkeep", "mail")


def module_name(path: Path) -> str:
    """`play.orders` for adjudicator/service/play/orders.py; `__init__` for the facade."""
    parts = path.relative_to(SERVICE).with_suffix("").parts
    return FACE if parts == (FACE,) else ".".join(p for p in parts if p != FACE) or FACE


def resolve(path: Path, level: int, module: str | None) -> str:
    """The absolute dotted name, below the service, that a relative import in `path` names."""
    here = list(path.relative_to(SERVICE).parent.parts)
    base = here[:len(here) - (level - 1)] if level > 1 else here
    return ".".join([*base, *([module] if module else [])])


def imported(path: Path, modules: set[str]) -> set[str]:
    """The service modules (dotted below the service, or FACE) that `path` imports, wherever the
    import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                target = resolve(path, node.level, node.module)
            elif (node.module or "") == PACKAGE or (node.module or "").startswith(PACKAGE + "."):
                target = (node.module or "")[len(PACKAGE) + 1:]
            else:
                continue
            for alias in node.names:  # `from .room import module` names a module
                dotted = f"{target}.{alias.name}" if target else alias.name
                found.add(dotted if dotted in modules else (target or FACE))
        elif isinstance(node, ast.Import):
            found |= {a.name[len(PACKAGE) + 1:] for a in node.names if a.name.startswith(PACKAGE + ".")}
    return {m for m in found if m in modules}


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in SERVICE.rglob("*.py")}


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    names = set(modules) | set(ROOMS)  # a room's __init__ is named after the room
    return {m: imported(p, names) - {m} for m, p in sorted(modules.items())}


def a_circle(graph: dict[str, set[str]]) -> list[str]:
    """One circle of imports (its modules in order, the first repeated at the end), or []."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str]:
        state[module] = 1
        path.append(module)
        for other in sorted(graph.get(module, ())):
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


def room_of(module: str) -> str:
    return module.split(".")[0]


def test_the_service_modules_import_in_one_direction() -> None:
    circle = a_circle(import_graph())
    assert not circle, "service modules import each other in a circle: " + " -> ".join(circle)


def test_every_module_lives_in_a_room() -> None:
    flat = sorted(m for m in all_modules() if m != FACE and "." not in m and m not in ROOMS)
    assert not flat, f"modules right under adjudicator/service (put each in a room of {ROOMS}): {flat}"
    assert {room_of(m) for m in all_modules() if m != FACE} == set(ROOMS)


def test_rooms_import_only_the_rooms_below_them() -> None:
    upward = []
    for module, targets in import_graph().items():
        if module == FACE:
            continue
        for target in targets:
            if target != FACE and ROOMS.index(room_of(target)) > ROOMS.index(room_of(module)):
                upward.append(f"{module} -> {target}")
    assert not upward, "a room imports a room above it (ROOMS lists them bottom up): " + ", ".join(sorted(upward))


def test_no_module_of_a_room_imports_the_facade() -> None:
    back = sorted(m for m, targets in import_graph().items() if m != FACE and FACE in targets)
    assert not back, f"these modules import adjudicator.service's face, which imports them: {back}"


def test_the_scan_sees_imports_at_the_top_and_inside_functions(tmp_path: Path) -> None:
    graph = import_graph()
    assert {"common.core", "play.pace", "play.steps"} <= graph["play.orders"]
    # `from .x import`, `from . import x`, `from ..room.x import` and the facade's `from .room.x import`
    assert "play.reveal" in graph[FACE] and "common.snapshot" in graph["common.core"]
    assert "history.undoable" in graph["play.steps"]
    room = tmp_path / "play"
    room.mkdir()
    late = room / "late.py"
    late.write_text("def f():\n    from .pace import settle\n    from ..common import core\n"
                    "    from adjudicator.service import submit\n")
    global SERVICE
    saved, SERVICE = SERVICE, tmp_path
    try:
        assert imported(late, {"play.pace", "common.core", FACE}) == {"play.pace", "common.core", FACE}
    finally:
        SERVICE = saved
    assert a_circle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]
    assert a_circle({"a": {"b"}, "b": set()}) == []
