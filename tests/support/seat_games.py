"""Games set up through the service for browser tests and screenshots: created, joined, and moved
on by random legal orders (sealed groups revealed inline: PBEM_EAGER=1 must be set), so a page
opens on a decision in the middle of a game."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlmodel import select

from adjudicator import service, store
from adjudicator.store.models import Game
from workers.enqueue import eager, enqueue


@dataclass
class Started:
    game_id: str
    game: str
    tokens: dict[str, str]

    def path(self, seat: str) -> str:
        return f"/play/{self.game_id}/{seat}/{self.tokens[seat]}"

    def url(self, site: Any, seat: str) -> str:
        """The seat page on `site` (a base URL, or anything with a `base`)."""
        return f"{getattr(site, 'base', site)}{self.path(seat)}"

    def prompts(self) -> dict[str, Any]:
        """Seat -> its page state, for every seat with a decision open."""
        found = {}
        for seat, token in self.tokens.items():
            with store.transaction(write=False) as s:
                page = service.seat_state(s, self.game_id, seat, token)
            if page.prompt is not None:
                found[seat] = page
        return found

    def open_pages(self) -> dict[str, Any]:
        """Seat -> its page state, for the seats with a decision open (a sealed order already in
        counts as answered)."""
        return {seat: page for seat, page in self.prompts().items() if page.receipt is None}

    def submit(self, seat: str, text: str) -> None:
        with store.transaction(write=False) as s:
            token = service.seat_state(s, self.game_id, seat, self.tokens[seat]).prompt_token
        with store.transaction() as s:
            sub = service.submit(s, self.game_id, seat, self.tokens[seat], text, token)
        assert not sub.error, sub.error
        if eager():  # a complete sealed group is revealed here; without PBEM_EAGER=1 no task runs
            enqueue(sub.tasks)


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
    return Started(created.game_id, game, tokens)


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
