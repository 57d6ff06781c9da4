"""`pbem archive DIR` opened in a real browser (issue 13): from the index a visitor follows the links
to a game's page (its board picture drawn), its log and its record, and to a tournament's
standings; a crawl of every page then finds no link, stylesheet or picture that leads nowhere, and
no link back to the server. The archive's verifier (issue 29) works opened straight from the folder
(file://, no web server, the browser offline): it checks each game's record as `pbem verify` does,
and a tampered record fails at the right entry.

Games of two titles with board pictures (Doge, China) are started through the service and ended by
the moderator's declared result; one belongs to a tournament. The archive is written by the `pbem`
command in its own process, as an operator would run it (run the tests with PYTHONPATH set to the
checkout, or that process imports the installed package)."""

from __future__ import annotations

import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from adjudicator import service, store
from adjudicator.record import VerifyError, export_bytes, verify_bytes
from adjudicator.record.chain import entry_hash
from adjudicator.record.verdict import check_export
from adjudicator.record.verify import failure_line, verdict_line
from tests.support.browser import chromium_or_skip
from tests.support.databases import sqlite_database, unavailable
from tests.support.play import declared_game
from tests.support.records import FIXTURES
from tests.support.records import NEWEST as TITLES
from web.archive import as_script
from web.verifier_runtime import RuntimeUnavailable, install

pytestmark = [pytest.mark.browser, pytest.mark.slow]
PBEM = str(Path(sys.executable).with_name("pbem"))

# what the browser made of a page: every link as it resolved it, and whether each stylesheet and
# picture loaded
_READ_PAGE = """() => ({
  links: [...document.querySelectorAll('a[href]')].map(a => a.href),
  sheets: [...document.querySelectorAll('link[rel=stylesheet]')].map(l => [l.href, l.sheet !== null]),
  images: [...document.querySelectorAll('img')].map(i => [i.src, i.complete && i.naturalWidth > 0]),
})"""


def _file(url: str) -> Path:
    return Path(unquote(urlsplit(url).path))


@dataclass
class Archive:
    out: Path
    games: list[str]  # the Doge game (in the tournament), then the China game
    cup: str  # the tournament's id


@pytest.fixture(scope="module")
def archive(tmp_path_factory) -> Iterator[Archive]:
    """The archive of two declared games, written once by `pbem archive` for the module."""
    tmp = tmp_path_factory.mktemp("archive")
    out = tmp / "site"
    try:
        install()  # the verifier's runtime, so that the archive carries the verifier
    except (RuntimeUnavailable, OSError):
        pass  # the link crawl runs without it; the verifier's test skips
    with pytest.MonkeyPatch.context() as mp, sqlite_database(tmp) as db:
        mp.setenv("PBEM_VAR_DIR", str(tmp / "var"))  # one server key for both processes
        store.configure(db.url)
        try:
            store.init_db()
            with store.transaction() as s:
                cup = service.create_director(s, "Autumn Cup")
            games = [declared_game("doge", 3, "Archived Doge", cup), declared_game("china", 3, "Archived China", None)]
            done = subprocess.run([PBEM, "archive", str(out)], capture_output=True, text=True,
                                  env={**os.environ, "DATABASE_URL": db.url})
        finally:
            store.configure(None)
    assert done.returncode == 0 and "wrote 2 finished game(s)" in done.stdout, done.stdout + done.stderr
    yield Archive(out, games, cup.director_id)


