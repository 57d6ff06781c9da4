"""`pbem archive DIR` opened in a real browser (issue 13): from the index a visitor follows the links
to a game's page (its board picture drawn), its log and its record, and to a tournament's
standings; a crawl of every page then finds no link, stylesheet or picture that leads nowhere, and
no link back to the server.

Games of two titles with board pictures (Doge, China) are started through the service and ended by
the moderator's declared result; one belongs to a tournament. The archive is written by the `pbem`
command in its own process, as an operator would run it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import deque
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from adjudicator import service, store
from tests.support.browser import chromium_or_skip
from tests.support.databases import sqlite_database
from tests.support.play import declared_game

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


def test_the_archive_opens_in_the_browser_with_working_links(tmp_path: Path, monkeypatch) -> None:
    chromium = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    monkeypatch.setenv("PBEM_VAR_DIR", str(tmp_path / "var"))  # one server key for both processes
    out = tmp_path / "site"
    with sqlite_database(tmp_path) as db:
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
    assert f"tournament/{cup.director_id}/index.html" in visited and checked > 20
    assert visited == {p.relative_to(out).as_posix() for p in out.rglob("*.html")}  # no page unreachable
