"""All persistent tables (SQLModel). JSON columns use SQLAlchemy's generic JSON type, which maps to
`json` on PostgreSQL and TEXT on SQLite. Datetimes are time-zone aware UTC (SQLModel's datetime
type refuses naive values and returns UTC on both databases).

Mutable JSON values are not change-tracked: always assign a new value (``row.state = new``).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, Column, Index, LargeBinary, Text, UniqueConstraint, text
from sqlmodel import Field, SQLModel

GAME_STATUSES = ("pending", "running", "paused", "finished")


def _now() -> datetime:
    return datetime.now(UTC)


def json_column(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(JSON, nullable=nullable))


class Director(SQLModel, table=True):
    """A tournament director (or club organiser): one secret link moderates all their games."""

    __tablename__ = "directors"

    id: int | None = Field(default=None, primary_key=True)
    public_id: str = Field(index=True, unique=True, max_length=32)
    name: str = Field(max_length=120)
    token_hash: str
    created_at: datetime = Field(default_factory=_now)
    # the scoring system of the standings per game type ("score", "wdl" or "rank"; absent: "wdl")
    scoring: dict[str, str] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # whether games with a seat the substitute played count in the standings (issue 28)
    count_substitute_games: bool = True


class PlayerRating(SQLModel, table=True):
    """A player's OpenSkill rating in one game type, over every finished game of the server. A cache:
    `pbem ratings --recompute` rebuilds it from the finished games alone."""

    __tablename__ = "player_ratings"
    __table_args__ = (UniqueConstraint("game_type", "player"),)

    id: int | None = Field(default=None, primary_key=True)
    game_type: str = Field(max_length=64)
    player: str = Field(max_length=32, index=True)  # the public player slug (never the address)
    name: str = ""
    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0
    updated_at: datetime = Field(default_factory=_now)


# The beat's due-games listing (service/play/deadlines.py) reads only running games whose deadline or
# reminder has come: partial indexes on those rows alone, covering on PostgreSQL (INCLUDE public_id),
# so the listing is an index-only range scan however many games run (tests/store/test_due_index.py).
RUNNING = "status = 'running'"
UNREMINDED = {"postgresql": "status = 'running' AND reminded = false", "sqlite": "status = 'running' AND reminded = 0"}


class Game(SQLModel, table=True):
    __tablename__ = "games"
    __table_args__ = (
        Index("ix_games_running_due", "due_at", postgresql_include=["public_id"],
              postgresql_where=text(RUNNING), sqlite_where=text(RUNNING)),
        Index("ix_games_running_reminder", "reminder_at", postgresql_include=["public_id"],
              postgresql_where=text(UNREMINDED["postgresql"]), sqlite_where=text(UNREMINDED["sqlite"])),
    )

    id: int | None = Field(default=None, primary_key=True)
    public_id: str = Field(index=True, unique=True, max_length=32)
    game_type: str = Field(max_length=64)
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    title: str = ""
    status: str = Field(default="pending", index=True, max_length=16)
    seat_count: int = 0
    state: dict[str, Any] | None = json_column(nullable=True)  # cache; rebuildable from the record
    state_hash: str = ""
    record_length: int = 0
    seed_commitment: str = ""
    server_seed: str = ""  # secret until the game is finished
    admin_token_hash: str = ""
    # deadline policy
    step_seconds: int = 72 * 3600
    reminder_seconds: int = 24 * 3600
    timezone: str = "UTC"
    grace_minutes: int = 0
    due_at: datetime | None = Field(default=None, index=True)
    reminder_at: datetime | None = None
    reminded: bool = False
    paused_remaining: int | None = None  # seconds left on the clock when paused
    publish_press: bool = False  # private press goes into the public archive when the game ends
    # longest absence (ABSENT) a seat may declare; a deadline that falls in it while the seat is
    # waiting moves to the absence's end. 0: absences are not granted in this game
    max_absence_days: int = 14
    # days of absence each seat may declare in all over the game (renewals count; days of a
    # replaced or cancelled absence not yet begun are given back). The moderator may change it
    absence_budget_days: int = 28
    # pace (docs/games/*.md, "Waits"): decisions that follow from a seat's own order continue its
    # wait, whose deadline is extended to at least `follow_up_seconds` from that order (0: never
    # extended); after `disorder_after` consecutive missed deadlines a seat is in civil disorder
    # (0: never)
    follow_up_seconds: int = 36 * 3600
    disorder_after: int = 2
    # a seat in civil disorder is played by the substitute (adjudicator/bots) instead of taking its
    # documented default; on by default, off for a tournament's games unless its director says so
    substitutes: bool = True
    # the substitute owes a move here since then (service/play/substitutes.py): the worker's task thinks
    # it; the recovery sweep hands the game on again if that task was lost. None: nothing owed
    substitute_at: datetime | None = Field(default=None, index=True)
    # the seats the current wait is on (a seat that joins this list starts a new wait)
    waiting_on: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    # the tournament director who moderates this game with one link for all their games
    director_id: int | None = Field(default=None, foreign_key="directors.id", index=True)
    # the language of the game's pages and of mails to seats that chose none (adjudicator.i18n)
    language: str = Field(default="en", max_length=16)
    # a player's undo (service/history/undoable.py): the seat whose own steps end the record, and the first of
    # them; "" / None once anything else is recorded (another seat, a draw, a reveal, a note)
    undo_seat: str = Field(default="", max_length=64)
    undo_from: int | None = None
    created_at: datetime = Field(default_factory=_now)
    updated_at: datetime = Field(default_factory=_now)


class Seat(SQLModel, table=True):
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: str = Field(max_length=64)
    position: int = 0
    display_name: str = ""
    email: str = ""
    person_id: int | None = Field(default=None, foreign_key="people.id")
    seat_token_hash: str | None = None
    invite_token_hash: str | None = None
    entropy: str = ""
    joined_at: datetime | None = None
    generation: int = 0  # bumped when a moderator replaces the player
    # per-player delivery settings: "each" step, a daily "digest", or "off" (chat webhook only)
    mail_mode: str = Field(default="each", max_length=16)
    chat_webhook: str = Field(default="", max_length=500)
    timezone: str = Field(default="", max_length=64)  # "" = the game's time zone
    language: str = Field(default="", max_length=16)  # "" = the game's language
    absent_from: datetime | None = None
    absent_until: datetime | None = None
    absence_days_used: int = 0  # days of the game's absence budget this seat's absences took
    resigned: bool = False
    # pace: consecutive deadlines this seat missed, civil disorder (its decisions default at once
    # until it speaks again), waits started on it, and the record length its last mail covered
    missed: int = 0
    disorder: bool = False
    # held by the substitute from the start (a practice game, a lobby seat filled at its deadline):
    # no player, no rating; a replacement who joins with an invitation takes it over
    held_by_substitute: bool = False
    waits: int = 0
    mailed_seq: int = 0
    press_read_id: int = 0  # the newest press the seat has seen on its pages (what is newer is "new")
    wait_started_at: datetime | None = None  # the current wait on this seat began
    acted_at: datetime | None = None  # this seat's last own order (a reminder is for one who has not)


class StandingOrder(SQLModel, table=True):
    """An order line a seat left for a decision that is not open yet (LATER), or a rule that stays
    until cancelled (ALWAYS). The seat's secret until applied."""

    __tablename__ = "standing_orders"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: str = Field(max_length=64)
    text: str = Field(max_length=500)
    kind: str = Field(default="", max_length=64)  # only for decisions of this kind ("" = any)
    always: bool = False  # stays after use
    created_at: datetime = Field(default_factory=_now)
    # why the line can never be used again ("" = queued): kept only to tell the seat in its next mail
    dropped: str = Field(default="", max_length=500)


