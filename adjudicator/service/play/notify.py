"""Outbox rows, written in the caller's transaction; a ("deliver", id) task sends each later.

`to_seat` is the one way a seat is written to: it honours the seat's settings (every step, a
daily digest, or no mail) and adds a chat-webhook row when the seat has one. Mail always goes to
the seat's registered address, and only once that address is verified (verified.py): until then
the mail is held and the address gets the fixed confirmation request instead.

The mails of a step (a game's start, a new wait, its end, a reminder) are composed by `seat_mails`
in one pass over the locked table: what they share is worked out once for every seat (reply
addresses and headers, the record entries since the earliest last mail, what a rollback undid,
the outcome), then each seat's mail is written in its language.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, overload

from sqlmodel import Session

from adjudicator.engine import GameModule, Outcome, Prompt
from adjudicator.i18n import _, help_text, language, normal, prompt_text, translate
from adjudicator.mail import addresses, compose
from adjudicator.store import Game, OutboxMessage, RecordEntry, Seat, StandingOrder, gamelock

from ..common import snapshot, verified
from ..common.clock import format_deadline, utcnow
from ..common.core import current_prompts, seats_of
from ..common.snapshot import Table
from ..common.tokens import mail_token, press_reply_token, signon_password, tagged_token
from ..common.types import LogEntry, Task, written_id
from ..history.gamelog import log_entries, render_entries, undone_seqs
from ..history.outcomes import outcome_of
from . import outboxrows, wholeturn
from .standingdrop import dropped_lines, dropped_rows

# every seat's mail of a deadline shows the same deadline, mostly in the same time zone
_deadline_text = lru_cache(maxsize=256)(format_deadline)


def public_url(g: Game) -> str:
    return _site_url(f"/game/{g.public_id}")


def rules_url(game_type: str = "") -> str:
    """The rules page of a kind of game (web/rules.py), or the list of every game's rules."""
    return _site_url(f"/rules/{game_type}" if game_type else "/rules")


def _site_url(path: str) -> str:
    return os.environ.get("PBEM_BASE_URL", "").rstrip("/") + path


def queue_mail(s: Session, g: Game | None, to: str, subject: str, body: str, *, kind: str = "",
               seat: str = "", channel: str = "mail", status: str = "pending", html: str | None = None,
               **headers: Any) -> Task | None:
    """`html`: the mail's HTML part, built from stored HTML (mails carrying a person's words);
    without it the sender renders `body`."""
    values: dict[str, Any] = {"game_id": g.id if g else None, "to": to, "subject": subject, "body": body,
                              "headers": headers, "status": status, "channel": channel, "kind": kind, "seat": seat,
                              "html": html}
    pending = outboxrows.queued(s, values)
    if pending is not None:  # a deadline: its rows go out in one prebuilt insert (outboxrows.py)
        return ("deliver", pending) if status == "pending" else None
    row = OutboxMessage(**values)
    s.add(row)
    if snapshot.active(s, g):
        # a deadline: not flushed here, so that its rows go out in one multi-row insert with the
        # rest of its writes; the task names the row, and enqueue takes its id once it is written
        return ("deliver", OutboxRef(row)) if status == "pending" else None
    s.flush()  # the id is the task's argument
    return ("deliver", written_id(row.id)) if status == "pending" else None


class OutboxRef:
    """An outbox row not written yet, in a ("deliver", ref) task: its `id` once it is."""

    __slots__ = ("row",)

    def __init__(self, row: OutboxMessage) -> None:
        self.row = row

    @property
    def id(self) -> int | None:
        return self.row.id

    def __repr__(self) -> str:
        return f"OutboxRef({self.row.id})"


def reply_address(g: Game, seat: Seat) -> str:
    """The seat's reply address, tagged with the decision open now (the record's length): orders
    sent to it answer that decision and no later one (decisions.py)."""
    if not seat.seat_token_hash:
        return ""
    token = mail_token(seat.seat_token_hash, g.public_id, seat.seat)
    asked_at = g.record_length if g.state is not None else None
    return addresses.reply_address(g.public_id, seat.seat, tagged_token(token, asked_at))


def press_reply_address(g: Game, seat: Seat, sender: str) -> str:
    """Where `seat` answers `sender`'s press: its own seat address with a distinct token."""
    if not seat.seat_token_hash:
        return ""
    token = press_reply_token(seat.seat_token_hash, g.public_id, seat.seat, sender)
    return addresses.reply_address(g.public_id, seat.seat, token)


