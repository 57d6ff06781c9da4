"""Values the service returns. Plain dataclasses: adapters render them, never the ORM rows."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from adjudicator.i18n import _


class RowRef(Protocol):
    """An outbox row written with the transaction's batch (notify.OutboxRef, outboxrows'
    PendingRow): its id once written, which `workers.enqueue` takes after the flush."""

    @property
    def id(self) -> int | None: ...


# Work for a worker, enqueued after the commit: a tuple whose first item names the task
# (workers/enqueue.py maps each kind to its Celery task, the rest are its arguments, as sent).
TaskKind = Literal["reveal", "deliver", "deliver_batch", "ingest", "drain", "sweep", "sweeps", "substitute"]
Task = (
    tuple[Literal["reveal"], str, str]  # game id, sealed group
    | tuple[Literal["deliver"], int | RowRef]  # one outbox row
    | tuple[Literal["deliver_batch"], list[int]]  # outbox row ids
    | tuple[Literal["ingest"], int]  # inbox row id
    | tuple[Literal["drain"]]  # every stored mail not yet processed
    | tuple[Literal["sweep"], str]  # one game's deadline
    | tuple[Literal["sweeps"], list[str]]  # game ids due
    | tuple[Literal["substitute"], str, int]  # game id, record length: the substitute's move (substitutes.py)
)


def written_id(row_id: int | None) -> int:
    """A stored row's id (the ORM types it `int | None`, None only before the row's flush)."""
    if row_id is None:
        raise ValueError("a row that was never written has no id to hand to a worker")
    return row_id


@dataclass(frozen=True)
class DeadlinePolicy:
    step_hours: float = 72
    reminder_hours: float = 24
    timezone: str = "UTC"
    grace_minutes: int = 0
    max_absence_days: int = 14  # longest ABSENT a seat may declare (0: none granted)
    step_seconds: int | None = None  # overrides step_hours (tests use seconds)
    reminder_seconds: int | None = None  # overrides reminder_hours
    # a seat's follow-up decisions continue its wait, whose deadline is extended to at least this
    # long after its order (0: never extended: a follow-up past the deadline defaults at once)
    follow_up_hours: float = 36
    follow_up_seconds: int | None = None  # overrides follow_up_hours
    disorder_after: int = 2  # consecutive missed deadlines before civil disorder (0: never)
    # a seat in civil disorder is played by the substitute (adjudicator/bots) instead of taking
    # its default; None: on, except in a director's (tournament) game, whose director decides
    substitutes: bool | None = None

    @property
    def step(self) -> int:
        return int(self.step_seconds if self.step_seconds is not None else self.step_hours * 3600)

    @property
    def follow_up(self) -> int:
        if self.follow_up_seconds is not None:
            return int(self.follow_up_seconds)
        return int(self.follow_up_hours * 3600)

    @property
    def reminder(self) -> int:
        if self.reminder_seconds is not None:
            return int(self.reminder_seconds)
        return int(self.reminder_hours * 3600)


@dataclass
class CreatedGame:
    game_id: str
    admin_token: str
    invites: dict[str, str]


@dataclass
class JoinedSeat:
    game_id: str
    seat: str
    seat_token: str
    started: bool  # this join filled the last seat and started the game
    tasks: list[Task] = field(default_factory=list)


@dataclass
class Receipt:
    commitment: str
    order_text: str
    seat: str = ""
    group: str = ""
    submitted_at: datetime | None = None
    revealed: bool = False  # this order completed its group: revealed at once, no longer replaceable


@dataclass
class Submission:
    applied: list[str] = field(default_factory=list)
    receipts: list[Receipt] = field(default_factory=list)
    error: str | None = None
    choices: list[str] = field(default_factory=list)
    tasks: list[Task] = field(default_factory=list)
    prompt_token: str | None = None  # the token of the seat's prompt after this submission
    notes: list[str] = field(default_factory=list)  # answers to standing-order lines (LATER, STANDING...)
    suggestions: list[str] = field(default_factory=list)  # "did you mean": the closest legal orders to the bad line
    skipped: list[str] = field(default_factory=list)  # mail chatter (greetings...) not read (suggest.is_chatter)
    stale: str = ""  # the lines answered a closed decision (decisions.py): why they were not applied
    not_applied: list[str] = field(default_factory=list)  # those lines


@dataclass
class Preview:
    """What a plan would do (orders.preview_plan): (line, what is left after it) per row."""

    before: str = ""  # what the seat has to spend now ("4 CP left"; "" when the decision counts nothing)
    rows: list[tuple[str, str]] = field(default_factory=list)
    error: str | None = None  # the refusal that would stop the plan (then no row is listed)


@dataclass
class LogLine:
    index: int  # record entry index
    kind: str  # event kind
    markdown: str
    at: datetime | None = None  # when its record entry was written
    heading: str = ""  # "Year 2", "Turn 5": a new year or turn of the game starts with this line


@dataclass
class SeatInfo:
    seat: str
    display_name: str
    joined: bool
    disorder: bool = False  # in civil disorder: its decisions take the default at once
    missed: int = 0  # consecutive missed deadlines


@dataclass
class StandingLine:
    """One of a seat's standing orders, as the seat (and only the seat) sees it."""

    id: int
    text: str  # the order line
    kind: str  # only for decisions of this kind ("" = any)
    always: bool  # stays after use (ALWAYS) instead of being used up once (LATER)

    @property
    def written(self) -> str:
        """The line as the seat would write it again (web list, STANDING reply), with the command
        word of the current language (SIEMPRE/DESPUES in Spanish: every language's words are read)."""
        head = _("ALWAYS") if self.always else _("LATER")
        return f"{head} {self.kind + ': ' if self.kind else ''}{self.text}"