class SeatNote(SQLModel, table=True):
    """A seat's private notes (service/people/notes.py): read and written only with the seat's link."""

    __tablename__ = "seat_notes"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seat: str = Field(max_length=64)
    generation: int = 0  # the seat's player who wrote them (Seat.generation)
    text: str = Field(default="", sa_column=Column(Text, nullable=False))
    updated_at: datetime = Field(default_factory=_now)


class Person(SQLModel, table=True):
    __tablename__ = "people"

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(index=True, unique=True, max_length=320)
    name: str = ""


class RecordEntry(SQLModel, table=True):
    __tablename__ = "record_entries"
    __table_args__ = (UniqueConstraint("game_id", "seq"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    seq: int  # the entry's "index" in the record
    kind: str = Field(max_length=16)
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    prev: str
    state_hash: str
    hash: str
    # the structured events this entry produced (a cache for the log; not part of the hash)
    events: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    created_at: datetime = Field(default_factory=_now)

    def to_entry(self) -> dict[str, Any]:
        return {
            "index": self.seq,
            "kind": self.kind,
            "data": self.data,
            "prev": self.prev,
            "state_hash": self.state_hash,
            "hash": self.hash,
        }


class SealedOrder(SQLModel, table=True):
    __tablename__ = "sealed_orders"
    __table_args__ = (UniqueConstraint("game_id", "group", "seat"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    group: str = Field(max_length=128)
    seat: str = Field(max_length=64)
    order: Any = Field(default=None, sa_column=Column(JSON, nullable=True))
    salt: str
    commitment: str
    submitted_at: datetime = Field(default_factory=_now)
    # "" the seat's own order; "standing" from its standing orders; "default" civil disorder;
    # "substitute" the substitute's choice for a seat in civil disorder
    origin: str = Field(default="", max_length=16)


class InboxMessage(SQLModel, table=True):
    __tablename__ = "inbox"

    id: int | None = Field(default=None, primary_key=True)
    message_id: str = Field(index=True, unique=True, max_length=998)
    # the message exactly as received (bytes: mail may carry any charset, even NUL bytes)
    raw: bytes = Field(default=b"", sa_column=Column(LargeBinary, nullable=False))
    received_at: datetime = Field(default_factory=_now)
    # new -> done (answered) | dropped (logged, no reply) | failed (the recovery sweep gave up:
    # never processed after its attempts; the moderator and `pbem mail failed` show it)
    status: str = Field(default="new", index=True, max_length=16)
    source: str = Field(default="", max_length=16)  # smtp / imap / webhook
    envelope_from: str = Field(default="", max_length=998)
    envelope_to: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    peer: str = Field(default="", max_length=64)
    from_addr: str = Field(default="", max_length=998)
    subject: str = Field(default="", max_length=998)
    game_id: int | None = Field(default=None, foreign_key="games.id", index=True)
    seat: str = Field(default="", max_length=64)
    # how the sender was identified (token / password / none) and the DKIM/SPF signals
    auth: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    outcome: str = Field(default="", sa_column=Column(Text, nullable=False))  # one line for the log
    processed_at: datetime | None = None
    # recovery (adjudicator/service/upkeep/recovery.py): how often the sweep re-enqueued a row still
    # `new`, when it may next, and why the last processing attempt failed
    attempts: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    next_attempt_at: datetime | None = None
    last_error: str = Field(default="", sa_column=Column(Text, nullable=False, server_default=""))


class Press(SQLModel, table=True):
    """A message between seats; `recipients` lists the seats (every other seat for a broadcast)."""

    __tablename__ = "press"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    sender: str = Field(max_length=64)
    recipients: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    broadcast: bool = False
    body: str = Field(default="", sa_column=Column(Text, nullable=False))
    # the body's sanitised HTML, rendered once when it was sent (adjudicator/render/usertext.py);
    # None on rows older than the column: rendered when read
    html: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    via: str = Field(default="web", max_length=16)  # web / mail
    created_at: datetime = Field(default_factory=_now)


class OutboxMessage(SQLModel, table=True):
    __tablename__ = "outbox"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int | None = Field(default=None, foreign_key="games.id", index=True)
    to: str = Field(max_length=500, index=True)  # the hourly and daily bounds per address count by it
    subject: str = ""
    body: str = Field(default="", sa_column=Column(Text, nullable=False))  # Markdown
    # the mail's HTML part when it carries words a person wrote (press, a broadcast), built when
    # queued with their stored HTML; None: the sender renders `body`
    html: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    headers: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    # pending / sending (claimed by one worker until lease_until) / sent / failed / bounced (a
    # delivery report came back), or held (waiting for the seat's daily digest) / digested
    status: str = Field(default="pending", index=True, max_length=16)
    channel: str = Field(default="mail", max_length=16)  # mail / webhook (chat JSON POST to `to`)
    kind: str = Field(default="", max_length=16)  # turn / reply / press / reminder / digest / ...
    seat: str = Field(default="", max_length=64)
    attempts: int = 0  # delivery attempts (sending tried)
    last_error: str = ""
    created_at: datetime = Field(default_factory=_now)
    sent_at: datetime | None = None
    # recovery: when a pending row is next due (None: created_at plus the sweep's grace), the
    # claim of the worker sending it, and how often the sweep re-enqueued it
    next_attempt_at: datetime | None = None
    lease_until: datetime | None = None
    requeues: int = Field(default=0, sa_column_kwargs={"server_default": "0"})


class ModeratorAction(SQLModel, table=True):
    __tablename__ = "moderator_actions"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    action: str = Field(max_length=64)
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    at: datetime = Field(default_factory=_now)


class InstalledContent(SQLModel, table=True):
    """A board or deck a server installed (`pbem boards install`, `pbem decks install`). Rows are
    never changed or deleted: running games refer to a version by its pin; the newest row of a
    name is what new games choosing that name get."""

    __tablename__ = "installed_content"

    id: int | None = Field(default=None, primary_key=True)
    game_type: str = Field(max_length=64)
    kind: str = Field(max_length=32)
    name: str = Field(max_length=40)
    pin: str = Field(max_length=64, unique=True)
    data: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    source: str = ""  # the file names it was installed from, for the admin's own records
    installed_at: datetime = Field(default_factory=_now)
