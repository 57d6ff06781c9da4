"""The browser verifier (`/verify`, issue 29) in Debian's chromium: the project's own rules code run
under Pyodide, served by the site. Each title's finished record gives the same verdict and final
state hash as `pbem verify`'s `verify_bytes`; tampered records fail at the right entry; a running
game's redacted export is checked as far as it can be; a kept receipt is found; and the page asks
nothing of any other host.

One web server and one browser for the module. The runtime (Pyodide from npm) is installed by
`scripts/dev.py test`; without npm these tests skip and say so."""

from __future__ import annotations

import gzip
import json
import re
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from adjudicator.engine import canonical_json, get_game
from adjudicator.record import VerifyError, export_bytes, verify_bytes
from adjudicator.record.chain import commitment, export_document, redact_entries
from adjudicator.record.verdict import receipt_line
from adjudicator.record.verify import failure_line, verdict_line
from tests.support.browser import chromium_or_skip, free_port
from tests.support.databases import unavailable
from tests.support.records import FIXTURES
from tests.support.records import NEWEST as TITLES
from web.verifier_runtime import CORE_FILES, RuntimeUnavailable, install

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SEALED = "doge-rules-2.json"  # a record made through the service: its sealed bids carry salts


def _fixture(name: str) -> bytes:
    raw = (FIXTURES / name).read_bytes()
    return gzip.decompress(raw) if name.endswith(".gz") else raw


@dataclass
class Verifier:
    base: str
    page: Any
    requests: list[str]
    sizes: dict[str, int]  # URL -> body bytes as sent (Content-Length), first load of each
    db_url: str  # the server's database (the store is global: a test that moves it moves it back)


@pytest.fixture(scope="module")
def verifier(tmp_path_factory) -> Iterator[Verifier]:
    chromium = chromium_or_skip()
    try:
        install()
    except (RuntimeUnavailable, OSError) as exc:  # no npm, no network, nowhere to write
        unavailable(f"the browser verifier's runtime cannot be installed here: {exc}")
    from playwright.sync_api import sync_playwright
    from werkzeug.serving import make_server

    from web import create_app

    tmp = tmp_path_factory.mktemp("verify")
    db_url = f"sqlite:///{tmp / 'pbem.sqlite'}"
    app = create_app({"DATABASE_URL": db_url, "PBEM_VAR_DIR": str(tmp / "var"), "PBEM_BASE_URL": ""})
    port = free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            try:
                page = browser.new_page()
                seen: list[str] = []
                sizes: dict[str, int] = {}
                page.context.on("request", lambda req: seen.append(req.url))  # the worker's fetches too
                page.context.on("response", lambda resp: sizes.setdefault(
                    resp.url, int(resp.headers.get("content-length") or 0)))
                yield Verifier(f"http://127.0.0.1:{port}", page, seen, sizes, db_url)
            finally:
                browser.close()
    finally:
        server.shutdown()


def _check(v: Verifier, raw: bytes, tmp: Path, receipt: str = "") -> dict[str, str]:
    """Pick `raw` as a record file on /verify and wait for the verdict line."""
    from playwright.sync_api import expect

    page = v.page
    if not page.url.startswith(v.base + "/verify"):
        page.goto(v.base + "/verify")
    page.fill("#verify-receipt", receipt)
    path = tmp / f"export-{len(list(tmp.glob('export-*.json')))}.json"
    path.write_bytes(raw)
    page.evaluate("document.getElementById('verdict').textContent = ''")
    page.set_input_files("#verify-file", str(path))
    # polled through a locator: a wait_for_function would need eval, which the page's CSP refuses
    expect(page.locator("#verdict")).to_have_text(re.compile(r"^record "), timeout=120_000)
    return page.evaluate("""() => ({
      line: document.getElementById('verdict').textContent,
      summary: document.getElementById('verify-summary').textContent,
      receipt: document.getElementById('verify-receipt-result').textContent,
      receiptKind: document.getElementById('verify-receipt-result').getAttribute('data-kind') || '',
      ms: document.getElementById('verify-time').getAttribute('data-ms'),
      progress: [document.getElementById('verify-progress').value, document.getElementById('verify-progress').max],
    })""")


def _outside(v: Verifier) -> list[str]:
    return [url for url in v.requests if not url.startswith(v.base + "/") and not url.startswith(("blob:", "data:"))]