def to_seat(s: Session, g: Game, seat: Seat, subject: str, body: str, kind: str, *,
            in_reply_to: str = "", auto: str = "auto-generated", force_mail: bool = False,
            reply_to: str = "", html: str | None = None, headers: dict[str, str] | None = None,
            among: list[str] | None = None) -> list[Task]:
    """`force_mail`: answers to a player's own mail are sent at once, whatever the digest setting.
    `reply_to` replaces the seat's reply address (press mails: the press-reply address); `html`:
    the mail's HTML part (see `queue_mail`). `headers` and `among` (the game's addresses): what
    `seat_mails` worked out for every seat at once."""
    tasks: list[Task | None] = []
    hdrs = headers or compose.headers(g.public_id, seat.seat, reply_to or reply_address(g, seat), in_reply_to, auto)
    if seat.email and (seat.mail_mode != "off" or force_mail):
        status = "held" if seat.mail_mode == "digest" and not force_mail else "pending"
        tasks += seat_mail(s, g, seat, subject, body, kind, status, html=html, among=among, **hdrs)
    if seat.chat_webhook and not force_mail:
        tasks.append(queue_mail(s, g, seat.chat_webhook, subject, body, kind=kind, seat=seat.seat,
                                channel="webhook"))
    return [t for t in tasks if t is not None]


def seat_mail(s: Session, g: Game, seat: Seat, subject: str, body: str, kind: str, status: str = "pending",
              among: list[str] | None = None, **hdrs: Any) -> list[Task]:
    """A mail to the seat's registered address, which carries others' words (a title, names, press):
    held until the address is verified, and the confirmation request sent in its place. `among`:
    the game's addresses (asked about together), if the caller has them."""
    if among is None:
        among = [r.email for r in seats_of(s, g)]
    if verified.is_verified(s, seat.email, among=among):
        task = queue_mail(s, g, seat.email, subject, body, kind=kind, seat=seat.seat, status=status, **hdrs)
        return [task] if task else []
    queue_mail(s, g, seat.email, subject, body, kind=kind, seat=seat.seat, status=verified.HELD, **hdrs)
    return confirmation_request(s, g, seat)


def confirmation_request(s: Session, g: Game, seat: Seat) -> list[Task]:
    """The fixed request to confirm the seat's address, at most CONFIRM_REQUESTS_PER_DAY a day;
    replying to it from the address confirms it too (its Reply-To is the seat's reply address)."""
    address = seat.email.strip().lower()
    if not address or not verified.requests_left(s, address, utcnow()):
        return []
    with language(seat_language(g, seat)):
        subject, body = verified.request_text(g.public_id, seat.seat, address)
    task = queue_mail(s, g, address, subject, body, kind=verified.CONFIRM_KIND, seat=seat.seat,
                      **compose.headers(g.public_id, seat.seat, reply_address(g, seat)))
    return [task] if task else []


def seat_language(g: Game, seat: Seat) -> str:
    """The seat's own language, else the game's: every mail to the seat is composed in it."""
    return normal(seat.language or g.language)


def seat_timezone(g: Game, seat: Seat) -> str:
    return seat.timezone or g.timezone


class FormattedChoices(Sequence[str]):
    """A prompt's choices as order lines, each formatted when read: a mail shows the first
    compose.MAX_CHOICES of what may be hundreds (a deadline burst formatted them all, 4,000 times)."""

    def __init__(self, game: GameModule, choices: Sequence[Any]) -> None:
        self._game, self._choices = game, choices

    def __len__(self) -> int:
        return len(self._choices)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self._game.format_order(c) for c in self._choices[index]]
        return self._game.format_order(self._choices[index])


def turn_lines(g: Game, game: GameModule, seat: Seat, prompt: Prompt, full: bool = False,
               reply: str | None = None, opened: dict[str, Prompt] | None = None) -> list[str]:
    """The seat's board, its decision and everything needed to answer it by mail. `full` (STATUS):
    every legal order; else (the game's first mail) the useful ones, whole turns included.
    `reply` (the seat's reply address) and `opened` (the open prompts): if the caller has them."""
    view = game.view(g.state or {}, seat.seat)
    reply = reply_address(g, seat) if reply is None else reply
    choices: Sequence[str] = (FormattedChoices(game, prompt.choices) if full
                              else useful_choices(g, game, seat, prompt, opened=opened))
    return [
        "## " + _("Your view of the board"), "", game.render_view_in(view, seat.seat, translate), "",
        *compose.turn_block(prompt_text(prompt.text, prompt.message) or prompt.kind, prompt.sealed, choices,
                            help_text(game.grammar_help()),
                            _deadline_text(g.due_at, seat_timezone(g, seat)), reply, full,
                            more=len(prompt.choices) - len(choices)),
    ]


