"""Persistence: SQLModel tables, engine, transactions and row locks."""

from .accounts import ClientAction, LobbyGame, PlayerAccount, SignInLink, TournamentEntry, TournamentSignup
from .db import (
    configure,
    database_url,
    get_engine,
    init_db,
    is_sqlite,
    lock_game,
    make_engine,
    reset_after_fork,
    sqlite_file,
    transaction,
)
from .models import (
    Director,
    Game,
    InboxMessage,
    InstalledContent,
    ModeratorAction,
    OutboxMessage,
    Person,
    PlayerRating,
    Press,
    RecordEntry,
    SealedOrder,
    Seat,
    SeatNote,
    StandingOrder,
)
from .retry import is_transient, run_in_transaction
from .rowwrite import delete_row, insert_row, update_row

__all__ = [
    "ClientAction", "LobbyGame", "PlayerAccount", "SignInLink", "TournamentEntry", "TournamentSignup",
    "Director", "Game", "InboxMessage", "InstalledContent", "ModeratorAction", "OutboxMessage", "Person",
    "PlayerRating", "Press", "RecordEntry", "SealedOrder", "Seat", "SeatNote", "StandingOrder",
    "configure", "database_url", "get_engine", "init_db", "is_sqlite", "sqlite_file",
    "is_transient", "lock_game", "make_engine", "reset_after_fork", "run_in_transaction", "transaction",
    "delete_row", "insert_row", "update_row",
]
