"""Doge (Leo Colovini, 2000): a pure rules module for the adjudicator."""

from .game import GAME, Doge

__all__ = ["GAME", "Doge"]
