"""Founding Fathers (Rick Heli): the pure rules module. Not registered here; the lead registers it."""

from .data import validate_deck
from .game import GAME
from .text import card_text

__all__ = ["GAME", "card_text", "validate_deck"]
