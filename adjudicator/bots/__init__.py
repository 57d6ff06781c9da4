"""Substitute players: a bot that plays any title through the engine's protocol.

Imports only the engine and the standard library (tests/engine/test_import_boundaries.py)."""

from .search import BotConfig, choose, decision_seed, determinize

__all__ = ["BotConfig", "choose", "decision_seed", "determinize"]
