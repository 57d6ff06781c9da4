"""Founding Fathers (Rick Heli): the pure rules module. Not registered here; the lead registers it."""

from .data import validate_deck
from .game import GAME

__all__ = ["GAME", "validate_deck"]
