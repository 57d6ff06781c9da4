"""The server's own secret: SECRET_KEY, else `var/secret_key`, generated (0600) on first use.

It keys the HMAC that turns a seat's stored token hash into its e-mail credentials, so a copy of
the database alone is not enough to write mail as a seat. Web, workers and the SMTP listener of one
installation must share it (`pbem run` starts them with the same environment and folder).
"""

from __future__ import annotations

import os
import secrets
from functools import cache
from pathlib import Path


def server_key(var_dir: str | None = None) -> str:
    key = os.environ.get("SECRET_KEY", "").strip()
    return key or _key_file(var_dir or os.environ.get("PBEM_VAR_DIR", "var"))


@cache
def _key_file(var_dir: str) -> str:
    path = Path(var_dir) / "secret_key"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process made it first: use theirs
        return _read(path)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(secrets.token_urlsafe(48) + "\n")
    return _read(path)


def _read(path: Path) -> str:
    key = path.read_text(encoding="utf-8").strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it (a new key is made) or set SECRET_KEY")
    return key
