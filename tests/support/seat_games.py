"""Games set up through the service for browser tests and screenshots: created, joined, and moved
on by random legal orders (sealed groups revealed inline: PBEM_EAGER=1 must be set), so a page
opens on a decision in the middle of a game."""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import select

from adjudicator import service, store
from adjudicator.store.models import Game
from tests.support.play import PlayedGame
from workers.enqueue import eager, enqueue


@dataclass
class Started(PlayedGame):
    game: str = ""

    def path(self, seat: str) -> str:
        return f"/play/{self.game_id}/{seat}/{self.tokens[seat]}"

    def url(self, site: Any, seat: str) -> str:
        """The seat page on `site` (a base URL, or anything with a `base`)."""
        return f"{getattr(site, 'base', site)}{self.path(seat)}"

    def prompts(self) -> dict[str, Any]:
        """Seat -> its page state, for every seat with a decision open."""
        pages = {seat: self.page(seat) for seat in self.tokens}
        return {seat: page for seat, page in pages.items() if page.prompt is not None}

    def open_pages(self) -> dict[str, Any]:
        """Seat -> its page state, for the seats with a decision open (a sealed order already in
        counts as answered)."""
        return {seat: page for seat, page in self.prompts().items() if page.receipt is None}

    def submit(self, seat: str, text: str, token: Any = "current", **kw: Any) -> service.Submission:
        """As PlayedGame's, and the order must be accepted; a complete sealed group is revealed
        here under PBEM_EAGER=1 (without it no task runs)."""
        sub = super().submit(seat, text, token, **kw)
        assert not sub.error, sub.error
        if eager():
            enqueue(sub.tasks)
        return sub


def start(game: str, seats: int, title: str = "", entropy: Callable[[str], str] | None = None) -> Started:
    """A running game; `entropy(server_seed)`: what every player adds at joining (default none)."""
    with store.transaction() as s:
        created = service.create_game(s, game=game, seats=seats, title=title or f"Seat page {game}")
    added = ""
    if entropy is not None:
        with store.transaction(write=False) as s:
            added = entropy(s.exec(select(Game).where(Game.public_id == created.game_id)).one().server_seed)
    tokens = {}
    for seat, invite in sorted(created.invites.items()):
        with store.transaction() as s:
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, seat.title(),
                                             entropy=added).seat_token
    return Started(created.game_id, created.admin_token, tokens, game=game)


def advance(started: Started, rnd: random.Random, steps: int,
            until: Callable[[str, Any], bool] | None = None) -> str | None:
    """Answer `steps` open decisions with random legal orders (the seat first by name); stop early
    and return the seat whose open decision satisfies `until`."""
    from adjudicator.engine import get_game

    game = get_game(started.game)
    for _ in range(steps):
        pages = started.open_pages()
        if not pages:
            return None
        if until is not None:
            for seat, page in sorted(pages.items()):
                if until(seat, page):
                    return seat
        seat, page = sorted(pages.items())[0]
        started.submit(seat, game.format_order(rnd.choice(page.prompt["choices"])))
    return None


@dataclass
class Site:
    base: str
    browser: Any


@contextmanager
def served(tmp: Path, eager: bool = False) -> Iterator[Site]:
    """A fresh SQLite database (this process's store too), the web app on it and Debian's chromium.
    `eager`: sealed groups are revealed inline, by the server and by `Started.submit` here."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import chromium_or_skip, web_server
    from tests.support.databases import sqlite_database

    chromium = chromium_or_skip()
    before = os.environ.get("PBEM_EAGER")
    if eager:
        os.environ["PBEM_EAGER"] = "1"
    with sqlite_database(tmp) as db:
        store.configure(db.url)
        store.init_db()
        env = {k: v for k, v in os.environ.items() if k not in ("PBEM_EAGER", "SMTP_HOST")}
        env.update({"DATABASE_URL": db.url, "PBEM_VAR_DIR": str(tmp / "var")})
        if eager:
            env["PBEM_EAGER"] = "1"
        try:
            with web_server(env, tmp, tmp / "web.log") as base, sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                try:
                    yield Site(base, browser)
                finally:
                    browser.close()
        finally:
            store.configure(None)
            if before is None:
                os.environ.pop("PBEM_EAGER", None)
            else:
                os.environ["PBEM_EAGER"] = before
