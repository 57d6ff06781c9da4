"""The engine's fast path (issue 16): the cached state hash gives exactly `sha256_hex`, an owned
apply changes nothing but where the step is applied, and a grid's checked order is its own."""

import random

import pytest

from adjudicator.cli.playout import choose_group
from adjudicator.engine import (
    ChoiceGrid,
    Prompt,
    apply_checked,
    canonical_json,
    get_game,
    sha256_hex,
    state_hash,
)
from adjudicator.engine.canonical import _PART_TEXT, PartCache, part_cache


@pytest.mark.parametrize("state", [
    {"b": [1, {"z": True, "a": None}], "a": "é\n\"", "c": {}, "d": [], "e": 10**40, "f": -3, "g": False},
    {"only": {"x": 1}},
    {},
    [1, 2],
    "text",
    {"\u00e9": 1, "e": 2, "E": 3, "\U0001f600": 4},  # keys in code point order, as sort_keys sorts them
])
def test_state_hash_is_sha256_hex(state):
    _PART_TEXT.clear()
    assert state_hash(state) == sha256_hex(state)
    assert state_hash(state) == sha256_hex(state)  # the second time from the cached parts


def test_a_cached_part_never_stands_for_a_value_of_other_types():
    _PART_TEXT.clear()
    assert state_hash({"a": [1, 0]}) == sha256_hex({"a": [1, 0]})
    assert state_hash({"a": [True, False]}) == sha256_hex({"a": [True, False]}) != sha256_hex({"a": [1, 0]})
    assert state_hash({"a": {"k": 1}}) != state_hash({"a": {"k": True}})


def test_a_changed_part_is_hashed_anew():
    _PART_TEXT.clear()
    state = {"board": {"x": [1, 2]}, "turn": 1}
    before = state_hash(state)
    state["board"]["x"].append(3)  # changed in place: the same object, other contents
    assert state_hash(state) == sha256_hex(state) != before


def test_what_the_encoder_refuses_is_refused_the_same_way():
    for state in ({"a": {1, 2}}, {"a": object()}, {1: "x", "2": "y"}):  # mixed keys do not sort
        with pytest.raises(TypeError):
            sha256_hex(state)
        with pytest.raises(TypeError):
            state_hash(state)
    # not game state; same bytes all the same
    assert state_hash({"a": 1.5, "b": -0.0}) == sha256_hex({"a": 1.5, "b": -0.0})


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


def test_the_part_cache_stays_bounded_and_keeps_its_newest_parts(monkeypatch):
    monkeypatch.setattr("adjudicator.engine.canonical._PART_TEXT_LIMIT", 3)
    _PART_TEXT.clear()
    for n in range(10):
        assert state_hash({"a": [n], "b": "x"}) == sha256_hex({"a": [n], "b": "x"})
    assert len(_PART_TEXT) == 3 and list(_PART_TEXT.values()) == ["[7]", "[8]", "[9]"]


def test_a_replay_s_own_part_cache_gives_sha256_hex_step_after_step(monkeypatch):
    monkeypatch.setattr(PartCache, "LIMIT", 2)  # emptied whole when full, several times over
    cache = part_cache()
    state = {"b": [1, {"z": True}], "a": "x", "n": 1, "c": {"k": 0}}
    steps = [
        lambda s: s["b"][1].update(z=1),  # true becomes 1 in place: same ==, other bytes
        lambda s: s.update(n=True),  # a scalar part: true is not 1 either
        lambda s: s.update(n=1),
        lambda s: s["c"].update(k=False),
        lambda s: s.update(d=[]),  # a new key
        lambda s: s.pop("a"),  # a key gone
        lambda s: s.update(a=s.pop("b")),  # the same keys in another order
        lambda s: s.update(e=1.5),  # not game state; the same bytes all the same
        lambda s: None,
    ]
    assert state_hash(state, cache) == sha256_hex(state)
    for step in steps:
        step(state)
        assert state_hash(state, cache) == sha256_hex(state)


def test_a_part_cache_leaves_odd_states_to_the_plain_encoder():
    cache = part_cache()
    assert state_hash({"a": 1}, cache) == sha256_hex({"a": 1})
    with pytest.raises(TypeError):
        state_hash({1: "x", "2": "y"}, cache)  # mixed keys do not sort, as json.dumps refuses them
    looped: dict = {"a": []}
    looped["a"].append(looped)
    with pytest.raises(ValueError):
        state_hash(looped, cache)  # json.dumps' own error for a value that contains itself
    assert state_hash({"a": 1}, cache) == sha256_hex({"a": 1})
