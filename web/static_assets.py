"""Static files with versioned URLs, cached by browsers for a year.

Every `url_for('static', ...)` gets `?v=<content hash>`, so a changed stylesheet has a new URL and
a phone on a slow line does not re-ask for unchanged CSS on every page it opens."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path
from typing import Any

from flask import Flask, request

ONE_YEAR = 365 * 24 * 3600


@cache
def _content_version(path: Path, mtime_ns: int) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def register_static_versions(app: Flask) -> None:
    static_dir = Path(app.static_folder or "")

    @app.url_defaults
    def add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint != "static" or "v" in values:
            return
        path = static_dir / values.get("filename", "")
        if path.is_file():
            values["v"] = _content_version(path, path.stat().st_mtime_ns)

    def max_age(filename: str | None) -> int | None:
        # a versioned URL never changes its content; an unversioned one is revalidated each time
        return ONE_YEAR if request.args.get("v") else None

    app.get_send_file_max_age = max_age  # type: ignore[method-assign]
