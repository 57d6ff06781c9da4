"""The engine's fast path (issue 16): the state hash (orjson) gives exactly `sha256_hex`, an owned
apply changes nothing but where the step is applied, and a grid's checked order is its own."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.cli.playout import choose_group
from adjudicator.engine import (
    ChoiceGrid,
    Prompt,
    apply_checked,
    canonical,
    canonical_json,
    get_game,
    sha256_hex,
    state_hash,
)


@pytest.mark.parametrize("state", [
    {"b": [1, {"z": True, "a": None}], "a": "é\n\"", "c": {}, "d": [], "e": 10**40, "f": -3, "g": False},
    {"only": {"x": 1}},
    {},
    [1, 2],
    "text",
    {"\u00e9": 1, "e": 2, "E": 3, "\U0001f600": 4},  # keys in code point order, as sort_keys sorts them
])
def test_state_hash_is_sha256_hex(state):
    assert state_hash(state) == sha256_hex(state)


# what a game state may hold (json_problem): no floats, string keys; text with every kind of
# character the two encoders must escape alike (controls, quotes, backslashes, non-BMP, U+2028)
_TEXT = st.text(st.characters(codec="utf-8"), max_size=12) | st.sampled_from(
    ["\x00\x1f\x7f", '"\\', "\u2028\u2029", "\U0001f600é", "\b\f\n\r\t"])
_STATES = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**70), max_value=2**70) | _TEXT,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(_TEXT, inner, max_size=5),
    max_leaves=40)


@settings(max_examples=400, deadline=None)
@given(_STATES)
def test_orjson_writes_the_canonical_bytes_of_any_game_state(state):
    # integers past 64 bits are refused by orjson and go to the stdlib encoder: same bytes too
    assert state_hash(state) == sha256_hex(state)


def test_true_is_not_1():
    assert state_hash({"a": [True, False]}) == sha256_hex({"a": [True, False]}) != sha256_hex({"a": [1, 0]})


def test_without_orjson_the_stdlib_gives_the_same_hash(monkeypatch):
    state = {"b": [1, {"z": True, "a": None}], "a": "é\n\"", "e": 10**40}
    with_orjson = state_hash(state)
    monkeypatch.setattr(canonical, "_orjson_dumps", None)  # the browser's verifier
    assert state_hash(state) == with_orjson == sha256_hex(state)


def test_what_the_encoder_refuses_is_refused_the_same_way():
    for state in ({"a": {1, 2}}, {"a": object()}, {1: "x", "2": "y"}):  # mixed keys do not sort
        with pytest.raises(TypeError):
            sha256_hex(state)
        with pytest.raises(TypeError):
            state_hash(state)
    looped: dict = {"a": []}
    looped["a"].append(looped)
    with pytest.raises(ValueError):
        state_hash(looped)  # json.dumps' own error for a value that contains itself
    assert state_hash({1: "x"}) == sha256_hex({1: "x"})  # a key json.dumps writes as text
    deep: list = []
    for _ in range(300):  # deeper than orjson goes
        deep = [deep]
    assert state_hash(deep) == sha256_hex(deep)


@pytest.mark.parametrize("game_id", ["doge", "china", "1960", "founding-fathers"])
def test_an_owned_apply_gives_the_same_states_as_a_copied_one(game_id):
    game = get_game(game_id)
    rnd = random.Random(game_id)
    options = game.info.resolve_options({})
    seats = game.seat_names(game.info.min_seats, options)
    copied = game.setup("owned", seats, options).state
    owned = game.setup("owned", seats, options).state
    for _ in range(150):
        prompts = game.prompts(copied)
        if not prompts:
            break
        assert {s: p.to_json() for s, p in game.prompts(owned).items()} == {s: p.to_json() for s, p in prompts.items()}
        orders = {seat: rnd.choice(prompts[seat].choices) for seat in choose_group(rnd, prompts)}
        before = canonical_json(copied)
        after = apply_checked(game, copied, orders, prompts).state
        assert canonical_json(copied) == before  # the copied apply leaves its input alone
        copied = after
        held = owned
        owned = apply_checked(game, owned, orders, owned=True).state
        assert held is owned  # applied where it was, not copied
        assert state_hash(owned) == sha256_hex(copied)


def test_a_grid_order_is_built_for_the_apply_and_a_listed_one_is_copied():
    axis = [[1], [2]]
    grid = ChoiceGrid((["a", "b"], axis), lambda card, m: {"card": card, "m": list(m)},
                      lambda order: (order["card"], order["m"]))
    prompt = Prompt(seat="red", kind="k", choices=grid, presorted=True)
    own = prompt.own_copy({"card": "b", "m": [2]})
    assert own == {"card": "b", "m": [2]} and own["m"] is not axis[1]
    own["m"].append(9)
    assert axis == [[1], [2]] and prompt.own_copy({"card": "b", "m": [2]}) == {"card": "b", "m": [2]}
    assert prompt.own_copy({"card": "b", "m": [True]}) is None  # true is not 1, in a grid too
    listed = Prompt(seat="red", kind="k", choices=[{"card": "a", "m": [1]}], presorted=True)
    copy = listed.own_copy({"card": "a", "m": [1]})
    assert copy == listed.choices[0] and copy is not listed.choices[0] and copy["m"] is not listed.choices[0]["m"]
    assert listed.own_copy({"card": "z"}) is None
