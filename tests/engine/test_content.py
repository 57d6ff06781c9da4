"""Content libraries: names resolve to pins, pins name exact data, nothing invalid gets in."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.engine import (
    ContentError,
    ContentLibrary,
    GameInfo,
    IllegalOrder,
    Option,
    canonical_json,
    pin_for,
)


def _validate(data):
    return [] if isinstance(data, dict) and isinstance(data.get("size"), int) else ["size must be a whole number"]


@pytest.fixture
def boards() -> ContentLibrary:
    lib = ContentLibrary("toy", "board", _validate)
    lib.add("basic", {"size": 3}, builtin=True)
    return lib


def test_a_name_resolves_to_the_pin_of_its_newest_version(boards):
    first = boards.add("printed", {"size": 5})
    assert first == pin_for("printed", {"size": 5}) and first.startswith("printed@")
    second = boards.add("printed", {"size": 6})
    assert second != first
    assert boards.resolve("printed") == second
    assert boards.resolve(first) == first  # an old pin still names its own data
    assert boards.data(first) == {"size": 5}
    assert boards.names() == ["basic", "printed"]


def test_invalid_content_and_bad_names_are_refused_with_the_reason(boards):
    with pytest.raises(ContentError, match="size must be a whole number"):
        boards.add("broken", {"size": "big"})
    with pytest.raises(ContentError, match="lower-case"):
        boards.add("Printed Board", {"size": 5})
    with pytest.raises(ContentError, match="comes with pbem"):
        boards.add("basic", {"size": 9})
    with pytest.raises(ContentError, match="installed: basic"):
        boards.resolve("nowhere")
    assert boards.names() == ["basic"]


def test_pinned_data_must_match_its_pin_and_does_not_change_what_new_games_get(boards):
    current = boards.add("printed", {"size": 5})
    older = pin_for("printed", {"size": 4})
    with pytest.raises(ContentError, match="does not match"):
        boards.add_pinned(older, {"size": 7})
    assert boards.add_pinned(older, {"size": 4}) == older
    assert boards.resolve("printed") == current
    assert boards.extra_content(older) == {older: {"size": 4}}
    assert boards.extra_content(boards.resolve("basic")) == {}  # built in: records need not carry it


def test_game_options_resolve_content_names_to_pins(boards):
    info = GameInfo("toy", "Toy", "1", 2, 2, options=(Option("board", "basic", library=boards),))
    basic = boards.resolve("basic")
    assert info.resolve_options({}) == {"board": basic}
    assert info.resolve_options({"board": basic}) == {"board": basic}
    with pytest.raises(IllegalOrder, match="option board: no toy board 'nowhere'"):
        info.resolve_options({"board": "nowhere"})
    printed = boards.add("printed", {"size": 5})
    options = info.resolve_options({"board": "printed"})
    assert info.content_of(options) == {printed: {"size": 5}}
    assert info.content_of(info.resolve_options({})) == {}
    with pytest.raises(ContentError, match="none of its options uses"):
        info.add_content(options, {basic: {"size": 3}})


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


@given(size=st.integers(0, 99), extra=json_values, other=json_values)
@settings(max_examples=300, deadline=None)
def test_a_pin_names_exactly_one_version(size, extra, other):
    lib = ContentLibrary("toy", "board", _validate)
    data = {"size": size, "extra": extra}
    pin = lib.add("printed", data)
    assert pin == pin_for("printed", json.loads(json.dumps(data)))  # stable across a JSON round trip
    changed = {"size": size, "extra": other}
    if canonical_json(changed) != canonical_json(data):
        with pytest.raises(ContentError):
            lib.add_pinned(pin, changed)  # other data never passes under this pin
        assert lib.add("printed", changed) != pin
    assert lib.data(pin) == data
