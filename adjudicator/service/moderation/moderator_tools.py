"""Moderator tools of tournament play (issue 13), each an audited `note` entry of the game's record
and a ModeratorAction row: shorten the deadline, broadcast to the seats of a game or of a whole
tournament, remove a seat for cause, declare a result. The rollback is in rollback.py.

Removing a seat for cause (what a tournament director expects of it): the player's links stop
working at once, the seat goes into civil disorder (each of its decisions takes the default at once,
so the game is never held up by it) and is open for a replacement: the director gets a fresh invite
link, and whoever joins with it ends the civil disorder. A sealed order the removed player had
already sent for the open decision stands (it was given while they held the seat); their standing
orders are cancelled. The standings count the seat for whoever holds it at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from sqlmodel import Session, col, delete, select

from adjudicator.engine import sha256_hex
from adjudicator.i18n import N_, _, language
from adjudicator.record import DECLARED_RESULT
from adjudicator.render.usertext import mail_html, user_text_html
from adjudicator.store import Director, Game, ModeratorAction, Press, SealedOrder, Seat, StandingOrder
from adjudicator.store.typed import id_of

from ..common.clock import as_utc, format_deadline, utcnow
from ..common.core import append_note, auth_admin, locked_game, module_of, seat_row, seats_of
from ..common.errors import Conflict, ServiceError
from ..common.snapshot import table_of
from ..common.tokens import hash_token, new_token
from ..common.types import Task
from ..history.ratings import rate_finished
from ..people.pressbounds import check_press
from ..play import notify
from ..play.moderated import game_to_moderate
from ..play.pace import open_deadline, settle
from .directors import auth_director

MODERATOR = "moderator"  # the sender of a moderator's broadcast (no game names a seat so)
MIN_NOTICE = timedelta(hours=1)  # a shortened deadline still leaves the seats this long
MAX_BROADCAST = 10_000


# ------------------------------------------------------------------------------ shorten the deadline

def shorten_deadline(s: Session, game_id: str, admin_token: str, hours: float,
                     now: datetime | None = None) -> list[Task]:
    """Bring the current deadline `hours` earlier; the seats being waited on are told by mail."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    due = as_utc(g.due_at)
    if g.status != "running" or due is None:
        raise Conflict(_("game %(game)s has no running deadline to shorten", game=game_id))
    if not 0 < hours <= 24 * 60:
        raise ServiceError(_("shorten the deadline by a number of hours above 0 and at most 1440"))
    new_due = due - timedelta(hours=hours)
    if new_due < now + MIN_NOTICE:
        raise ServiceError(_("the new deadline must leave the players at least an hour; to end the turn now, "
                             "apply the defaults instead"))
    open_deadline(g, now, (new_due - now).total_seconds())
    s.add(g)
    append_note(s, g, "shorten_deadline", now, hours=str(hours), due_at=new_due.isoformat(), **by)
    game = module_of(g)
    tasks: list[Task] = []
    for row in seats_of(s, g):
        if row.seat not in (g.waiting_on or []):
            continue
        with language(notify.seat_language(g, row)):
            title = g.title or game.info.title
            body = [_("The moderator brought the deadline of %(title)s (%(game)s) forward: your orders are now due "
                      "by **%(deadline)s**.", title=title, game=g.public_id,
                      deadline=format_deadline(g.due_at, notify.seat_timezone(g, row))), "",
                    _("Game page: %(url)s", url=notify.public_url(g))]
            subject = _("[%(game)s] %(title)s: the deadline is earlier", game=g.public_id, title=title)
        tasks += notify.to_seat(s, g, row, subject, "\n".join(body), "moderator")
    return tasks


# ------------------------------------------------------------------------------ broadcast

def _broadcast_text(text: str) -> str:
    text = (text or "").strip()
    if not text:
        raise ServiceError(_("the message is empty"))
    if len(text) > MAX_BROADCAST:
        raise ServiceError(_("a message holds at most %(max)s characters", max=MAX_BROADCAST))
    return text


def _broadcast(s: Session, g: Game, text: str, by: dict[str, str], now: datetime) -> list[Task]:
    """Press from the moderator to every seat (pages and mail). The record notes that it was sent
    and the hash of its text, not the text: like all press it is private while the game runs."""
    seats = seats_of(s, g)
    check_press(s, g, MODERATOR, [r.seat for r in seats], now, g.timezone, moderator=True)
    html = user_text_html(text)  # once, bounded; pages and mails use it as stored
    press = Press(game_id=id_of(g), sender=MODERATOR, recipients=[r.seat for r in seats], broadcast=True, body=text,
                  html=html, via="web", created_at=now)
    s.add(press)
    s.flush()
    data = {"press": press.id, "text_sha256": sha256_hex(text), **by}
    if g.state is not None:
        append_note(s, g, "broadcast", now, **data)
    else:  # not started: no record yet, only the moderator log
        s.add(ModeratorAction(game_id=id_of(g), action="broadcast", data=data, at=now))
    title = g.title or module_of(g).info.title
    tasks: list[Task] = []
    for row in seats:
        with language(notify.seat_language(g, row)):
            head = "# " + _("Message from the moderator of %(title)s (%(game)s)", title=title, game=g.public_id)
            tail = _("Game page: %(url)s", url=notify.public_url(g))
            subject = _("[%(game)s] message from the moderator", game=g.public_id)
        tasks += notify.to_seat(s, g, row, subject, "\n".join([head, "", text, "", tail]), "press",
                                html=mail_html(head, html, tail))
    return tasks


