"""Michael Schacht's China (3-5 players): a pure rules module.

Registered by the games package with ``register(CHINA)``; `GAME` is the module value.
"""

from .boardfile import validate_board
from .game import GAME

__all__ = ["GAME", "validate_board"]
