"""1960: The Making of the President (GMT 2017 edition): a pure rules module for the adjudicator."""

from .game import GAME, NineteenSixty
from .text import card_text

__all__ = ["GAME", "NineteenSixty", "card_text"]
