"""Parsing `--option key=value` flags into JSON option values."""

from __future__ import annotations

import json
from typing import Any


def parse_options(pairs: list[str]) -> dict[str, Any]:
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"--option needs KEY=VALUE, got {pair!r}")
        try:
            value = json.loads(raw)
        except ValueError:
            value = raw  # a bare word is a string option
        if isinstance(value, float):
            raise SystemExit(f"--option {key}: game options are integers, words or true/false")
        options[key] = value
    return options
