"""States a seat cannot tell apart from the real one (issue 24): the whole-turn lines of the "your
move" mail are checked against them, so that a listed line says nothing the seat may not know."""

from __future__ import annotations

import random
from typing import Any

State = dict[str, Any]


def scrambled(state: State, seat: str, seed: str) -> State:
    """`state` with the values `seat` may not see changed and every count it may see kept: the
    generator reseeded, each list of the secret part shuffled, and the other seats' private lists
    dealt out again from their pooled contents (each seat keeps as many items as it had). Only
    the changed parts are copied; the rest is shared with `state` (the engine copies on apply)."""
    rnd = random.Random(seed)
    changed = dict(state)
    secret = dict(state.get("secret") or {})
    for key, value in sorted(secret.items()):
        if isinstance(value, list):
            value = list(value)
            rnd.shuffle(value)
            secret[key] = value
    if "rng" in secret:
        secret["rng"] = {"s": [format(rnd.getrandbits(64) | 1, "016x") for _ in range(4)]}
    changed["secret"] = secret
    private = {s: dict(part) for s, part in (state.get("private") or {}).items()}
    others = [s for s in sorted(private) if s != seat]
    for key in sorted({k for s in others for k, v in private[s].items() if isinstance(v, list)}):
        holders = [s for s in others if isinstance(private[s].get(key), list)]
        pool = [item for s in holders for item in private[s][key]]
        rnd.shuffle(pool)
        for s in holders:
            size = len(private[s][key])
            private[s][key], pool = pool[:size], pool[size:]
    changed["private"] = private
    return changed


def draws_nothing(before: State, after: State, events: list[dict[str, Any]], seat: str) -> bool:
    """The step consumed nothing hidden and told no one anything privately: the generator and
    every list of the secret part (decks, the bag) are as they were, the other seats' private
    parts too, and no event has an audience. Other secret values may change (Founding Fathers
    keeps a pending trade there): whether the seat could know them is `same_for_seat`'s test."""
    if any(ev.get("audience") is not None for ev in events):
        return False
    old, new = before.get("secret") or {}, after.get("secret") or {}
    if any(new.get(k) != v for k, v in old.items() if k == "rng" or isinstance(v, list)):
        return False
    mine = {k: v for k, v in (before.get("private") or {}).items() if k != seat}
    theirs = {k: v for k, v in (after.get("private") or {}).items() if k != seat}
    return mine == theirs