def useful_choices(g: Game, game: GameModule, seat: Seat, prompt: Prompt, limit: int = compose.MAX_SHOWN,
                   opened: dict[str, Prompt] | None = None) -> list[str]:
    """At most `limit` legal orders for a short mail: the default first (what the deadline would
    play), then choices spread evenly over the whole list, so each form of order shows. An order
    that leads to more decisions of the seat's own is listed as its whole turn in one line
    (wholeturn.py: `play 23 cp; campaign Ohio 2; ...`), so one line answers the turn. `opened`:
    the game's open prompts, if the caller has them."""
    choices = prompt.choices
    picked: list[Any] = []
    if len(choices) <= limit:
        picked = list(choices)
    else:
        try:
            default = prompt.find(game.default_order(g.state or {}, seat.seat))
        except Exception:  # a game whose default is not one of the choices here: the spread alone
            default = None
        picked = [default] if default is not None else []
        step = len(choices) / limit
        for i in range(limit):
            if len(picked) >= limit:
                break
            choice = choices[int(i * step)]
            if choice not in picked:
                picked.append(choice)
    lines: list[str] = []
    if opened is None:
        opened = current_prompts(g) if g.state is not None else {}
    for choice in picked:
        text = wholeturn.line(game, wholeturn.chain(game, g.state or {}, seat.seat, choice, opened))
        if text not in lines:
            lines.append(text)
    return lines


def decision_lines(g: Game, game: GameModule, seat: Seat, prompt: Prompt, reply: str | None = None,
                   opened: dict[str, Prompt] | None = None) -> list[str]:
    """The seat's decision, short: prompt, the most useful legal orders, deadline, how to answer."""
    return compose.decision_block(prompt_text(prompt.text, prompt.message) or prompt.kind, prompt.sealed,
                                  useful_choices(g, game, seat, prompt, opened=opened), len(prompt.choices),
                                  _deadline_text(g.due_at, seat_timezone(g, seat)),
                                  reply_address(g, seat) if reply is None else reply, public_url(g))


def start_lines(g: Game, seat: Seat, reply: str, password: str) -> list[str]:
    return [
        "## " + _("Playing by mail"), "",
        _("Reply to this mail (address %(address)s) with one order per line. If your mail client changes "
          "the address, put `SIGNON %(game)s %(seat)s %(password)s` on the first line. Keep both secret: "
          "they act for your seat. Send HELP for the commands.",
          address=reply, game=g.public_id, seat=seat.seat, password=password), "",
        _("Fairness: the server's seed is committed as `%(commitment)s` (sha256); it is published when the "
          "game ends so that anyone can re-run every shuffle and draw.", commitment=g.seed_commitment), "",
    ]


def end_lines(g: Game, outcome: Outcome | None) -> list[str]:
    return [
        "## " + _("Game over"), "", prompt_text(outcome.summary, outcome.message) if outcome else "", "",
        _("The server seed is now public: `%(seed)s` (its sha256 is the commitment `%(commitment)s` "
          "published at the start).", seed=g.server_seed, commitment=g.seed_commitment), "",
        _("To verify the whole game yourself: download the record from %(url)s/export.json and run "
          "`pbem verify export.json`; it replays every order from the seed and checks every hash.",
          url=public_url(g)), "",
    ]


MAX_SUMMARY_LINES = 60  # a long absence's news is cut to the newest lines (the game page has all)
TURN_SUMMARY_LINES = 10  # a "your move" mail is short: its news is cut sooner (HISTORY has all)


def news_lines(s: Session, g: Game, game: GameModule, seat: Seat, limit: int = MAX_SUMMARY_LINES) -> list[str]:
    """Everything `seat` may see since its last mail (the record entries after `mailed_seq`), as
    Markdown bullet lines (the newest `limit`), and mark it mailed."""
    rows = snapshot.entries_since(s, g, seat.mailed_seq)  # a deadline read them once for every seat
    entries = log_entries(s, g, game, seat.seat, since=seat.mailed_seq, rows=rows)
    standing = snapshot.rows(s, g, StandingOrder)  # a drain's table has them: no query per mail
    return _news(s, g, seat, entries, limit, dropped_rows(s, g, seat.seat) if standing is None else standing)


