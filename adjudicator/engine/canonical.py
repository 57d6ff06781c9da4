"""Canonical JSON and hashing: the one byte representation every hash in the project uses."""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable
from typing import Any

JSON = Any  # dict | list | int | str | bool | None, recursively


def canonical_json(value: JSON) -> bytes:
    """Sorted keys, no whitespace, UTF-8: equal values always give equal bytes.

    Exactly `json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)`,
    encoded; the C encoder that json.dumps itself uses is called directly, which skips building a
    JSONEncoder per call (most of the cost for the small values orders and choices are). It is
    one encoder without circular-reference markers (a dict entry per container encoded, a third
    of the cost of a record entry's hash): a value that contains itself exhausts the recursion
    instead, and json.dumps then raises the error it raises for it."""
    if _encode_plain is None:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    try:
        return "".join(_encode_plain(value, 0)).encode()
    except RecursionError:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def canonical_sort_key() -> Callable[[JSON], str]:
    """A key that sorts values exactly as their canonical bytes sort, for one sort call.

    The text is compared instead of its UTF-8 bytes (code point order is UTF-8 byte order), and
    one C encoder serves the whole sort; it is not kept longer, since an encoding that fails
    midway may leave it with stale circular-reference markers."""
    if _c_make_encoder is None:
        return lambda value: canonical_json(value).decode()
    encode = _c_make_encoder({}, _refuse, _encode_string, None, ":", ",", True, False, True)
    join = "".join
    return lambda value: join(encode(value, 0))


_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_encode_string = json.encoder.encode_basestring  # ensure_ascii=False
_refuse = json.JSONEncoder().default  # the TypeError json.dumps raises for a non-JSON value
# Without markers the encoder keeps no state between calls, so this one serves every call.
_encode_plain = (None if _c_make_encoder is None
                 else _c_make_encoder(None, _refuse, _encode_string, None, ":", ",", True, False, True))
_marshal_dumps, _marshal_loads = marshal.dumps, marshal.loads


def sha256_hex(value: JSON) -> str:
    return hashlib.sha256(canonical_json(value)).hexdigest()


def state_hash(state: JSON, parts: PartCache | None = None) -> str:
    """`sha256_hex(state)`, computed faster for states that share parts with states hashed before.

    From one step to the next most top-level parts of a game state stay as they were (Founding
    Fathers: about two of thirty change), and encoding is nearly all of a hash's cost. So the
    canonical text is joined from the text of each part, looked up by the part's marshal bytes:
    marshal writes a value several times faster than the JSON encoder, and equal bytes always load
    as an equal value of the same types, so a hit is always the right text. The bytes hashed are
    exactly `canonical_json(state)`. (Splitting deeper costs more in the joins than it saves,
    measured on all four titles.)

    `parts`: the caller's own cache (a `part_cache()`), for a run of states of one game that only
    it hashes, one after another, such as a replay (see `PartCache`). Without it, a cache shared
    by every game is used, which drops its oldest entry per miss when full."""
    encode = _encode_plain  # stateless: one serves every call (see canonical_json)
    if type(state) is not dict or encode is None:
        return sha256_hex(state)
    if parts is not None:
        return parts.state_hash(state)
    cache, dumps = _PART_TEXT, _marshal_dumps
    pieces = []
    for key in sorted(state):  # the order sort_keys gives: keys are unique, so only keys compare
        if type(key) is not str:
            return sha256_hex(state)  # the encoder's own handling (or refusal) of such a key
        value = state[key]
        kind = type(value)
        if kind is str:  # a scalar is encoded faster than looked up
            pieces.append(f"{_encode_string(key)}:{_encode_string(value)}")
            continue
        if kind is int:
            pieces.append(f"{_encode_string(key)}:{int.__repr__(value)}")
            continue
        try:
            raw = dumps(value)  # version 4: a shared object written as a ref only costs a miss
        except ValueError:  # not plain data: encoded every time, as canonical_json does
            raw = None
        text = cache.get(raw) if raw is not None else None
        if text is None:
            try:
                text = "".join(encode(value, 0))  # a part that contains itself exhausts the recursion
            except RecursionError:
                return sha256_hex(state)
            if raw is not None:
                if len(cache) >= _PART_TEXT_LIMIT:
                    _forget_oldest(cache)
                cache[raw] = text
        pieces.append(f"{_encode_string(key)}:{text}")
    return hashlib.sha256(("{" + ",".join(pieces) + "}").encode()).hexdigest()


