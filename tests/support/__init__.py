"""Shared test helpers (the toy game, database fixtures' helpers)."""