def _news(s: Session, g: Game, seat: Seat, entries: list[LogEntry], limit: int,
          standing: list[StandingOrder]) -> list[str]:
    """`news_lines` of the seat's log `entries` (`standing`: the game's standing orders)."""
    if seat.mailed_seq != g.record_length:  # assigning an equal value still puts the seat through a flush
        seat.mailed_seq = g.record_length
        s.add(seat)
    lines = [line.markdown for entry in entries for line in entry.lines]
    lines = [line for line in lines if line.strip()]
    cut = len(lines) - limit
    if cut > 0:
        lines = ["*" + _("… %(cut)s earlier line(s): send HISTORY or see the game page", cut=cut) + "*"] + lines[cut:]
    return [f"- {line}" for line in lines] + dropped_lines(s, standing, seat.seat)


def _head(g: Game, game: GameModule, seat: Seat) -> list[str]:
    return ["# " + _("%(title)s (%(game)s), seat %(seat)s", title=g.title or game.info.title, game=g.public_id,
                     seat=seat.seat), ""]


def _block(heading: str, news: list[str], limit: int = MAX_SUMMARY_LINES) -> list[str]:
    if not news:
        return []
    # a short "your move" mail spends no line between the heading and its list
    return [f"## {heading}", *news, ""] if limit == TURN_SUMMARY_LINES else [f"## {heading}", "", *news, ""]


@dataclass
class _Step:
    """What the mails of one step share, worked out once over the table (`seat_mails`)."""
    replies: dict[str, str] = field(default_factory=dict)  # seat -> reply address
    headers: dict[str, dict[str, str]] = field(default_factory=dict)
    passwords: dict[str, str] = field(default_factory=dict)  # SIGNON passwords of the seats welcomed
    entries: list[RecordEntry] = field(default_factory=list)  # from the earliest last mail on
    undone: set[int] = field(default_factory=set)
    standing: list[StandingOrder] = field(default_factory=list)
    outcome: Outcome | None = None
    among: list[str] = field(default_factory=list)  # the game's addresses


def seat_mails(s: Session, t: Table, kind: str, rows: Sequence[Seat], started: bool = False) -> list[Task]:
    """One step's mails to `rows`, of `kind`: "start" (the game has started and waits on the seat),
    "turn" (the one "your move" mail of a wait), "end" (`started`: the game ended as it started),
    or "reminder". One pass over the locked table: first what every mail needs (tokens, reply
    addresses and headers, the log since the earliest last mail, the outcome), then each mail."""
    g = t.game
    rows = [r for r in rows if r.email or r.chat_webhook]
    if not rows:
        return []
    step = _Step(standing=snapshot.merged(s, t.game_id, StandingOrder, t.rows[StandingOrder]),
                 among=[r.email for r in t.rows[Seat]])
    welcomed = {r.seat for r in rows if kind == "start" or (kind == "end" and started)
                or (kind == "turn" and r.mailed_seq == 0)}  # (0: the game did not wait on it at the start)
    asked_at = g.record_length if g.state is not None else None  # orders to the reply address answer this
    # (a deadline's table worked the reply tokens out with the lock)
    tokens = {r.seat: t.mail_tokens.get((r.seat, r.seat_token_hash))
              or mail_token(r.seat_token_hash, g.public_id, r.seat) for r in rows if r.seat_token_hash}
    step.passwords = {r.seat: signon_password(r.seat_token_hash or "-", g.public_id, r.seat)
                      for r in rows if r.seat in welcomed}
    step.replies = {seat: addresses.reply_address(g.public_id, seat, tagged_token(token, asked_at))
                    for seat, token in tokens.items()}
    step.headers = {r.seat: compose.headers(g.public_id, r.seat, step.replies.get(r.seat, "")) for r in rows}
    if kind != "reminder":
        step.entries = _entries_since(s, t, min(r.mailed_seq for r in rows))
        if t.undone is None:
            t.undone = undone_seqs(s, g)
        step.undone = t.undone
    if kind == "end":
        step.outcome = outcome_of(s, g)
    tasks: list[Task] = []
    for row in rows:
        with language(seat_language(g, row)):
            subject, body = _mail(s, t, kind, row, row.seat in welcomed, step)
        tasks += to_seat(s, g, row, subject, "\n".join(body), kind, headers=step.headers[row.seat], among=step.among)
    return tasks


