"""Persistence: SQLModel tables, engine, transactions and row locks."""

from .db import configure, database_url, get_engine, init_db, is_sqlite, lock_game, make_engine, transaction
from .models import (
    Director,
    Game,
    InboxMessage,
    InstalledContent,
    ModeratorAction,
    OutboxMessage,
    Person,
    Press,
    RecordEntry,
    SealedOrder,
    Seat,
    StandingOrder,
)

__all__ = [
    "Director", "Game", "InboxMessage", "InstalledContent", "ModeratorAction", "OutboxMessage", "Person", "Press", "RecordEntry",
    "SealedOrder", "Seat", "StandingOrder", "configure", "database_url", "get_engine", "init_db", "is_sqlite",
    "lock_game", "make_engine", "transaction",
]
