"""The Python runtime the browser verifier runs in: Pyodide's core files, from the npm registry,
installed into a git-ignored folder and served by the site itself (never a CDN).

`python -m web.verifier_runtime` installs it (scripts/dev.py does, before the tests); the web app
only reads the folder. Standard library only, so it runs before anything else is set up."""

from __future__ import annotations

import hashlib
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PYODIDE_VERSION = "0.27.7"  # CPython 3.12; the pure packages need 3.11+
# sha256 of `npm pack pyodide@0.27.7`: the tarball is checked before anything is unpacked
PYODIDE_SHA256 = "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"
# only what loadPyodide() fetches for a bare interpreter (about 14 MB; no packages are loaded)
CORE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
ROOT = Path(__file__).resolve().parents[1]


def runtime_dir() -> Path:
    """Where the runtime lives: $PBEM_PYODIDE_DIR, else var/pyodide-<version> in the checkout."""
    configured = os.environ.get("PBEM_PYODIDE_DIR")
    return Path(configured) if configured else ROOT / "var" / f"pyodide-{PYODIDE_VERSION}"


def installed(folder: Path | None = None) -> bool:
    folder = folder or runtime_dir()
    return all((folder / name).is_file() for name in CORE_FILES)


class RuntimeUnavailable(Exception):
    """The runtime is not installed and cannot be (no npm, no network): the verifier page says so."""


def install(folder: Path | None = None) -> Path:
    """Fetch the pinned Pyodide with `npm pack`, check its digest, unpack the core files."""
    folder = folder or runtime_dir()
    if installed(folder):
        return folder
    npm = shutil.which("npm")
    if not npm:
        raise RuntimeUnavailable("npm is not installed (apt-get install npm), so Pyodide cannot be fetched")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=tmp,
                              capture_output=True, text=True, timeout=600)
        tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode or not tarballs:
            raise RuntimeUnavailable(f"npm pack pyodide@{PYODIDE_VERSION} failed: {done.stderr.strip()[-500:]}")
        raw = tarballs[0].read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != PYODIDE_SHA256:
        raise RuntimeUnavailable(f"pyodide@{PYODIDE_VERSION} from npm has sha256 {digest}, expected {PYODIDE_SHA256}")
    staging = folder.with_name(folder.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as tar:
        for name in CORE_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise RuntimeUnavailable(f"pyodide@{PYODIDE_VERSION} lacks {name}")
            (staging / name).write_bytes(member.read())
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)  # all files or none: a half-written runtime is never served
    return folder


def main() -> int:
    try:
        folder = install()
    except (RuntimeUnavailable, OSError, subprocess.SubprocessError) as exc:
        print(f"[pbem] the browser verifier's runtime is not installed: {exc}", file=sys.stderr)
        return 1
    size = sum((folder / name).stat().st_size for name in CORE_FILES)
    print(f"[pbem] Pyodide {PYODIDE_VERSION} for the browser verifier: {folder} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
