"""The engine's own seeded PRNG (xoshiro256** seeded by SplitMix64).

Our own code, so that no Python upgrade can ever change a shuffle or a die roll in a stored game.
Its whole state lives in ``state["secret"]["rng"]`` as JSON. Tests may replace it with a script
(``{"script": [2, 0, 5]}``): each draw then takes the next scripted value, so a test can force any
outcome it needs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any

MASK64 = (1 << 64) - 1


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK64


def _splitmix64(x: int) -> tuple[int, int]:
    x = (x + 0x9E3779B97F4A7C15) & MASK64
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return x, z ^ (z >> 31)


def seed_state(seed: str) -> dict[str, Any]:
    """The JSON state of a generator seeded from any text (the game's seed)."""
    digest = hashlib.sha256(seed.encode()).digest()
    x = int.from_bytes(digest[:8], "big")
    words = []
    for _ in range(4):
        x, z = _splitmix64(x ^ int.from_bytes(digest[8:16], "big"))
        words.append(z)
    if not any(words):  # xoshiro must never be all zero
        words[0] = 1
    return {"s": [format(w, "016x") for w in words]}


def scripted_state(values: Sequence[int]) -> dict[str, Any]:
    """A generator state that returns exactly these values, then fails loudly."""
    return {"script": list(values)}


class ScriptExhausted(RuntimeError):
    """A scripted generator was asked for more draws than the test scripted."""


class Rng:
    """A view onto ``holder["rng"]`` that advances it in place."""

    def __init__(self, holder: dict[str, Any], key: str = "rng") -> None:
        self._holder = holder
        self._key = key

    @classmethod
    def of(cls, state: dict[str, Any]) -> Rng:
        """The generator kept in a game state's secret part."""
        return cls(state["secret"])

    def _next64(self) -> int:
        st = self._holder[self._key]
        s = [int(w, 16) for w in st["s"]]
        result = (_rotl((s[1] * 5) & MASK64, 7) * 9) & MASK64
        t = (s[1] << 17) & MASK64
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        st["s"] = [format(w, "016x") for w in s]
        return result

    def below(self, n: int) -> int:
        """A uniform integer in [0, n)."""
        if n <= 0:
            raise ValueError("Rng.below needs a positive bound")
        st = self._holder[self._key]
        if "script" in st:
            if not st["script"]:
                raise ScriptExhausted("the scripted RNG has no values left")
            value = st["script"].pop(0)
            if not 0 <= value < n:
                raise ValueError(f"scripted value {value} is outside [0, {n})")
            return value
        limit = (1 << 64) - ((1 << 64) % n)  # rejection sampling: no modulo bias
        while True:
            x = self._next64()
            if x < limit:
                return x % n

    def between(self, low: int, high: int) -> int:
        """A uniform integer in [low, high], both ends included (a die is between(1, 6))."""
        return low + self.below(high - low + 1)

    def choice(self, items: Sequence[Any]) -> Any:
        return items[self.below(len(items))]

    def shuffle(self, items: list[Any]) -> None:
        """Fisher-Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def weighted(self, weights: Sequence[int]) -> int:
        """Index drawn with probability proportional to its (non-negative integer) weight."""
        total = sum(weights)
        if total <= 0:
            raise ValueError("Rng.weighted needs a positive total weight")
        pick = self.below(total)
        for index, weight in enumerate(weights):
            if pick < weight:
                return index
            pick -= weight
        raise AssertionError("unreachable")
