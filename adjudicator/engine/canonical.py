"""Canonical JSON and hashing: the one byte representation every hash in the project uses."""

from __future__ import annotations

import hashlib
import json
import marshal
from collections.abc import Callable
from typing import Any

_orjson_dumps: Callable[..., bytes] | None
try:
    import orjson

    _orjson_dumps, _ORJSON_SORTED = orjson.dumps, orjson.OPT_SORT_KEYS
except ImportError:  # Pyodide without the package: `state_hash` falls back to the stdlib
    _orjson_dumps, _ORJSON_SORTED = None, 0

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


def state_hash(state: JSON) -> str:
    """`sha256_hex(state)` for a game state: the same canonical bytes, encoded by orjson.

    A replay and every appended step hash the whole state, so this is most of a replay's cost:
    orjson writes sorted keys, no whitespace and UTF-8 exactly as `canonical_json` does for the
    values a game state holds (strings, integers, booleans, null, lists, objects with string keys;
    `json_problem` refuses floats in a state, and float text is where the two encoders differ).
    What orjson refuses (an integer beyond 64 bits, a non-string key, a value nested past 255
    levels or containing itself, a lone surrogate) is left to `sha256_hex`, which encodes or
    refuses it as before. Without orjson (the browser's verifier) the stdlib gives the same
    bytes, more slowly."""
    if _orjson_dumps is not None:
        try:
            return hashlib.sha256(_orjson_dumps(state, option=_ORJSON_SORTED)).hexdigest()
        except TypeError:  # orjson's JSONEncodeError
            pass
    return sha256_hex(state)


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
