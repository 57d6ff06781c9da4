"""The registry of games: id -> game module value.

The engine knows no game. Games come to it in two ways, both read once, on the first lookup:

- **Entry points** in the group ``pbem.games`` of any installed distribution; each names a
  `GameModule` value (``doge = "adjudicator.games.doge:GAME"``) or a module that registers its
  games when imported. pbem's own games are listed in its pyproject.toml, and a separately
  installed game plugs in the same way.
- **Default sources**: module names added with `add_default_source` by the application above the
  engine (``adjudicator/__init__.py`` adds the built-in games package), so that a clean clone run
  from its directory, or an install made before an entry point was added, still finds them.
  Importing such a module registers its games (``adjudicator/games/__init__.py`` does).

Registering the same game value twice is harmless, so a game listed both ways loads once.
"""

from __future__ import annotations

import importlib
from importlib.metadata import entry_points

from .protocol import GameModule

ENTRY_POINT_GROUP = "pbem.games"

_GAMES: dict[str, GameModule] = {}
_DEFAULT_SOURCES: list[str] = []
_loaded_sources: set[str] = set()
_entry_points_read = False


def register(game: GameModule) -> GameModule:
    if not isinstance(game, GameModule):
        raise TypeError("only GameModule instances can be registered")
    existing = _GAMES.get(game.info.id)
    if existing is not None and existing is not game:
        raise ValueError(f"a different game is already registered as {game.info.id!r}")
    _GAMES[game.info.id] = game
    return game


def unregister(game_id: str) -> None:
    _GAMES.pop(game_id, None)


def add_default_source(module: str) -> None:
    """Name a module that registers games when imported; it is imported on the next lookup."""
    if module not in _DEFAULT_SOURCES:
        _DEFAULT_SOURCES.append(module)


def get_game(game_id: str) -> GameModule:
    _discover()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"no game called {game_id!r}; known games: {known}") from None


def all_games() -> dict[str, GameModule]:
    _discover()
    return dict(sorted(_GAMES.items()))


def _discover() -> None:
    global _entry_points_read
    if not _entry_points_read:
        _entry_points_read = True
        for point in entry_points(group=ENTRY_POINT_GROUP):
            _load_entry_point(point)
    for module in _DEFAULT_SOURCES:
        if module not in _loaded_sources:
            _loaded_sources.add(module)
            importlib.import_module(module)


def _load_entry_point(point) -> None:  # noqa: ANN001 - an importlib.metadata.EntryPoint
    try:
        value = point.load()
    except Exception as exc:
        raise RuntimeError(
            f"the game entry point {point.name} = {point.value!r} (group {ENTRY_POINT_GROUP}) does not load: "
            f"{type(exc).__name__}: {exc}; reinstall or remove the package that declares it"
        ) from exc
    if isinstance(value, GameModule):
        register(value)
    elif not hasattr(value, "__path__") and not hasattr(value, "__file__"):
        raise TypeError(
            f"the game entry point {point.name} = {point.value!r} names a {type(value).__name__}; "
            "it must name a GameModule value or a module that registers its games"
        )
