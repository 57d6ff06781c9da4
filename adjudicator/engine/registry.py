"""The registry of games: id -> game module value."""

from __future__ import annotations

from .protocol import GameModule

_GAMES: dict[str, GameModule] = {}


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


def get_game(game_id: str) -> GameModule:
    _load_builtin_games()
    try:
        return _GAMES[game_id]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise KeyError(f"no game called {game_id!r}; known games: {known}") from None


def all_games() -> dict[str, GameModule]:
    _load_builtin_games()
    return dict(sorted(_GAMES.items()))


def _load_builtin_games() -> None:
    # Imported lazily so that the engine never depends on a game at import time.
    import adjudicator.games  # noqa: F401  (registers the built-in games)