def _entries_since(s: Session, t: Table, since: int) -> list[RecordEntry]:
    """The game's record entries from `since` on: the table's, if it holds them from there."""
    if t.kept and since >= t.entries_from:
        return [e for e in t.entries if e.seq >= since]
    return gamelock.entries_since(s, t.game_id, since)


def _mail(s: Session, t: Table, kind: str, seat: Seat, welcome: bool, step: _Step) -> tuple[str, list[str]]:
    """One seat's mail of `seat_mails`: subject and body lines, in the current language."""
    g, game = t.game, t.module
    title = g.title or game.info.title
    prompt = t.prompts.get(seat.seat)
    reply = step.replies.get(seat.seat, "")
    subject = {"start": _("[%(game)s] %(title)s: the game has started", game=g.public_id, title=title),
               "turn": _("[%(game)s] %(title)s: your move (%(seat)s)", game=g.public_id, title=title, seat=seat.seat),
               "end": _("[%(game)s] %(title)s: game over", game=g.public_id, title=title),
               "reminder": _("[%(game)s] %(title)s: reminder (%(seat)s)", game=g.public_id, title=title,
                             seat=seat.seat)}[kind]
    if kind == "reminder":
        assert prompt is not None
        return subject, [
            "# " + _("Reminder: %(title)s (%(game)s), seat %(seat)s", title=title, game=g.public_id, seat=seat.seat),
            "",
            _("Your orders are due by **%(deadline)s**; after that the default order is applied for you.",
              deadline=_deadline_text(g.due_at, seat_timezone(g, seat))),
            "",
            *decision_lines(g, game, seat, prompt, reply, t.prompts),
        ]
    short = kind == "turn" and not welcome  # a later "your move" mail: the news cut sooner, the decision short
    limit = TURN_SUMMARY_LINES if short else MAX_SUMMARY_LINES
    log = render_entries([e for e in step.entries if e.seq >= seat.mailed_seq], game, seat.seat, step.undone)
    news = _news(s, g, seat, log, limit, step.standing)
    body = _head(g, game, seat) + (start_lines(g, seat, reply, step.passwords[seat.seat]) if welcome else [])
    if kind == "end":
        body += _block(_("Since your last mail"), news) + end_lines(g, step.outcome)
    elif short:
        assert prompt is not None
        return subject, body + _block(_("Since your last mail"), news, limit) + decision_lines(
            g, game, seat, prompt, reply, t.prompts)
    else:  # the game's start, or a seat's first mail: the board and the grammar once per game
        body += _block(_("What happened"), news)
        if prompt is not None:
            body += turn_lines(g, game, seat, prompt, reply=reply, opened=t.prompts)
        else:
            body += [_("You have nothing to decide yet; you will get one mail when the game waits on you."), ""]
    return subject, body + [_("Game page: %(url)s", url=public_url(g))]


def disorder_mail(s: Session, g: Game, game: GameModule, seat: Seat) -> list[Task]:
    """One notice when a seat enters civil disorder, to its registered address only."""
    if not seat.email:
        return []
    with language(seat_language(g, seat)):
        title = g.title or game.info.title
        body = _head(g, game, seat) + [
            "## " + _("Civil disorder"), "",
            _("Your seat missed %(missed)s deadlines in a row, so it is now in **civil disorder**: each of its "
              "decisions takes the default order at once instead of waiting for you.", missed=seat.missed), "",
            _("Any mail from you to your reply address ends it (your orders, or only STATUS), and so does an "
              "order, a press message or your standing orders sent from your seat page; only opening the page "
              "does not. The moderator may also replace you."), "",
            _("Reply address: %(address)s", address=reply_address(g, seat)), "",
            _("Game page: %(url)s", url=public_url(g)),
        ]
        subject = _("[%(game)s] %(title)s: your seat is in civil disorder", game=g.public_id, title=title)
    hdrs: dict[str, Any] = compose.headers(g.public_id, seat.seat, reply_address(g, seat))
    return seat_mail(s, g, seat, subject, "\n".join(body), "disorder", **hdrs)