@dataclass
class SeatPage:
    game_id: str
    game: str
    title: str
    seat: str
    status: str
    view: dict[str, Any]
    markdown: str
    prompt: dict[str, Any] | None  # Prompt.to_json()
    choices: list[str]  # the prompt's choices, formatted in the game's grammar
    prompt_token: str | None
    receipt: Receipt | None  # this seat's pending sealed order, if any
    deadline: datetime | None
    deadline_text: str
    log: list[LogLine]
    over: bool
    outcome: dict[str, Any] | None
    grammar_help: str = ""
    seats: list[SeatInfo] = field(default_factory=list)
    absence: str = ""  # "2030-01-01 to 2030-01-05 (UTC)" while the seat has an absence that has not ended
    delivery_problem: str = ""  # our last mail to this seat failed or bounced (only ever on its own page)
    standing: list[StandingLine] = field(default_factory=list)  # the seat's own standing orders
    disorder: bool = False  # the seat is in civil disorder
    paused: bool = False  # the game is paused: `prompt` is the pending decision, not open now
    log_earlier: bool = False  # `log` holds the newest record entries only; the rest is on the log pages
    budget: str = ""  # what the seat has left to spend in its decision ("3 CP left"; GameModule.budget)
    undo_steps: list[str] = field(default_factory=list)  # own steps it may take back, newest first (undo.py)
    undo_refusal: str = ""  # why its newest step, its own, cannot be taken back ("" otherwise)
    waiting: list[str] = field(default_factory=list)  # the seats the game waits on (the public page's list)
    timezone: str = "UTC"  # the seat's own zone, else the game's: every time on its pages
    version: str = ""  # changes when the page would (service/history/live.py): the page polls it
    thinking: list[str] = field(default_factory=list)  # seats whose move the substitute is thinking out


@dataclass
class LogEntry:
    """The log lines one record entry produced, and when it was recorded (feeds, history)."""

    index: int
    at: datetime
    lines: list[LogLine]


@dataclass
class LogPage:
    """One page of a game's log as one audience sees it: record entries [start, end) of `total`."""

    game_id: str
    game: str
    title: str
    status: str
    log: list[LogLine]
    start: int
    end: int
    total: int
    per_page: int
    timezone: str = "UTC"  # the reader's zone (a seat's own, else the game's)


@dataclass
class GameFeed:
    game_id: str
    game: str
    title: str
    status: str
    entries: list[LogEntry]  # newest first


@dataclass
class PublicPage:
    game_id: str
    game: str
    title: str
    status: str
    view: dict[str, Any]
    markdown: str
    waiting: list[str]
    sealed_group: str | None
    commitments: dict[str, str]  # seat -> receipt hash of the open sealed group
    log: list[LogLine]
    outcome: dict[str, Any] | None
    seed_commitment: str
    server_seed: str | None  # published once the game is finished
    deadline: datetime | None
    deadline_text: str
    seats: list[SeatInfo]
    record_length: int
    options: dict[str, Any] = field(default_factory=dict)  # as resolved (content options as pins)
    log_earlier: bool = False  # `log` holds the newest record entries only; the rest is on the log pages
    tournament: tuple[str, str] | None = None  # (director id, name) of the tournament the game is in
    timezone: str = "UTC"  # the game's zone
    version: str = ""  # changes when the page would (service/history/live.py): the page polls it
    thinking: list[str] = field(default_factory=list)  # seats whose move the substitute is thinking out


@dataclass
class GameSummary:
    game_id: str
    game: str
    title: str
    status: str
    seats: int
    joined: int
    deadline: datetime | None
    created_at: datetime
