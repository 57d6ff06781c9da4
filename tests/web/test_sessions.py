"""web/sessions.py: the session cookie is the one Flask's own session interface makes, byte for
byte, and reads back the same values, tagged types included."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from markupsafe import Markup

from web.sessions import QuickTaggedJSON, SigningOnceSessions

VALUES = [
    {},
    {"csrf_token": "0f" * 20},
    {
        "csrf_token": "ab",
        "result:g1:red": {
            "applied": ["place 3 at Venice"],
            "error": None,
            "choices": [],
            "receipts": [{"order_text": "x", "commitment": "c" * 64}],
            "notes": ["… y más (véase el registro)"],
            "n": 3,
            "f": 1.5,
            "ok": True,
        },
    },
    {" t": [1, 2]},  # a plain dict whose only key is a tag key is itself tagged
    {"a": {" di": {"x": 1}}},
    {
        "tuple": (1, "a"),
        "bytes": b"\x00\xff",
        "markup": Markup("<b>x</b>"),
        "uuid": UUID(int=7),
        "when": datetime(2031, 3, 3, 12, 0, tzinfo=UTC),
    },
    {"nested": [{"list": [[" leading space"], None]}]},
]


@pytest.fixture
def bare() -> Flask:
    app = Flask(__name__)
    app.secret_key = "secret"
    return app


@pytest.mark.parametrize("value", VALUES)
def test_the_json_is_the_tagged_serializers(bare: Flask, value: dict) -> None:
    from flask.json.tag import TaggedJSONSerializer

    with bare.app_context():
        text = QuickTaggedJSON().dumps(value)
        assert text == TaggedJSONSerializer().dumps(value)
        assert QuickTaggedJSON().loads(text) == TaggedJSONSerializer().loads(text) == value
        assert QuickTaggedJSON().loads(text.encode()) == value


@pytest.mark.parametrize("value", VALUES)
def test_the_cookie_is_flasks_byte_for_byte(
    bare: Flask, value: dict, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("time.time", lambda: 2_000_000_000)  # the signature's timestamp
    with bare.app_context():
        ours, flasks = SigningOnceSessions(), SecureCookieSessionInterface()
        cookie = ours.get_signing_serializer(bare).dumps(value)
        assert cookie == flasks.get_signing_serializer(bare).dumps(value)
        assert flasks.get_signing_serializer(bare).loads(cookie) == value
        assert ours.get_signing_serializer(bare).loads(cookie) == value


def test_the_serializer_is_built_once_per_key(bare: Flask) -> None:
    sessions = SigningOnceSessions()
    first = sessions.get_signing_serializer(bare)
    assert sessions.get_signing_serializer(bare) is first
    bare.secret_key = "rotated"
    bare.config["SECRET_KEY_FALLBACKS"] = ["secret"]
    rotated = sessions.get_signing_serializer(bare)
    assert rotated is not first
    assert rotated.loads(first.dumps({"a": 1})) == {"a": 1}, "a cookie signed with the old key still reads"


def test_the_app_uses_it(client) -> None:  # noqa: ANN001
    assert isinstance(client.application.session_interface, SigningOnceSessions)