def test_the_archive_opens_in_the_browser_with_working_links(archive: Archive) -> None:
    chromium = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    out, games = archive.out, archive.games
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            page = browser.new_page()
            index = (out / "index.html").as_uri()
            # a visitor's path: index -> the Doge game's page (its board drawn) -> its log -> its record
            page.goto(index)
            page.click("a:has-text('Archived Doge')")
            assert page.url == (out / "game" / games[0] / "index.html").as_uri()
            board = page.locator(".board").first.bounding_box()
            assert board and board["width"] > 100 and board["height"] > 100, board
            page.click("a[href='log.html']")
            assert page.url.endswith(f"/game/{games[0]}/log.html")
            assert "the club's season ended" in page.inner_text("main")
            page.goto(index)
            page.click("a:has-text('Autumn Cup')")
            assert "Archived Doge player 1" in page.inner_text("main")

            # every page the archive links to, and every link, sheet and picture on each
            seen, todo, checked = {index}, deque([index]), 0
            while todo:
                url = todo.popleft()
                page.goto(url)
                found = page.evaluate(_READ_PAGE)
                assert found["sheets"] and all(ok for _, ok in found["sheets"]), (url, found["sheets"])
                assert all(ok for _, ok in found["images"]), (url, found["images"])
                for link in found["links"]:
                    scheme = urlsplit(link).scheme
                    assert scheme != "file" or _file(link).is_file(), f"{url}: {link} leads nowhere"
                    assert "127.0.0.1" not in link and "localhost" not in link, f"{url}: {link} needs the server"
                    checked += 1
                    target = link.split("#", 1)[0]
                    if scheme == "file" and target.endswith(".html") and target not in seen:
                        seen.add(target)
                        todo.append(target)
        finally:
            browser.close()
    visited = {_file(u).relative_to(out).as_posix() for u in seen}
    for game_id in games:
        assert {f"game/{game_id}/index.html", f"game/{game_id}/log.html"} <= visited, visited
    assert f"tournament/{archive.cup}/index.html" in visited and checked > 20
    assert visited == {p.relative_to(out).as_posix() for p in out.rglob("*.html")}  # no page unreachable


def _fixture(name: str) -> bytes:
    raw = (FIXTURES / name).read_bytes()
    return gzip.decompress(raw) if name.endswith(".gz") else raw


def _verdict(page) -> str:
    from playwright.sync_api import expect

    expect(page.locator("#verdict")).to_have_text(re.compile(r"^record "), timeout=120_000)
    return page.locator("#verdict").text_content() or ""


def _pick(page, raw: bytes, tmp: Path) -> dict:
    """Pick `raw` as a record file on the verifier page; its verdict, progress and time."""
    path = tmp / f"export-{len(list(tmp.glob('export-*.json')))}.json"
    path.write_bytes(raw)
    page.evaluate("document.getElementById('verdict').textContent = ''")
    page.set_input_files("#verify-file", str(path))
    line = _verdict(page)
    return {"line": line, **page.evaluate("""() => ({
      ms: Number(document.getElementById('verify-time').getAttribute('data-ms')),
      progress: [document.getElementById('verify-progress').value, document.getElementById('verify-progress').max],
    })""")}


# every frame the page paints, what the progress bar shows: [value, max] while it is visible
_WATCH_FRAMES = """() => {
  const bar = document.getElementById('verify-progress');
  window.pbemFrames = [];
  const frame = () => {
    if (!bar.hidden) { window.pbemFrames.push([bar.value, bar.max]); }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}"""


