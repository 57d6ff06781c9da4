from collections import Counter

import pytest

from adjudicator.engine import Rng, scripted_state, seed_state
from adjudicator.engine.rng import ScriptExhausted


def holder(seed: str = "seed") -> dict:
    return {"rng": seed_state(seed)}


def test_known_sequence_never_changes():
    # Pinned output: stored games replay only while these numbers stay the same forever.
    rng = Rng(holder("pbem"))
    assert [rng.below(1000) for _ in range(8)] == [869, 238, 163, 303, 436, 426, 237, 879]


def test_xoshiro256starstar_reference_vector():
    # The published reference implementation seeded with 1, 2, 3, 4 starts with these outputs.
    rng = Rng({"rng": {"s": [format(x, "016x") for x in (1, 2, 3, 4)]}})
    assert [rng._next64() for _ in range(4)] == [11520, 0, 1509978240, 1215971899390074240]


def test_same_seed_same_draws_and_different_seed_differs():
    a, b, c = Rng(holder("x")), Rng(holder("x")), Rng(holder("y"))
    draws_a = [a.below(10**9) for _ in range(20)]
    assert draws_a == [b.below(10**9) for _ in range(20)]
    assert draws_a != [c.below(10**9) for _ in range(20)]


def test_state_is_json_and_advances_in_place():
    h = holder()
    before = list(h["rng"]["s"])
    Rng(h).below(6)
    assert h["rng"]["s"] != before
    assert all(isinstance(w, str) and len(w) == 16 for w in h["rng"]["s"])


def test_below_is_in_range_and_roughly_uniform():
    rng = Rng(holder("uniform"))
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_000 < n < 11_000 for n in counts.values())


def test_between_and_choice_and_weighted():
    rng = Rng(holder("misc"))
    assert {rng.between(1, 6) for _ in range(500)} == set(range(1, 7))
    assert {rng.choice("abc") for _ in range(200)} == set("abc")
    counts = Counter(rng.weighted([0, 1, 3]) for _ in range(8000))
    assert counts[0] == 0
    assert 1500 < counts[1] < 2500


def test_shuffle_is_a_permutation():
    rng = Rng(holder("shuffle"))
    items = list(range(52))
    rng.shuffle(items)
    assert sorted(items) == list(range(52))
    assert items != list(range(52))


def test_scripted_rng_forces_draws_and_fails_loudly():
    h = {"rng": scripted_state([2, 0])}
    rng = Rng(h)
    assert rng.below(3) == 2
    assert rng.between(1, 6) == 1
    with pytest.raises(ScriptExhausted):
        rng.below(3)
    with pytest.raises(ValueError):
        Rng({"rng": scripted_state([7])}).below(3)
