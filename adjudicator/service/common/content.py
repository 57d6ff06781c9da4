"""Installed content: the boards and decks a server adds to the ones pbem ships.

An installed version is a database row (so the web app and every worker see it) and, once loaded,
an item of the game's content library (adjudicator/engine/content.py). Rows are only ever added:
a running game names its version by pin and keeps it; installing a name again changes what new
games get. Each process loads rows it has not seen yet before it resolves game options or touches
a game's state, so an install needs no restart.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from sqlalchemy.orm import object_session
from sqlmodel import Session, col, select

from adjudicator.engine import ContentError, ContentLibrary, get_game
from adjudicator.store import Game, InstalledContent

from .errors import NotFound, ServiceError

SNAPSHOT = "snapshot of the built-in version a game started with"
_loaded_up_to: dict[str, int] = {}  # database URL -> highest row id this process has added
_lock = threading.Lock()


@dataclass(frozen=True)
class ContentInfo:
    game: str
    kind: str
    name: str
    pin: str
    builtin: bool
    current: bool  # what new games naming it get
    source: str = ""


def library(game: str, kind: str) -> ContentLibrary:
    """The content library of one game and kind (e.g. china, board)."""
    try:
        module = get_game(game)
    except KeyError as exc:
        raise NotFound(str(exc.args[0])) from None
    for option in module.info.options:
        if option.library is not None and option.library.kind == kind:
            return option.library
    kinds = [o.library.kind for o in module.info.options if o.library is not None]
    raise NotFound(f"{module.info.title} has no installable {kind}s"
                   + (f"; it has: {', '.join(kinds)}" if kinds else ""))


def load_installed(s: Session) -> None:
    """Add rows installed since this process last looked (in install order, so the newest row of
    a name becomes current)."""
    bind = s.get_bind()
    database = str(bind.engine.url)  # an Engine is its own .engine
    with _lock:
        seen = _loaded_up_to.get(database, 0)
        rows = s.exec(select(InstalledContent).where(col(InstalledContent.id) > seen)
                      .order_by(col(InstalledContent.id))).all()
        for row in rows:
            try:
                lib = library(row.game_type, row.kind)
                if row.source == SNAPSHOT:
                    lib.add_pinned(row.pin, row.data)  # never what new games get
                else:
                    lib.add(row.name, row.data)
            except (NotFound, ContentError):
                pass  # a game or kind this build lacks; rows of the others stay usable
            seen = max(seen, row.id or 0)
        _loaded_up_to[database] = seen


def ensure_game_content(g: Game) -> None:
    """Before a game's state is used: make sure the content its options pin is loaded."""
    if not content_known(g):
        s = object_session(g)
        if isinstance(s, Session):  # the project's sessions are all SQLModel's
            load_installed(s)


def content_known(g: Any) -> bool:
    """Whether this process has the content the game's options pin (`g`: a Game, or a row with
    its type and options)."""
    return all(option.library is None or option.library.knows(g.options.get(option.name))
               for option in get_game(g.game_type).info.options)


def keep_builtin_content(s: Session, g: Game) -> None:
    """When a game starts on built-in content, keep a copy of that version: a later pbem release
    may change the shipped file (a new pin), and this game must go on with the one it started on."""
    for option in get_game(g.game_type).info.options:
        if option.library is None:
            continue
        item = option.library.item(g.options[option.name])
        if item.builtin and s.exec(select(InstalledContent.id).where(InstalledContent.pin == item.pin)).first() is None:
            s.add(InstalledContent(game_type=g.game_type, kind=option.library.kind, name=item.name,
                                   pin=item.pin, data=item.data, source=SNAPSHOT))
            s.flush()


def install_content(s: Session, game: str, kind: str, name: str, data: Any, source: str = "") -> ContentInfo:
    """Validate and install one version under `name`; installing the same data again is a no-op."""
    lib = library(game, kind)
    load_installed(s)
    try:
        pin = lib.add(name, data)
    except ContentError as exc:
        raise ServiceError(str(exc)) from None
    if s.exec(select(InstalledContent).where(InstalledContent.pin == pin)).first() is None:
        s.add(InstalledContent(game_type=get_game(game).info.id, kind=kind, name=name, pin=pin, data=data,
                               source=source))
        s.flush()
    return ContentInfo(get_game(game).info.id, kind, name, pin, False, True, source)


def list_content(s: Session, game: str, kind: str) -> list[ContentInfo]:
    """Every version known here: built in first, then installed ones in install order."""
    lib = library(game, kind)
    load_installed(s)
    current = set(lib.current_pins().values())
    found = [ContentInfo(game, kind, item.name, item.pin, True, item.pin in current)
             for item in lib.items() if item.builtin]
    for row in s.exec(select(InstalledContent).where(InstalledContent.game_type == game,
                                                     InstalledContent.kind == kind,
                                                     InstalledContent.source != SNAPSHOT)
                      .order_by(col(InstalledContent.id))).all():
        found.append(ContentInfo(game, kind, row.name, row.pin, False, row.pin in current, row.source))
    return found
