"""Prompt lookups: exact (true is not 1), O(1) after a few scans, and grids that are never built."""

import json
import random
from itertools import product

import pytest

from adjudicator.engine import ChoiceGrid, Prompt, copy_json
from adjudicator.engine.canonical import copy_tree

CHOICES = [{"card": c, "markers": [m]} for c in ("a", "b", "c") for m in (1, 2, 3)] + [{"flag": True}, {"flag": 2}]


def _prompt(choices=None) -> Prompt:
    return Prompt(seat="red", kind="k", choices=copy_json(choices or CHOICES), presorted=True)


@pytest.mark.parametrize("warm_up", [0, Prompt.SCANNED_LOOKUPS])
def test_find_is_exact_before_and_after_the_index(warm_up):
    prompt = _prompt()
    for _ in range(warm_up):
        prompt.find({"card": "a", "markers": [1]})
    assert prompt._index is None  # up to SCANNED_LOOKUPS lookups scan
    for _ in range(2):
        assert prompt.find({"markers": [2], "card": "b"}) == {"card": "b", "markers": [2]}  # keys reordered
        assert prompt.find(json.loads('{"card": "c", "markers": [3]}')) is not None
        assert prompt.find({"flag": True}) == {"flag": True}
        assert prompt.find({"flag": 1}) is None  # 1 is not true
        assert prompt.find({"flag": 2.0}) is None
        assert prompt.find({"card": "b", "markers": (2,)}) is None
        assert prompt.find({"card": "z", "markers": [1]}) is None
    assert prompt._index is not None  # built once the scans were used up


def test_true_then_one_in_the_choices_each_find_their_own():
    prompt = _prompt([{"x": True}, {"x": 1}])
    for _ in range(Prompt.SCANNED_LOOKUPS + 2):
        assert prompt.find({"x": 1}) == {"x": 1} and prompt.find({"x": 1})["x"] is not True
        assert prompt.find({"x": True})["x"] is True


def _grid() -> ChoiceGrid:
    return ChoiceGrid((["a", "b", "c"], [(1,), (2, 1), (3, 2, 1)]),
                      lambda card, markers: {"card": card, "markers": list(markers)},
                      lambda order: (order["card"], tuple(order["markers"])))


def test_a_grid_is_the_list_of_its_products():
    grid = _grid()
    listed = [{"card": c, "markers": list(m)} for c, m in product(["a", "b", "c"], [(1,), (2, 1), (3, 2, 1)])]
    assert len(grid) == 9 and list(grid) == listed and grid == listed and listed == grid
    assert [grid[i] for i in range(-9, 9)] == listed + listed and grid[2:5] == listed[2:5]
    with pytest.raises(IndexError):
        grid[9]
    first, second = random.Random(7), random.Random(7)
    assert [first.choice(grid) for _ in range(50)] == [second.choice(listed) for _ in range(50)]


def test_a_grid_slice_builds_only_the_choices_it_holds():
    built: list[tuple[str, tuple[int, ...]]] = []

    def build(card: str, markers: tuple[int, ...]) -> dict[str, object]:
        built.append((card, markers))
        return {"card": card, "markers": list(markers)}

    grid = ChoiceGrid((["a", "b", "c"], [(1,), (2, 1), (3, 2, 1)]), build, lambda o: (o["card"], tuple(o["markers"])))
    listed = list(grid)
    for sl in [slice(None), slice(0, 5), slice(3, None, 2), slice(-4, None), slice(None, None, -1), slice(5, 2),
               slice(100, 200), slice(-100, 3)]:
        built.clear()
        assert grid[sl] == listed[sl], sl
        assert len(built) == len(listed[sl]), "a mail's first choices, not every choice, are built"


def test_a_grid_prompt_finds_exactly_what_its_list_would():
    grid_prompt, list_prompt = _prompt(), _prompt(list(_grid()))
    grid_prompt.choices = _grid()
    for order in [{"card": "b", "markers": [2, 1]}, {"markers": [1], "card": "c"}, {"card": "b", "markers": [True]},
                  {"card": "b", "markers": [1.0]}, {"card": "b", "markers": (1,)}, {"card": "q", "markers": [1]},
                  {"card": "b"}, {"card": "b", "markers": [1], "extra": 1}, "b", None, [1],
                  {"card": ["x"], "markers": 5}]:
        assert grid_prompt.find(order) == list_prompt.find(order), order
        assert (order in grid_prompt.choices) == (order in list_prompt.choices), order
    assert grid_prompt.to_json()["choices"] == list_prompt.to_json()["choices"]


def test_copy_json_copies_like_the_recursive_copy():
    shared = [1, 2]
    value = {"a": shared, "b": shared, "c": {"d": [True, None, "s", 10**40]}}
    copied = copy_json(value)
    assert copied == value == copy_tree(value) and copied["a"] is not copied["b"]  # no aliasing kept
    assert copied["c"]["d"][0] is True
    odd = {"t": (1, [2]), "x": object()}  # not JSON: marshal refuses it, the recursive copy takes over
    assert copy_json(odd)["x"] is odd["x"] and copy_json(odd)["t"] is odd["t"]
    assert copy_json(5) == 5 and copy_json("s") == "s"
