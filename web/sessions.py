"""Flask's signed-cookie sessions, with less work per request and the same cookies, byte for byte
(tests/web/test_sessions.py).

An order POST reads the session cookie and writes it again (its result rides in it to the page
it redirects to): about a tenth of the POST's CPU, most of it not the signature:
- Flask builds a new signing serializer for every cookie it reads and every one it writes, and
  each construction serialises a probe value; it holds no per-request state, so one per (secret
  key, fallback keys) serves every request and thread.
- Flask's tagged JSON walks every value through eight type checks (tuples, bytes, Markup, dates
  are tagged) and scans the whole value again after reading. Our session holds plain JSON (the
  CSRF token, results of strings and lists), which is checked in one cheaper walk and then
  written as the tagging would have written it; read, a cookie without a tag key (a key that
  begins with a space) needs no scan. Anything else goes the tagged way.
"""

from __future__ import annotations

from typing import Any

from flask import Flask, json
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import URLSafeTimedSerializer

_SCALARS = (str, int, float, bool, type(None))


def _untagged(value: Any, tags: dict[str, Any]) -> bool:
    """Whether tagging leaves `value` as it is (exact types: a str subclass such as Markup is tagged)."""
    kind = type(value)
    if kind in _SCALARS:
        return True
    if kind is list:
        return all(_untagged(v, tags) for v in value)
    if kind is dict:
        if len(value) == 1 and next(iter(value)) in tags:
            return False
        return all(type(k) is str and _untagged(v, tags) for k, v in value.items())
    return False


class QuickTaggedJSON(TaggedJSONSerializer):
    def dumps(self, value: Any) -> str:
        if _untagged(value, self.tags):
            return json.dumps(value, separators=(",", ":"))  # what the tagged way ends with
        return super().dumps(value)

    def loads(self, value: str | bytes) -> Any:
        # every tag key begins with a space, and JSON writes a key that does as `" ...`
        text = value.decode() if isinstance(value, bytes) else value
        if '" ' in text or not all(key.startswith(" ") for key in self.tags):
            return super().loads(text)
        return json.loads(text)


class SigningOnceSessions(SecureCookieSessionInterface):
    serializer = QuickTaggedJSON()

    def __init__(self) -> None:
        self._built: tuple[Any, URLSafeTimedSerializer | None] | None = None

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (app.secret_key, tuple(app.config["SECRET_KEY_FALLBACKS"] or ()))
        built = self._built  # one read: another thread may replace it meanwhile
        if built is None or built[0] != keys:
            built = self._built = (keys, super().get_signing_serializer(app))
        return built[1]
