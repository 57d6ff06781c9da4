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
import urllib.request
from pathlib import Path

PYODIDE_VERSION = "0.27.7"  # CPython 3.12; the pure packages need 3.11+
# sha256 of `npm pack pyodide@0.27.7`: the tarball is checked before anything is unpacked
PYODIDE_SHA256 = "89d5d952675eb08e11286e52c7238f1248ce71726e896db9703e73bef23dc343"
# only what loadPyodide() fetches for a bare interpreter (about 14 MB; no packages are loaded)
CORE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
TARBALL_URL = f"https://registry.npmjs.org/pyodide/-/pyodide-{PYODIDE_VERSION}.tgz"
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
    """Fetch the pinned Pyodide, check its digest, unpack the core files (all or none)."""
    folder = folder or runtime_dir()
    if installed(folder):
        return folder
    raw = fetch_tarball()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != PYODIDE_SHA256:
        raise RuntimeUnavailable(f"pyodide@{PYODIDE_VERSION} from npm has sha256 {digest}, expected {PYODIDE_SHA256}")
    unpack(raw, folder)
    return folder


def fetch_tarball() -> bytes:
    """The package's tarball by `npm pack`; without npm, the same file from the registry's
    download URL (its digest is checked either way, so the source need not be trusted)."""
    npm = shutil.which("npm")
    if npm:
        with tempfile.TemporaryDirectory() as tmp:
            done = subprocess.run([npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"], cwd=tmp,
                                  capture_output=True, text=True, timeout=600)
            tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
            if done.returncode == 0 and tarballs:
                return tarballs[0].read_bytes()
            failure = f"npm pack pyodide@{PYODIDE_VERSION} failed: {done.stderr.strip()[-300:]}"
    else:
        failure = "npm is not installed"
    try:
        with urllib.request.urlopen(TARBALL_URL, timeout=120) as resp:
            return resp.read()
    except OSError as exc:
        raise RuntimeUnavailable(f"{failure}, and {TARBALL_URL} could not be fetched ({exc})") from None


def unpack(raw: bytes, folder: Path) -> None:
    staging = folder.with_name(folder.name + ".partial")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(raw), mode="r:gz") as tar:
        for name in CORE_FILES:
            try:
                member = tar.extractfile(f"package/{name}")
            except KeyError:
                member = None
            if member is None:
                shutil.rmtree(staging, ignore_errors=True)
                raise RuntimeUnavailable(f"pyodide@{PYODIDE_VERSION} lacks {name}")
            (staging / name).write_bytes(member.read())
    shutil.rmtree(folder, ignore_errors=True)
    staging.rename(folder)  # a half-written runtime is never served


def main() -> int:
    try:
        folder = install()
    except (RuntimeUnavailable, OSError, subprocess.SubprocessError, tarfile.TarError) as exc:
        print(f"[pbem] the browser verifier's runtime is not installed: {exc}", file=sys.stderr)
        return 1
    size = sum((folder / name).stat().st_size for name in CORE_FILES)
    print(f"[pbem] Pyodide {PYODIDE_VERSION} for the browser verifier: {folder} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