def broadcast(s: Session, game_id: str, admin_token: str, text: str, now: datetime | None = None) -> list[Task]:
    """A message from the moderator to every seat of one game (not once it is over)."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status == "finished":
        raise Conflict(_("game %(game)s is over; press is closed", game=game_id))
    return _broadcast(s, g, _broadcast_text(text), by, now)


@dataclass
class TournamentBroadcast:
    games: list[str]  # the games it went to
    tasks: list[Task] = field(default_factory=list)


def broadcast_tournament(s: Session, director_id: str, token: str, text: str,
                         now: datetime | None = None) -> TournamentBroadcast:
    """The same message to every seat of every game of the tournament that is not over."""
    now = now or utcnow()
    director: Director = auth_director(s, director_id, token)
    text = _broadcast_text(text)
    ids = s.exec(select(Game.public_id).where(Game.director_id == director.id, Game.status != "finished")
                 .order_by(col(Game.id))).all()
    if not ids:
        raise Conflict(_("the tournament has no game that is not over"))
    done = TournamentBroadcast(list(ids))
    for game_id in ids:  # locked one by one, in id order like every other multi-game writer
        done.tasks += _broadcast(s, locked_game(s, game_id), text, {"by": "director"}, now)
    return done


# ------------------------------------------------------------------------------ remove a seat

@dataclass
class RemovedSeat:
    seat: str
    invite_token: str  # for the replacement player; shown once
    tasks: list[Task] = field(default_factory=list)


def remove_seat(s: Session, game_id: str, admin_token: str, seat: str, reason: str,
                now: datetime | None = None) -> RemovedSeat:
    """Remove the player of `seat` for cause (see the module doc)."""
    now = now or utcnow()
    g, by, reason = game_to_moderate(s, game_id, admin_token, reason, N_(
        "game %(game)s is %(status)s; a seat can be removed only while it runs"))
    row: Seat = seat_row(s, g, seat)
    tasks = _removal_mail(s, g, row, reason)  # to the removed player, before the address goes
    invite = new_token()
    row.seat_token_hash = None
    row.invite_token_hash = hash_token(invite)
    row.generation += 1
    row.email, row.chat_webhook, row.joined_at = "", "", None
    row.disorder = True
    s.add(row)
    s.exec(delete(StandingOrder).where(col(StandingOrder.game_id) == g.id, col(StandingOrder.seat) == seat))
    append_note(s, g, "remove_seat", now, seat=seat, generation=row.generation, reason=reason, **by)
    tasks += settle(s, table_of(s, g), now, fresh=[seat])  # a decision waiting on the seat takes its default now
    return RemovedSeat(seat, invite, tasks)


def _removal_mail(s: Session, g: Game, row: Seat, reason: str) -> list[Task]:
    if not row.email:
        return []
    with language(notify.seat_language(g, row)):
        title = g.title or module_of(g).info.title
        body = [_("The moderator removed you from seat %(seat)s of %(title)s (%(game)s). Reason: %(reason)s",
                  seat=row.seat, title=title, game=g.public_id, reason=reason), "",
                _("Your seat link and reply address no longer work; the seat plays on by default orders "
                  "until a replacement joins.")]
        subject = _("[%(game)s] %(title)s: you were removed from seat %(seat)s", game=g.public_id, title=title,
                    seat=row.seat)
    return notify.seat_mail(s, g, row, subject, "\n".join(body), "moderator")


# ------------------------------------------------------------------------------ declare a result

def declare_result(s: Session, game_id: str, admin_token: str, winners: list[str], reason: str,
                   scores: dict[str, int] | None = None, now: datetime | None = None) -> list[Task]:
    """End the game with the moderator's result (an adjudicated end). `winners`: the seats that
    win (none: nobody wins); `scores`: optional points per seat for the standings' score and rank
    systems (absent: the winners first, the rest equal). The seed and full record are published
    as at any end; standings and ratings use this result (outcomes.py)."""
    now = now or utcnow()
    g, by, reason = game_to_moderate(s, game_id, admin_token, reason, N_(
        "game %(game)s is %(status)s; a result can be declared only while it runs"))
    names = [r.seat for r in seats_of(s, g)]
    chosen = sorted({w.strip().lower() for w in winners if w.strip()})
    unknown = [w for w in chosen if w not in names]
    bad_scores = [k for k in (scores or {}) if k not in names]
    if unknown or bad_scores:
        raise ServiceError(_("no seat %(unknown)s; the seats are %(seats)s",
                             unknown=", ".join(unknown + bad_scores), seats=", ".join(names)))
    points = {k: int(v) for k, v in sorted((scores or {}).items())}
    append_note(s, g, DECLARED_RESULT, now, winners=chosen, scores=points, reason=reason, **by)
    # sealed orders still uncollected answer a decision that will never be revealed: dropped unread
    s.exec(delete(SealedOrder).where(col(SealedOrder.game_id) == g.id))
    g.status = "finished"
    g.due_at = g.reminder_at = None
    g.paused_remaining = None
    s.add(g)
    rate_finished(s, g)
    return settle(s, table_of(s, g), now)
