"""A game's module and the open prompts of its state, cached by state (what a table holds, table.py)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from adjudicator.engine import GameModule, Prompt, get_game
from adjudicator.store import Game

from .content import ensure_game_content


class Lru:
    """A small thread-safe LRU map (the web serves requests from several threads)."""

    def __init__(self, size: int) -> None:
        self.size, self.items, self.lock = size, OrderedDict[Any, Any](), threading.Lock()

    def get(self, key: Any) -> Any:
        with self.lock:
            value = self.items.get(key)
            if value is not None:
                self.items.move_to_end(key)
            return value

    def put(self, key: Any, value: Any) -> None:
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)


_PROMPT_CACHE = Lru(256)


def module_of(g: Game) -> GameModule:
    ensure_game_content(g)
    return get_game(g.game_type)


def current_prompts(g: Game) -> dict[str, Prompt]:
    """The open prompts of the game's current state. Prompts depend on the state alone, so they are
    cached by state hash: one order used to rebuild every legal choice four or five times. Callers
    must treat the prompts as read-only."""
    if g.status == "finished":
        return {}
    prompts = cached_prompts(g)  # before `g.state`: an order's game row reads it only when used
    if prompts is None:
        if g.state is None:
            return {}
        prompts = module_of(g).prompts(g.state)
        _PROMPT_CACHE.put((g.game_type, g.state_hash, g.record_length), prompts)
    return prompts


def cached_prompts(g: Any) -> dict[str, Prompt] | None:
    """The prompts of a running game's state if this process has them cached, else None; reads
    neither `g.state` nor the database (`g`: a Game, or a row with its type, hash and length)."""
    return _PROMPT_CACHE.get((g.game_type, g.state_hash, g.record_length))
