"""Form values for JSON choices: the canonical JSON text, so the server reads back exactly the
order the page offered."""

from __future__ import annotations

from typing import Any

from adjudicator.engine import canonical_json


def json_value(value: Any) -> str:
    return canonical_json(value).decode("utf-8")
