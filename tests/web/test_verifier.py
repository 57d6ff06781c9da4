"""The browser verifier's server side (issue 29): the page's CSP, the runtime files it serves and
nothing else, and the zip of pure packages that Pyodide imports (here: imported by a plain Python
from that zip alone, with nothing else of the project on its path)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from web import verifier_runtime
from web.verifier import VERIFIER_CSP, pure_zip
from web.verifier_runtime import CORE_FILES, RuntimeUnavailable, install

FIXTURE = Path(__file__).resolve().parents[1] / "record" / "fixtures" / "doge-rules-2.json"


def test_the_page_allows_only_its_own_site_and_webassembly(client):
    resp = client.get("/verify")
    assert resp.status_code == 200
    csp = resp.headers["Content-Security-Policy"]
    assert csp == VERIFIER_CSP
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp and "connect-src 'self'" in csp
    assert "http" not in csp and "'unsafe-eval'" not in csp and "'unsafe-inline'" not in csp
    assert client.get("/verify/worker.js").headers["Content-Security-Policy"] == VERIFIER_CSP
    # every other page keeps the site's stricter policy
    assert "wasm-unsafe-eval" not in client.get("/").headers["Content-Security-Policy"]


def test_a_game_link_names_the_games_own_export(client):
    html = client.get("/verify?game=abc123").get_data(as_text=True)
    assert 'data-export="/game/abc123/export.json"' in html
    assert 'data-export=""' in client.get("/verify").get_data(as_text=True)


def test_only_the_runtimes_core_files_are_served(client, tmp_path, monkeypatch):
    monkeypatch.setenv("PBEM_PYODIDE_DIR", str(tmp_path))
    for name in CORE_FILES:
        (tmp_path / name).write_bytes(b"x" * 3)
    (tmp_path / "console.html").write_text("not served")
    base = f"/verify/runtime/{verifier_runtime.PYODIDE_VERSION}/"
    assert client.get(base + "pyodide.asm.wasm").data == b"xxx"
    assert client.get(base + "console.html").status_code == 404
    assert client.get(base + "..%2Fweb.sqlite3").status_code == 404
    (tmp_path / "pyodide.asm.wasm").unlink()  # a half-installed runtime serves nothing
    assert client.get(base + "pyodide.js").status_code == 404
    assert "runtime is not installed" in client.get("/verify").get_data(as_text=True)


def test_the_zip_holds_the_pure_packages_only_and_is_stable(client):
    names = zipfile.ZipFile(io.BytesIO(pure_zip())).namelist()
    assert "adjudicator/record/verdict.py" in names and "adjudicator/games/china/components.json" in names
    assert not [n for n in names if not n.startswith(("adjudicator/engine/", "adjudicator/record/",
                                                       "adjudicator/games/", "adjudicator/__init__.py"))]
    first = client.get("/verify/pbem.zip")
    assert first.data == pure_zip()
    assert client.get("/verify/pbem.zip", headers={"If-None-Match": first.headers["ETag"]}).status_code == 304


def test_the_zip_verifies_a_record_on_its_own_with_the_standard_library(tmp_path):
    """What Pyodide does: unpack the zip, import from it, verify; no other module is loaded."""
    zipfile.ZipFile(io.BytesIO(pure_zip())).extractall(tmp_path / "pbem")
    script = f"""
import json, sys
sys.path.insert(0, {str(tmp_path / 'pbem')!r})
from adjudicator.record.verdict import check_export
result = check_export(open({str(FIXTURE)!r}, 'rb').read())
outside = sorted(name for name in sys.modules if name.split('.')[0] not in sys.stdlib_module_names
                 and not name.startswith(('adjudicator.engine', 'adjudicator.record', 'adjudicator.games'))
                 and name not in ('adjudicator', '__main__'))
print(json.dumps([result, outside, sys.modules['adjudicator'].__file__]))
"""
    done = subprocess.run([sys.executable, "-I", "-S", "-c", script], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result, outside, origin = json.loads(done.stdout)
    assert result["ok"] and result["line"].startswith("record verified: 129 entries, final state hash ")
    assert outside == []
    assert origin.startswith(str(tmp_path))


def _tarball(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        for name, body in files.items():
            info = tarfile.TarInfo(f"package/{name}")
            info.size = len(body)
            tar.addfile(info, io.BytesIO(body))
    return out.getvalue()


def test_the_runtime_is_installed_whole_or_not_at_all(tmp_path, monkeypatch):
    import hashlib

    whole = _tarball({name: name.encode() for name in CORE_FILES} | {"console.html": b"-"})
    partial = _tarball({name: b"" for name in CORE_FILES[:-1]})
    folder = tmp_path / "pyodide"

    monkeypatch.setattr(verifier_runtime, "fetch_tarball", lambda: whole)
    with pytest.raises(RuntimeUnavailable, match="sha256"):  # not the pinned package
        install(folder)
    assert not folder.exists()

    monkeypatch.setattr(verifier_runtime, "fetch_tarball", lambda: partial)
    monkeypatch.setattr(verifier_runtime, "PYODIDE_SHA256", hashlib.sha256(partial).hexdigest())
    with pytest.raises(RuntimeUnavailable, match="lacks pyodide-lock.json"):
        install(folder)
    assert not folder.exists() and not list(tmp_path.iterdir())

    monkeypatch.setattr(verifier_runtime, "fetch_tarball", lambda: whole)
    monkeypatch.setattr(verifier_runtime, "PYODIDE_SHA256", hashlib.sha256(whole).hexdigest())
    assert install(folder) == folder
    assert sorted(p.name for p in folder.iterdir()) == sorted(CORE_FILES)
    assert (folder / "pyodide.js").read_bytes() == b"pyodide.js"
