"""A static archive of every finished game (`pbem archive DIR`), so a club can publish its history
on any web space without running the server.

Each game's public page, whole log and record JSON are rendered by the running app's own views
(through Flask's test client, so the archive shows exactly what the public pages show and nothing
more), then every link is made relative: links to pages the archive holds point at their files,
stylesheets and pictures the pages use are copied, and links to anything else (creating games,
the server's live pages) are removed rather than left dangling.

    DIR/index.html                      the finished games, newest first
    DIR/game/<id>/index.html            the public page (board, outcome, seed)
    DIR/game/<id>/log.html              the public log's newest page (log-<start>.html: every page)
    DIR/game/<id>/record.json           the record (`pbem verify` checks it offline)
    DIR/tournament/<id>/index.html      the standings of a tournament with a finished game (and
                                        its standings.csv and standings.json), as of the archive
    DIR/game/<id>/verify.html           the browser verifier, on that game's record (web/verifier.py)
    DIR/game/<id>/record.json.js        the record as a script, for the verifier opened from the folder
    DIR/verify/...                      its worker, the pure packages' zip and the Pyodide runtime,
                                        when the runtime is installed (else the links are dropped);
                                        each file that is not a script also as X.js (below)
    DIR/static/...                      stylesheets (and pictures, if a page has any)

Opened from its folder (file://) a browser runs no worker and fetch() reads no file, but a
<script src> loads: so each file the verifier fetches (X) is also written as X.js, its bytes in
base64 handed to pbemFile() (web/static/verify-local.js), about a third larger than X.
"""

from __future__ import annotations

import base64
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from flask import Flask, render_template

from adjudicator import service

LINK = re.compile(r'\s(href|src|action|data-(?:runtime|zip|worker|export|local))="([^"]*)"')
DROP = " data-archive-drop"  # marks a link removed, for the second pass
GONE = " data-archive-gone"
# what only the live server does (create a game or a tournament, feeds): the link goes whole; any
# other removed link (a player's page) keeps its text
SERVER_ONLY = re.compile(r"^/(?:new|director/new)$|/feed\.atom$")
DROPPED_ANCHOR = re.compile(r'<a[^>]*' + DROP + r'[^>]*>([^<]*)</a>')
GONE_ANCHOR = re.compile(r'<a[^>]*' + GONE + r'[^>]*>[^<]*</a>')


@dataclass
class ArchiveReport:
    games: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # written, relative to the archive folder
    dropped: set[str] = field(default_factory=set)  # links to pages the archive does not hold


class _Archive:
    def __init__(self, app: Flask, out: Path) -> None:
        self.app, self.out = app, out
        self.client = app.test_client()
        self.pages: dict[str, str] = {"/": "index.html"}  # server path -> archive file
        self.report = ArchiveReport()

    def write(self, name: str, body: bytes) -> None:
        path = self.out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
        self.report.files.append(name)

    def fetch(self, url: str) -> bytes:
        resp = self.client.get(url)
        if resp.status_code != 200:
            raise RuntimeError(f"{url}: HTTP {resp.status_code}")
        return resp.get_data()

    def _static(self, path: str) -> str | None:
        """Copy a file the pages use (stylesheet, picture) on first sight."""
        name = path.lstrip("/")
        if name not in self.report.files:
            try:
                self.write(name, self.fetch(path))
            except RuntimeError:
                return None
        return name

    def relink(self, html: str, name: str) -> str:
        """`html`, to be written as `name`, with every link relative or gone."""
        here = posixpath.dirname(name) or "."

        def fix(match: re.Match[str]) -> str:
            attr, url = match.group(1), match.group(2)
            parts = urlsplit(url.replace("&amp;", "&"))
            if parts.scheme or parts.netloc or not parts.path:
                return match.group(0)  # another site, or an anchor on this page
            target = self.pages.get(f"{parts.path}?{parts.query}" if parts.query else parts.path)
            if target is None:
                target = self.pages.get(parts.path)
            if target is None and parts.path.startswith("/static/"):
                target = self._static(parts.path)
            if target is None:
                self.report.dropped.add(parts.path)
                return GONE if SERVER_ONLY.search(parts.path) else DROP  # removed, never dangling
            relative = posixpath.relpath(target, here)
            return f' {attr}="{relative}' + (f"#{parts.fragment}" if parts.fragment else "") + '"'

        html = GONE_ANCHOR.sub("", LINK.sub(fix, html)).replace(GONE, "")
        return DROPPED_ANCHOR.sub(r"<span>\1</span>", html).replace(DROP, "")