def _changed_order(raw: bytes) -> tuple[bytes, int]:
    """The record with one seat's order changed in its middle orders entry and the chain hashed
    again over it: only the replay can tell, at that entry."""
    doc = json.loads(raw)
    orders = [e for e in doc["entries"] if e["kind"] == "orders" and e["data"]["orders"]]
    entry = orders[len(orders) // 2]
    entry["data"]["orders"][sorted(entry["data"]["orders"])[0]] = {"changed": True}
    for later in doc["entries"][entry["index"]:]:
        later["prev"] = doc["entries"][later["index"] - 1]["hash"]
        later["hash"] = entry_hash(later)
    return export_bytes(doc), entry["index"]


def test_the_archives_verifier_works_from_the_folder(archive: Archive, tmp_path: Path) -> None:
    """Each game's verify.html opened by its file:// URL, in a browser that is offline: it checks
    the game's record.json with the project's rules code as `pbem verify` does, on the page itself
    (a page from a folder runs no worker); the record edited in the folder fails at its entry; a
    finished game of each title picked as a file verifies, and with a changed order fails where
    the replay meets it. Nothing is requested but the folder's own files."""
    chromium = chromium_or_skip()
    if not (archive.out / "verify").is_dir():
        unavailable("the browser verifier's runtime is not installed, so the archive has no verifier")
    from playwright.sync_api import expect, sync_playwright

    from adjudicator.record.verdict import step_view

    size = sum(p.stat().st_size for p in archive.out.rglob("*") if p.is_file())
    print(f"\narchive of {len(archive.games)} games: {size / 1e6:.1f} MB on disk")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            context = browser.new_context(offline=True)
            seen: list[str] = []
            context.on("request", lambda req: seen.append(req.url))
            page = context.new_page()
            for game_id in archive.games:
                record = archive.out / "game" / game_id / "record.json"
                checked = subprocess.run([PBEM, "verify", str(record)], capture_output=True, text=True)
                assert checked.returncode == 0 and ": OK: " in checked.stdout, checked.stdout + checked.stderr
                report = verify_bytes(record.read_bytes())  # what that `pbem verify` computed
                started = time.monotonic()
                page.goto(record.with_name("verify.html").as_uri())
                assert _verdict(page) == verdict_line(report)
                assert report.final_state_hash in verdict_line(report)
                loaded = page.get_attribute("html", "data-runtime-ms")
                print(f"{game_id} ({report.game}) from file://: runtime loaded in {int(loaded or 0) / 1000:.1f} s, "
                      f"verdict after {time.monotonic() - started:.1f} s")
                assert page.workers == []  # the check ran on the page (verify-local.js)

            # the Doge game's folder copied and its record edited there (the page reads its script
            # copy): a new URL, so that no cached script answers
            game = archive.out / "game" / archive.games[0]
            copy = game.with_name(game.name + "-edited")
            doc = json.loads((game / "record.json").read_bytes())
            doc["entries"][-1]["data"]["edited"] = True
            edited = export_bytes(doc)
            with pytest.raises(VerifyError) as failed:
                verify_bytes(edited)
            try:
                shutil.copytree(game, copy)
                (copy / "record.json.js").write_bytes(as_script(edited))
                page.goto((copy / "verify.html").as_uri())
                assert _verdict(page) == failure_line(failed.value)
                assert failed.value.index == len(doc["entries"]) - 1
            finally:
                shutil.rmtree(copy, ignore_errors=True)  # the link crawl finds every page linked

            # a full game of each title, picked from the disk on the page opened from the folder;
            # the bar as each repaint shows it (the check runs on the page: it must let it repaint)
            page.evaluate(_WATCH_FRAMES)
            repainted = []
            for number, title in enumerate(sorted(TITLES)):
                raw = _fixture(TITLES[title])
                report = verify_bytes(raw)
                page.evaluate("window.pbemFrames = []")
                got = _pick(page, raw, tmp_path)
                repainted += [f for f in page.evaluate("window.pbemFrames") if 0 < f[0] < f[1] == report.entries]
                assert got["line"] == verdict_line(report)
                assert got["progress"] == [report.entries, report.entries]  # the bar moved to the end
                changed, at = _changed_order(raw)
                expected = check_export(changed)
                assert expected["index"] == at and not expected["ok"]
                failed_got = _pick(page, changed, tmp_path)
                assert failed_got["line"] == expected["line"]
                assert failed_got["line"].startswith(f"record FAILED at entry {at}: ")
                print(f"{title} from file://: {report.entries} entries verified in {got['ms'] / 1000:.2f} s; "
                      f"the changed order found at entry {at} in {failed_got['ms'] / 1000:.2f} s")
                if number == 0:  # the replay is browsable from the folder too
                    got = _pick(page, raw, tmp_path)
                    expect(page.locator("#verify-step-title")).to_contain_text(
                        f"Entry {report.entries - 1} of {report.entries - 1}")
                    page.click("#verify-step-prev")
                    expect(page.locator("#verify-step-title")).to_contain_text(f"Entry {report.entries - 2} of")
                    assert (page.locator("#verify-step-board").text_content()
                            == step_view(raw, report.entries - 2)["board"])
            assert repainted, "the page never repainted during a check"
        finally:
            browser.close()
    assert seen and all(urlsplit(url).scheme in ("file", "data", "blob") for url in seen), seen
    assert any(url.endswith("/pyodide.asm.wasm.js") for url in seen)
