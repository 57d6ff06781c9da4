"""Per-game HTML/SVG boards.

`board_html(game_id, view, seat)` returns Markup for games that registered a drawer, or None:
the page then shows the game's own `render_view` Markdown (sanitised), which every game has.
A drawer receives only the view that the page may show (already redacted for the seat), and
must escape every string it puts into the page (use `markupsafe.escape` / `Markup.format`).

A drawer that raises never breaks a page: the error is logged and the Markdown board is shown,
unless the app runs with PBEM_BOARD_STRICT (tests), where the error is re-raised.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from contextvars import ContextVar
from typing import Any

from flask import current_app, has_app_context
from markupsafe import Markup

log = logging.getLogger(__name__)

Drawer = Callable[[dict[str, Any], str | None], Markup | str]
_BOARDS: dict[str, Drawer] = {}
# While a seat composes a long order, the regions its next step offers are links (an order word,
# e.g. a district id or a state name, to the composer URL that picks it); see `link_for`.
_LINKS: ContextVar[Mapping[str, str] | None] = ContextVar("board_links", default=None)


def link_for(word: str) -> str | None:
    """The URL that picks `word` in the seat's order composer, if its next step offers it."""
    links = _LINKS.get()  # not `or {}`: a lazy mapping may be empty yet answer for any word
    return links.get(word) if links is not None else None


_HANDS: dict[str, Drawer] = {}  # the seat's own cards, shown beside its decision (not in the board)
_EVERY_DECISION: set[str] = set()  # games whose hand goes beside every decision, not only those naming cards


def register_hand(game_id: str, every_decision: bool = False) -> Callable[[Drawer], Drawer]:
    """`every_decision`: the seat page shows the hand beside any open decision of the game (China's
    play, exchange and draw all turn on the cards held); else only beside one whose orders name cards."""
    def deco(fn: Drawer) -> Drawer:
        _HANDS[game_id] = fn
        if every_decision:
            _EVERY_DECISION.add(game_id)
        return fn

    return deco


def hand_at_every_decision(game_id: str) -> bool:
    _load()
    return game_id in _EVERY_DECISION


def hand_html(game_id: str, view: Any, seat: str | None) -> Markup | None:
    """The seat's own hand for its decision's side, from its own view, or None (a game whose board
    draws the hand itself, or no seat)."""
    _load()
    drawer = _HANDS.get(game_id)
    if drawer is None or seat is None or not isinstance(view, dict):
        return None
    return _drawn(game_id, drawer, view, seat)


def register_board(game_id: str) -> Callable[[Drawer], Drawer]:
    def deco(fn: Drawer) -> Drawer:
        _BOARDS[game_id] = fn
        return fn

    return deco


def _load() -> None:
    from . import (
        china,  # noqa: F401  (registers the China board)
        doge,  # noqa: F401  (registers the Doge board)
        founding_fathers,  # noqa: F401  (registers the Founding Fathers board)
        nineteen_sixty,  # noqa: F401  (registers the 1960 board)
    )


def board_html(game_id: str, view: Any, seat: str | None = None,
               links: Mapping[str, str] | None = None) -> Markup | None:
    """`links`: order word -> composer URL, for the regions a click may pick (see `link_for`)."""
    _load()
    drawer = _BOARDS.get(game_id)
    if drawer is None or not isinstance(view, dict):
        return None
    token = _LINKS.set(links)
    try:
        return _drawn(game_id, drawer, view, seat)
    finally:
        _LINKS.reset(token)


def _drawn(game_id: str, drawer: Drawer, view: dict[str, Any], seat: str | None) -> Markup | None:
    try:
        return Markup(drawer(view, seat))
    except Exception:
        log.exception("the %s board could not be drawn; showing the text board", game_id)
        if has_app_context() and current_app.config.get("PBEM_BOARD_STRICT"):
            raise
        return None
