"""Rule traceability (issue 14): docs/games/<game>-rules.md lists every rule of the game's rulebook,
each with the tests that check it or the reading chosen. These tests keep that list honest: every
test it names must exist, and every row must say how its rule is covered."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("doge", "china", "1960", "founding-fathers")
REFERENCE = re.compile(r"(tests/[\w/]+\.py)::([\w:]+)(?:\[[^\]]*\])?")
# A row without a test must say which way it is covered, in one of these words.
COVERED_WITHOUT_TEST = ("Reading", "Flavour", "Not implemented", "Implemented")


@cache
def names_in(path: str) -> frozenset[str]:
    """`name` for each module-level test function and `Class::name` for each test method."""
    tree = ast.parse((ROOT / path).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            names.add(node.name)
        elif isinstance(node, ast.ClassDef):
            names.update(f"{node.name}::{item.name}" for item in node.body
                         if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and item.name.startswith("test"))
    return frozenset(names)


def rule_rows(text: str) -> list[list[str]]:
    """The cells of every table row whose first cell is a rule id such as `D12` or `FF3.4`."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells and re.fullmatch(r"[A-Z]+\d+(\.\d+)*[a-z]?", cells[0]):
            rows.append(cells)
    return rows


def problems(text: str) -> list[str]:
    """What is wrong with one rules file: missing tests, rows that say nothing, repeated ids."""
    found: list[str] = []
    seen: set[str] = set()
    for cells in rule_rows(text):
        rule_id, last = cells[0], cells[-1]
        if rule_id in seen:
            found.append(f"{rule_id}: the id is used twice")
        seen.add(rule_id)
        references = REFERENCE.findall(last)
        if not references and not any(word in last for word in COVERED_WITHOUT_TEST):
            found.append(f"{rule_id}: names no test and no reading")
        for path, name in references:
            if not (ROOT / path).is_file():
                found.append(f"{rule_id}: {path} does not exist")
            elif name not in names_in(path):
                found.append(f"{rule_id}: {path} has no test {name}")
    return found


@pytest.mark.parametrize("game", GAMES)
def test_every_listed_test_exists_and_every_rule_is_covered(game: str) -> None:
    text = (ROOT / "docs" / "games" / f"{game}-rules.md").read_text(encoding="utf-8")
    assert len(rule_rows(text)) >= 20, "a rulebook has more rules than that"
    assert problems(text) == []


@pytest.mark.parametrize("game", GAMES)
def test_most_rules_name_a_test(game: str) -> None:
    # Readings are welcome where the rulebook is silent, but the list is about tests first.
    rows = rule_rows((ROOT / "docs" / "games" / f"{game}-rules.md").read_text(encoding="utf-8"))
    tested = [r for r in rows if REFERENCE.search(r[-1])]
    assert len(tested) * 2 >= len(rows), f"{len(tested)} of {len(rows)} rules name a test"


def test_the_checker_catches_a_missing_test_a_missing_file_and_an_empty_row() -> None:
    real = ("tests/conformance/test_traceability.py::"
            "test_the_checker_catches_a_missing_test_a_missing_file_and_an_empty_row")
    text = "\n".join([
        "| id | rule | checked by |",
        "|---|---|---|",
        f"| X1 | a rule | `{real}` |",
        "| X2 | a rule | `tests/conformance/test_traceability.py::test_no_such_thing` |",
        "| X3 | a rule | `tests/nowhere/test_missing.py::test_x` |",
        "| X4 | a rule | to do |",
        "| X1 | again | Reading: same id |",
    ])
    assert problems(text) == [
        "X2: tests/conformance/test_traceability.py has no test test_no_such_thing",
        "X3: tests/nowhere/test_missing.py does not exist",
        "X4: names no test and no reading",
        "X1: the id is used twice",
    ]


def test_parametrised_ids_and_class_methods_are_understood() -> None:
    text = ("| X1 | r | `tests/conformance/test_traceability.py::test_most_rules_name_a_test[doge]` |\n"
            "| X2 | r | `tests/web/test_create_and_app.py::test_unknown_game_is_refused` |")
    assert problems(text) == []
