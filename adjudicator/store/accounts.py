"""Tables of players' homes, the lobby and tournament sign-up (docs/tournaments.md, "Players").
Kept apart from models.py: none of them is needed to play a game."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


def _now() -> datetime:
    return datetime.now(UTC)


class SignInLink(SQLModel, table=True):
    """One sign-in link mailed to an address. The link carries only `nonce`, signed (itsdangerous);
    this row makes it single use and bounds how many links an address and the server send."""

    __tablename__ = "sign_in_links"

    id: int | None = Field(default=None, primary_key=True)
    nonce: str = Field(max_length=64, unique=True)
    email: str = Field(max_length=320, index=True)  # normalised (lower case, no spaces)
    created_at: datetime = Field(default_factory=_now, index=True)
    used_at: datetime | None = None


class PlayerAccount(SQLModel, table=True):
    """A verified address: its owner opened a sign-in link, pressed a confirmation link's button or
    mailed us from it with a seat's token (service/common/verified.py). Mail carrying others' words goes
    only to verified addresses; signed in, it may take lobby seats and sign up for tournaments."""

    __tablename__ = "player_accounts"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=320, unique=True)
    name: str = Field(default="", max_length=100)
    timezone: str = Field(default="", max_length=64)  # "" = UTC
    # sha256 of the secret in the address of the home's calendar feed (derived from the address
    # under the server key, so the home can show it again; calendars send no cookies)
    calendar_hash: str = Field(default="", max_length=64, index=True)
    verified_at: datetime = Field(default_factory=_now)
    # the generation of the address's signed-in sessions: each session cookie names the one it was
    # given under, and signing out moves it on, so every copy of an older cookie stops working
    session_generation: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class LobbyGame(SQLModel, table=True):
    """A game created "open": its free seats are listed in the public lobby."""

    __tablename__ = "lobby_games"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", unique=True)
    created_at: datetime = Field(default_factory=_now)
    # seats still free at this time are filled by the substitute and the game starts (None: never)
    fill_at: datetime | None = None


class TournamentSignup(SQLModel, table=True):
    """Whether a director's tournament takes sign-ups (a row exists once the director opened it)."""

    __tablename__ = "tournament_signups"

    id: int | None = Field(default=None, primary_key=True)
    director_id: int = Field(foreign_key="directors.id", unique=True)
    open: bool = True


class TournamentEntry(SQLModel, table=True):
    """A verified address signed up for a tournament; `game_id`/`seat` once the server seated it."""

    __tablename__ = "tournament_entries"
    __table_args__ = (UniqueConstraint("director_id", "email"),)

    id: int | None = Field(default=None, primary_key=True)
    director_id: int = Field(foreign_key="directors.id", index=True)
    email: str = Field(max_length=320)
    name: str = Field(default="", max_length=100)
    game_id: int | None = Field(default=None, foreign_key="games.id")
    seat: str = Field(default="", max_length=64)
    created_at: datetime = Field(default_factory=_now)


class ClientAction(SQLModel, table=True):
    """A game created or a seat taken from a client network (service/common/clientbounds.py): what the
    bounds per network count. `network` is a keyed hash of the network, never the address."""

    __tablename__ = "client_actions"

    id: int | None = Field(default=None, primary_key=True)
    network: str = Field(max_length=16, index=True)
    action: str = Field(max_length=16)  # "create" / "join"
    at: datetime = Field(default_factory=_now, index=True)
