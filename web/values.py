"""Values read from and written into requests: JSON choices as canonical JSON text (so the server
reads back exactly the order the page offered), the log page's start index."""

from __future__ import annotations

from typing import Any

from flask import request

from adjudicator.engine import canonical_json


def json_value(value: Any) -> str:
    return canonical_json(value).decode("utf-8")


def log_start() -> int | None:
    """`?start=N` of a log page (a record entry index); None (the newest page) when absent or not a number."""
    raw = request.args.get("start", "")
    return int(raw) if raw.isdigit() and len(raw) < 10 else None