@pytest.mark.parametrize("title", sorted(TITLES))
def test_a_finished_game_verifies_in_the_browser_like_pbem_verify(verifier, tmp_path, title):
    raw = _fixture(TITLES[title])
    report = verify_bytes(raw)  # what `pbem verify` computes
    assert report.replayed and report.finished
    started = time.monotonic()
    got = _check(verifier, raw, tmp_path)
    assert got["line"] == verdict_line(report)
    assert got["line"] == f"record verified: {report.entries} entries, final state hash {report.final_state_hash}"
    assert report.rules_version in got["summary"]
    assert got["progress"] == [report.entries, report.entries]  # the progress bar went to the end
    assert _outside(verifier) == []
    _step_by_step(verifier, raw, report.entries)
    loaded = sum(verifier.sizes.values())
    print(f"\n{title}: {report.entries} entries verified in the browser in {int(got['ms']) / 1000:.2f} s "
          f"(page round trip {time.monotonic() - started:.1f} s); first load so far {loaded / 1e6:.1f} MB "
          f"in {len(verifier.sizes)} files")
    assert all(any(url.endswith("/" + name) for url in verifier.sizes) for name in CORE_FILES)
    assert loaded <= 15_000_000
    assert int(got["ms"]) <= 15_000


def _step_by_step(v: Verifier, raw: bytes, entries: int) -> None:
    """The replay browsable: it opens on the last entry; "Previous" shows the one before, with the
    public board after it as the game renders it (adjudicator/record/verdict.py's step_view)."""
    from playwright.sync_api import expect

    from adjudicator.record.verdict import step_view

    page = v.page
    expect(page.locator("#verify-step-title")).to_contain_text(f"Entry {entries - 1} of {entries - 1}")
    page.click("#verify-step-prev")
    expect(page.locator("#verify-step-title")).to_contain_text(f"Entry {entries - 2} of {entries - 1}")
    expected = step_view(raw, entries - 2)
    assert page.locator("#verify-step-board").text_content() == expected["board"]
    assert page.locator("#verify-step-orders").text_content() == "\n".join(
        f"{seat}: {text}" for seat, text in expected["orders"].items())


def _edited(doc: dict[str, Any]) -> bytes:
    return export_bytes(doc)


def _sealed_entry(doc: dict[str, Any]) -> dict[str, Any]:
    return next(e for e in doc["entries"] if e["kind"] == "orders" and e["data"].get("salts"))


def test_tampered_records_fail_at_the_right_entry(verifier, tmp_path):
    raw = _fixture(SEALED)
    doc = json.loads(raw)
    sealed = _sealed_entry(doc)
    index = sealed["index"]
    seat = sorted(sealed["data"]["salts"])[0]

    changed_order = json.loads(raw)
    changed_order["entries"][index]["data"]["orders"][seat] = {"changed": True}
    changed_salt = json.loads(raw)
    changed_salt["entries"][index]["data"]["salts"][seat] = "0" * 32
    changed_seed = json.loads(raw)
    changed_seed["server_seed"] = "f" * len(doc["server_seed"])
    reordered = json.loads(raw)
    reordered["entries"][3], reordered["entries"][4] = reordered["entries"][4], reordered["entries"][3]

    cases = [(changed_order, index, "hash does not match"), (changed_salt, index, "hash does not match"),
             (changed_seed, 0, "seed does not match"), (reordered, 3, "expected 3")]
    for tampered, at, reason in cases:
        body = _edited(tampered)
        with pytest.raises(VerifyError) as exc:
            verify_bytes(body)
        assert exc.value.index == at
        got = _check(verifier, body, tmp_path)
        assert got["line"] == failure_line(exc.value)
        assert got["line"].startswith(f"record FAILED at entry {at}: ") and reason in got["line"]
    assert _outside(verifier) == []


def test_a_redacted_running_game_is_checked_as_far_as_it_can_be(verifier, tmp_path):
    doc = json.loads(_fixture(SEALED))
    cut = _sealed_entry(doc)["index"] + 1  # the game as it stood just after a sealed reveal
    entries, withheld = redact_entries(doc["entries"][:cut])
    running = export_document(get_game("doge"), entries, None, withheld)
    body = export_bytes(running)
    report = verify_bytes(body)
    assert not report.replayed and report.withheld == len(withheld) > 0
    got = _check(verifier, body, tmp_path)
    assert got["line"] == verdict_line(report)
    assert got["line"].startswith(f"record verified so far: {cut} entries linked")
    assert "waits for the end of the game" in got["line"]
    assert "Waiting for the end of the game" in got["summary"]


