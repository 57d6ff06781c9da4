"""`/verify`: check a game's record in the browser with the project's own rules code.

The page runs `adjudicator.record.verdict` (the same `verify_bytes` as `pbem verify`) under
Pyodide in a Web Worker. Everything it loads comes from this site: the runtime's core files
(web/verifier_runtime.py installs them), a zip of the pure packages, and two scripts. Its CSP
allows only 'self', plus 'wasm-unsafe-eval' so that WebAssembly may compile. In `pbem archive`'s
copy opened from its folder (file://) the check runs on the page instead: web/static/verify-local.js."""

from __future__ import annotations

import hashlib
import io
import zipfile
from functools import lru_cache
from pathlib import Path

from flask import Blueprint, Response, abort, render_template, request, send_from_directory, url_for

from .verifier_runtime import CORE_FILES, PYODIDE_VERSION, installed, runtime_dir

bp = Blueprint("verifier", __name__)

VERIFIER_CSP = "; ".join([
    "default-src 'none'",
    "script-src 'self' 'wasm-unsafe-eval'",
    "worker-src 'self'",
    "connect-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
])
PACKAGE_ROOT = Path(__file__).resolve().parents[1] / "adjudicator"
# the pure packages (tests/engine/test_import_boundaries.py keeps them standard-library only)
PURE_PACKAGES = ("engine", "record", "games")
STATIC = Path(__file__).resolve().parent / "static"
# the runtime's files that are not scripts: what the archive ships as X.js for a page opened from
# its folder (file://), where fetch() reads no file (web/static/verify-local.js)
EMBEDDED = tuple(name for name in CORE_FILES if not name.endswith(".js"))


@lru_cache(maxsize=1)
def pure_zip() -> bytes:
    """adjudicator/__init__.py, engine, record and games (sources and data), as a zip; built once."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.write(PACKAGE_ROOT / "__init__.py", "adjudicator/__init__.py")
        for package in PURE_PACKAGES:
            for path in sorted((PACKAGE_ROOT / package).rglob("*")):
                if path.is_file() and path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
                    name = path.relative_to(PACKAGE_ROOT.parent).as_posix()
                    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # same bytes, same ETag
                    zf.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _with_csp(resp: Response) -> Response:
    resp.headers["Content-Security-Policy"] = VERIFIER_CSP
    return resp


@bp.route("/verify")
def page():
    game_id = request.args.get("game", "")
    export_url = url_for("public.export", game_id=game_id) if game_id else ""
    html = render_template("public/verify.html", game_id=game_id, export_url=export_url,
                           runtime_ready=installed(),
                           worker_url=url_for("verifier.worker"), zip_url=url_for("verifier.package_zip"),
                           runtime_url=url_for("verifier.runtime", name=CORE_FILES[0]), embedded=EMBEDDED)
    return _with_csp(Response(html, mimetype="text/html"))


@bp.route("/verify/worker.js")
def worker():
    # a worker's own response carries its CSP: the same as the page's
    body = (STATIC / "verify-worker.js").read_text("utf-8")
    resp = Response(body, mimetype="text/javascript")
    resp.headers["Cache-Control"] = "no-cache"
    return _with_csp(resp)


@bp.route(f"/verify/runtime/{PYODIDE_VERSION}/<name>")
def runtime(name: str):
    if name not in CORE_FILES or not installed():
        abort(404)
    resp = send_from_directory(runtime_dir(), name, max_age=365 * 24 * 3600)
    return _with_csp(resp)


@bp.route("/verify/pbem.zip")
def package_zip():
    body = pure_zip()
    resp = Response(body, mimetype="application/zip")
    resp.set_etag(hashlib.sha256(body).hexdigest())
    resp.headers["Cache-Control"] = "no-cache"  # revalidated by ETag: a new build is seen at once
    return resp.make_conditional(request)
