"""The generic redactor: strips `secret` and every other seat's `private` part from a state."""

from __future__ import annotations

from typing import Any

from .canonical import copy_json


def redact(state: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """A copy of `state` that `seat` may see (None = a public observer)."""
    # One copy of the filtered dict: a round trip per key costs more than the copying itself.
    view = copy_json({k: v for k, v in state.items() if k not in ("secret", "private")})
    private = state.get("private") or {}
    view["private"] = {seat: copy_json(private[seat])} if seat is not None and seat in private else {}
    return view