def test_a_pasted_receipt_is_found_or_said_to_differ(verifier, tmp_path):
    raw = _fixture(SEALED)
    sealed = _sealed_entry(json.loads(raw))
    seat = sorted(sealed["data"]["salts"])[0]
    kept = commitment(sealed["data"]["orders"][seat], sealed["data"]["salts"][seat])
    got = _check(verifier, raw, tmp_path, receipt_line("g123", seat, kept))
    assert got["receiptKind"] == "revealed"
    assert got["receipt"].startswith(f"Your order was revealed as you sent it (entry {sealed['index']})")
    assert (canonical_json(sealed["data"]["orders"][seat]).decode()
            in got["receipt"].replace(", ", ",").replace(": ", ":"))
    got = _check(verifier, raw, tmp_path, receipt_line("g123", seat, "0" * 64))
    assert got["receiptKind"] == "missing" and f"seat {seat}" in got["receipt"]


def test_a_games_link_checks_its_record_from_this_site(verifier):
    """`/verify?game=<id>`, as linked from the game's page: the page fetches the game's own export
    from the site and checks it, no file to pick."""
    from playwright.sync_api import expect

    from adjudicator import store
    from tests.support.play import declared_game

    store.configure(verifier.db_url)
    game_id = declared_game("china", 3, "Linked China", None)
    export = urllib.request.urlopen(f"{verifier.base}/game/{game_id}/export.json", timeout=30).read()
    report = verify_bytes(export)
    assert report.replayed and report.finished
    page = verifier.page
    verifier.requests.clear()
    page.goto(f"{verifier.base}/game/{game_id}")
    page.click(f"a[href='/verify?game={game_id}']")
    expect(page.locator("#verdict")).to_have_text(re.compile(r"^record "), timeout=120_000)
    assert page.locator("#verdict").text_content() == verdict_line(report)
    assert f"{verifier.base}/game/{game_id}/export.json" in verifier.requests
    assert _outside(verifier) == []


def test_the_archives_verifier_checks_its_records_from_the_archive_folder(verifier, tmp_path, monkeypatch):
    """`pbem archive`'s static site carries the verifier: served by any static web server it checks
    the game's record.json with nothing from the pbem server, in its worker as on the site. (Opened
    from the folder, file://, it runs on the page: tests/e2e/test_archive_browser.py.)"""
    import functools
    import http.server

    from playwright.sync_api import expect

    from adjudicator import store
    from tests.support.databases import sqlite_database
    from tests.support.play import declared_game
    from web import create_app
    from web.archive import write_archive

    monkeypatch.setenv("PBEM_VAR_DIR", str(tmp_path / "var"))
    with sqlite_database(tmp_path) as db:
        store.configure(db.url)
        try:
            store.init_db()
            game_id = declared_game("doge", 3, "Archived Doge", None)
            out = tmp_path / "site"
            write_archive(create_app({"DATABASE_URL": db.url, "PBEM_BASE_URL": ""}), out)
        finally:
            store.configure(verifier.db_url)
    game_dir = out / "game" / game_id
    report = verify_bytes((game_dir / "record.json").read_bytes())
    assert 'href="verify.html"' in (game_dir / "index.html").read_text()

    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(out))
    static = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=static.serve_forever, daemon=True).start()
    host = f"http://127.0.0.1:{static.server_address[1]}"
    page = verifier.page
    try:
        verifier.requests.clear()
        page.goto(f"{host}/game/{game_id}/verify.html")
        expect(page.locator("#verdict")).to_have_text(re.compile(r"^record "), timeout=120_000)
        assert page.locator("#verdict").text_content() == verdict_line(report)
        assert [url for url in verifier.requests if not url.startswith(host + "/")] == []
        assert f"{host}/verify/worker.js" in verifier.requests  # served: the worker, as on the site
    finally:
        static.shutdown()
        page.goto(verifier.base + "/verify")