def write_archive(app: Flask, out: Path) -> ArchiveReport:
    from adjudicator.engine import all_games

    from . import backend

    out.mkdir(parents=True, exist_ok=True)
    archive = _Archive(app, out)
    with app.app_context():
        games = [g for g in backend.read(service.list_games) if g.status == "finished"]
        titles = {gid: g.info.title for gid, g in all_games().items()}
        outcomes: dict[str, str] = {}
        tournaments: dict[str, str] = {}  # id -> name, of the tournaments with a finished game
        for g in games:
            base = f"/game/{g.game_id}"
            archive.pages[base] = f"game/{g.game_id}/index.html"
            archive.pages[f"{base}/log"] = f"game/{g.game_id}/log.html"
            archive.pages[f"{base}/export.json"] = f"game/{g.game_id}/record.json"
            public = backend.read(service.public_game, g.game_id)
            starts = service.log_page_starts(public.record_length)
            if len(starts) > 1:  # a paged log: every page (log.html is the newest)
                for start in starts:
                    archive.pages[f"{base}/log?start={start}"] = f"game/{g.game_id}/log-{start}.html"
            outcomes[g.game_id] = (public.outcome or {}).get("summary", "")
            if public.tournament:
                tournaments[public.tournament[0]] = public.tournament[1]
        verifier = add_verifier(archive, [g.game_id for g in games])
        for tid in tournaments:  # every page is registered before any is written: links go both ways
            archive.pages[f"/tournament/{tid}"] = f"tournament/{tid}/index.html"
            for export in ("standings.csv", "standings.json"):
                archive.pages[f"/tournament/{tid}/{export}"] = f"tournament/{tid}/{export}"
        for tid in tournaments:
            page = archive.pages[f"/tournament/{tid}"]
            archive.write(page, archive.relink(archive.fetch(f"/tournament/{tid}").decode("utf-8"), page)
                          .encode("utf-8"))
            for export in ("standings.csv", "standings.json"):
                archive.write(f"tournament/{tid}/{export}", archive.fetch(f"/tournament/{tid}/{export}"))
        for g in games:
            base = f"/game/{g.game_id}"
            for url in [base, f"{base}/log", *[u for u in archive.pages if u.startswith(f"{base}/log?")]]:
                page = archive.pages[url]
                archive.write(page, archive.relink(archive.fetch(url).decode("utf-8"), page).encode("utf-8"))
            record = archive.fetch(f"{base}/export.json")
            archive.write(archive.pages[f"{base}/export.json"], record)
            if verifier:
                archive.write(archive.pages[f"{base}/export.json"] + ".js", as_script(record))
                page = archive.pages[f"/verify?game={g.game_id}"]
                archive.write(page, archive.relink(archive.fetch(f"/verify?game={g.game_id}").decode("utf-8"),
                                                   page).encode("utf-8"))
            archive.report.games.append(g.game_id)
        with app.test_request_context("/"):
            index = render_template("archive/index.html", games=games, titles=titles, outcomes=outcomes,
                                    tournaments=tournaments)
        archive.write("index.html", archive.relink(index, "index.html").encode("utf-8"))
    return archive.report


def add_verifier(archive: _Archive, game_ids: list[str]) -> bool:
    """Copy the browser verifier's files (worker, zip, runtime) and register a verifier page per
    game, so the archive checks its own records; nothing when the runtime is not installed."""
    from .verifier import EMBEDDED
    from .verifier_runtime import CORE_FILES, PYODIDE_VERSION, installed

    if not installed():
        return False
    runtime = f"/verify/runtime/{PYODIDE_VERSION}/"
    files = ["/verify/worker.js", "/verify/pbem.zip", *[runtime + n for n in CORE_FILES]]
    for url in files:
        archive.pages[url] = url.lstrip("/")
        body = archive.fetch(url)
        archive.write(url.lstrip("/"), body)
        if url == "/verify/pbem.zip" or url.removeprefix(runtime) in EMBEDDED:
            archive.write(url.lstrip("/") + ".js", as_script(body))
    for game_id in game_ids:
        archive.pages[f"/verify?game={game_id}"] = f"game/{game_id}/verify.html"
    return True


def as_script(body: bytes) -> bytes:
    """A file's bytes as a classic script that hands them to the verifier opened from file://."""
    return b'pbemFile("' + base64.b64encode(body) + b'");\n'