class PartCache:
    """The part texts of one run of states, hashed one after another by their only owner (a
    replay): `state_hash(state, cache)`.

    Each top-level key remembers its part's marshal bytes and its `"key":text` piece from the state
    before, so a part the step left alone costs one marshal call and one comparison of bytes (no
    hashing of the bytes for a lookup, no key encoded again); a changed part is looked up among
    the texts seen before (a value that comes back), and only then encoded. Scalars go the same
    way: marshal tells `true` from `1`. While the states keep their keys in the same order, the
    sorted keys are reused. Bounded: the texts seen before are emptied whole when full.
    (Joining a changed dict part from its entries, one level down, cost more than it saved on
    Doge, whose steps change a few entries of several parts.)"""

    __slots__ = ("_keys", "_sorted", "_last", "_texts")

    LIMIT = 4096  # texts kept for values that come back

    def __init__(self) -> None:
        self._keys: list[Any] = []  # the last state's keys, in its own order
        self._sorted: list[str] = []  # the same, in canonical order
        self._last: dict[str, tuple[bytes | None, str]] = {}  # key -> (marshal bytes, '"key":text')
        self._texts: dict[bytes, str] = {}  # marshal bytes -> canonical text

    def state_hash(self, state: dict[str, Any]) -> str:
        keys = list(state)
        if keys != self._keys:
            if any(type(key) is not str for key in keys):
                return sha256_hex(state)  # the encoder's own handling (or refusal) of such a key
            self._keys, self._sorted = keys, sorted(keys)  # sort_keys' order: keys are unique
        last, texts, dumps, encode = self._last, self._texts, _marshal_dumps, _encode_plain
        if encode is None:
            return sha256_hex(state)
        pieces = []
        for key in self._sorted:
            value = state[key]
            try:
                raw: bytes | None = dumps(value)  # a shared object written as a ref only costs a miss
            except ValueError:  # not plain data: encoded every time, as canonical_json does
                raw = None
            seen = last.get(key)
            if seen is not None and raw is not None and seen[0] == raw:
                pieces.append(seen[1])
                continue
            text = texts.get(raw) if raw is not None else None
            if text is None:
                try:
                    text = "".join(encode(value, 0))  # a part that contains itself exhausts the recursion
                except RecursionError:
                    return sha256_hex(state)
                if raw is not None:
                    if len(texts) >= self.LIMIT:
                        texts.clear()
                    texts[raw] = text
            piece = f"{_encode_string(key)}:{text}"
            last[key] = (raw, piece)
            pieces.append(piece)
        return hashlib.sha256(("{" + ",".join(pieces) + "}").encode()).hexdigest()


def part_cache() -> PartCache:
    """A cache of part texts for `state_hash` that only its owner uses."""
    return PartCache()


def _forget_oldest(cache: dict[bytes, str]) -> None:
    """Drop the part cached first (a dict keeps insertion order), not the whole cache: emptying
    it made every part of the next steps a miss, which cost more than the plain hash."""
    try:
        del cache[next(iter(cache))]
    except (KeyError, RuntimeError, StopIteration):  # another thread changed it meanwhile: no matter
        pass


# marshal bytes of a top-level part of a state -> its canonical text (see `state_hash`)
_PART_TEXT: dict[bytes, str] = {}
_PART_TEXT_LIMIT = 4096


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def copy_json(value: JSON) -> JSON:
    """A deep copy for JSON values, done in C: a marshal round trip.

    Format version 2 is used because it writes no back-references, so lists or dicts shared
    between two places come back as separate copies, exactly as the recursive copy makes them
    (a later step mutating one must not change the other). Anything marshal refuses (an object
    that is not JSON) is copied by the recursive copy instead."""
    if type(value) is not dict and type(value) is not list and not isinstance(value, (dict, list)):
        return value  # shared, as the recursive copy shares it: no round trip for a scalar
    try:
        return _marshal_loads(_marshal_dumps(value, 2))
    except ValueError:
        return copy_tree(value)




def copy_tree(value: JSON) -> JSON:
    """The recursive copy: new dicts and lists, every other value shared."""
    if isinstance(value, dict):
        return {k: copy_tree(v) for k, v in value.items()}
    if isinstance(value, list):
        return [copy_tree(v) for v in value]
    return value


def json_problem(value: JSON, path: str = "$") -> str | None:
    """Return a description of the first non-JSON part of `value`, or None if it is pure JSON.

    Floats, tuples, sets and non-string keys are refused so that every state hashes the same
    everywhere and survives a round trip through any store unchanged.
    """
    if _plain_json(value):
        return None
    return _first_problem(value, path)


_SCALAR_TYPES = frozenset({str, int, bool, type(None)})
_MAX_CONTAINERS = 1_000_000


def _plain_json(value: JSON) -> bool:
    """True when every part has exactly a JSON type (no path strings built: the common case).

    False means "look closer": subclasses, which `_first_problem` judges, land here too, and so
    does a value too large to be a state (a list that contains itself would never end here)."""
    stack = [value]
    pop, push, scalars = stack.pop, stack.extend, _SCALAR_TYPES
    containers = 0
    while stack:
        item = pop()
        kind = type(item)
        if kind is dict or kind is list:
            containers += 1
            if containers > _MAX_CONTAINERS:
                return False
        if kind is dict:
            for key in item:
                if type(key) is not str:
                    return False
            push(item.values())
        elif kind is list:
            push(item)
        elif kind not in scalars:
            return False
    return True


def _first_problem(value: JSON, path: str) -> str | None:
    if value is None or isinstance(value, (bool, str)):
        return None
    if isinstance(value, int):
        return None
    if isinstance(value, list):
        for i, item in enumerate(value):
            problem = _first_problem(item, f"{path}[{i}]")
            if problem:
                return problem
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return f"{path}: key {key!r} is not a string"
            problem = _first_problem(item, f"{path}.{key}")
            if problem:
                return problem
        return None
    return f"{path}: {type(value).__name__} is not allowed in game state"
