"""The game's log as one reader sees it: each record entry's lines, rendered in the reader's
language, with what a rollback undid marked. Seat pages, the public page and feed, and the news of
every mail (notify.news_lines) all read it here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from sqlmodel import Session, col, select

from adjudicator.engine import GameModule
from adjudicator.i18n import _, prompt_text
from adjudicator.record import ROLLBACK, undone_indices
from adjudicator.store import Game, ModeratorAction, RecordEntry

from ..common import snapshot
from ..common.clock import as_utc
from ..common.types import LogEntry, LogLine


def visible(ev: dict[str, Any], seat: str | None) -> bool:
    """Whether `seat` (None: the public) may see the event."""
    audience = ev.get("audience")
    return audience is None or (seat is not None and seat in audience)


def undone_seqs(s: Session, g: Game) -> set[int]:
    """The record indices a rollback undid (empty, after one indexed look-up, for most games)."""
    had = s.exec(select(ModeratorAction.id).where(ModeratorAction.game_id == g.id,
                                                  ModeratorAction.action == ROLLBACK)).first()
    if had is None:
        return set()
    notes = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.kind == "note")
                   .order_by(col(RecordEntry.seq)))
    return undone_indices([r.to_entry() for r in notes])


def _note_text(data: dict[str, Any]) -> str:
    action = data.get("action", "note")
    if action == "absence_extension":  # written by the deadline sweep, not by the moderator
        return "*" + _("Deadline extended to %(due)s: %(seats)s away (ABSENT)", due=data.get("due_at", "?"),
                       seats=data.get("seats", "?")) + "*"
    if action == "civil_disorder":
        return "*" + _("%(seat)s missed %(missed)s deadlines in a row and is in civil disorder: its decisions take "
                       "the default at once until it speaks again", seat=data.get("seat", "?"),
                       missed=data.get("missed", "?")) + "*"
    if action == "disorder_ended":
        return "*" + _("%(seat)s is back: civil disorder ended", seat=data.get("seat", "?")) + "*"
    moderator_text = _moderator_note_text(action, data)
    if moderator_text is not None:
        return moderator_text
    if action == "pace":
        return (f"*Moderator: pace changed (wait {data.get('wait_hours', '?')} h, follow-up "
                f"{data.get('follow_up_hours', '?')} h, civil disorder after {data.get('disorder_after', '?')} "
                "missed deadlines)*")
    extra = ", ".join(f"{k}: {v}" for k, v in sorted(data.items()) if k != "action" and v is not None)
    return f"*Moderator: {action.replace('_', ' ')}*" + (f" ({extra})" if extra else "")


def _moderator_note_text(action: str, data: dict[str, Any]) -> str | None:
    """The sentences of the moderator tools of issue 13 (None: another note)."""
    who = _("The tournament director") if data.get("by") == "director" else _("The moderator")
    if action == "rollback" and data.get("by") == "seat":  # a player's undo (undo.py)
        return "*" + _("%(seat)s took back their last %(count)s step(s) (undo, allowed because nobody else had "
                       "acted and nothing hidden was revealed): back to record entry %(entry)s",
                       seat=data.get("seat", "?"), count=data.get("steps", "?"), entry=data.get("to", "?")) + "*"
    if action == "rollback":
        return "*" + _("%(who)s rolled the game back to record entry %(entry)s: the %(count)s entries after it "
                       "are undone. Reason: %(reason)s", who=who, entry=data.get("to", "?"),
                       count=data.get("undone", "?"), reason=data.get("reason", "")) + "*"
    if action == "substitute_on":
        return "*" + _("%(who)s handed %(seat)s to the substitute, which plays it until its player is back",
                       who=who, seat=data.get("seat", "?")) + "*"
    if action == "substitute_off":
        return "*" + _("%(who)s gave %(seat)s back to its player", who=who, seat=data.get("seat", "?")) + "*"
    if action == "shorten_deadline":
        return "*" + _("%(who)s brought the deadline %(hours)s hours forward, to %(due)s", who=who,
                       hours=data.get("hours", "?"), due=data.get("due_at", "?")) + "*"
    if action == "broadcast":
        return "*" + _("%(who)s sent a message to every seat", who=who) + "*"
    if action == "remove_seat":
        return "*" + _("%(who)s removed the player of %(seat)s: the seat is in civil disorder until a replacement "
                       "joins. Reason: %(reason)s", who=who, seat=data.get("seat", "?"),
                       reason=data.get("reason", "")) + "*"
    if action == "declare_result":
        winners = ", ".join(data.get("winners") or []) or _("nobody")
        return "*" + _("%(who)s ended the game with a declared result: won by %(winners)s. Reason: %(reason)s",
                       who=who, winners=winners, reason=data.get("reason", "")) + "*"
    return None


def _event_text(game: GameModule, ev: dict[str, Any]) -> str:
    """A log line in the current language when the game gives it as a message, else its English."""
    msg = game.event_message(ev)
    return prompt_text("", msg) if msg else game.render_event(ev)


def log_entries(s: Session, g: Game, game: GameModule, seat: str | None, newest: int | None = None,
                since: int | None = None, rows: Iterable[RecordEntry] | None = None) -> list[LogEntry]:
    """The rendered log `seat` may see (None: the public log), entry by entry in record order;
    `newest` keeps only the last that many record entries, `since` only entries from that index on;
    `rows`: those entries, already read (the deadline's snapshot)."""
    if rows is not None:  # a snapshot's entries: what a rollback undid is read once for it
        return render_entries(rows, game, seat, snapshot.undone(s, g, lambda: undone_seqs(s, g)))
    query = select(RecordEntry).where(RecordEntry.game_id == g.id)
    if newest is not None:
        query = query.where(RecordEntry.seq >= g.record_length - newest)
    if since is not None:
        query = query.where(RecordEntry.seq >= since)
    return render_entries(s.exec(query.order_by(col(RecordEntry.seq))), game, seat, undone_seqs(s, g))


def _period(ev: dict[str, Any]) -> str:
    """The year or turn an event starts or belongs to, in words ("" for most events): Doge's years,
    1960's and Founding Fathers' turns name it in their events' data."""
    if ev.get("kind") in ("year-started", "turn", "phase"):
        if isinstance(ev.get("year"), int):
            return _("Year %(year)s", year=ev["year"])
        if isinstance(ev.get("turn"), int):
            return _("Turn %(turn)s", turn=ev["turn"])
    return ""


def _headed(lines: list[LogLine], events: list[dict[str, Any]], last: list[str]) -> list[LogLine]:
    """The lines, the first of a new year or turn carrying its heading (`last`: the period so far)."""
    for line, ev in zip(lines, events, strict=True):
        period = _period(ev)
        if period and period != last[0]:
            line.heading, last[0] = period, period
    return lines


def render_entries(rows: Iterable[RecordEntry], game: GameModule, seat: str | None,
              undone: set[int] | frozenset[int] = frozenset()) -> list[LogEntry]:
    """`undone`: entries a rollback undid; their lines stay, marked (each under its own audience)."""
    entries: list[LogEntry] = []
    last = [""]
    for row in rows:
        at = as_utc(row.created_at)
        lines: list[LogLine] = []
        if row.kind == "note":
            lines.append(LogLine(row.seq, "note", _note_text(row.data)))
        else:
            defaulted = row.data.get("defaulted") or [] if row.kind == "orders" else []
            if defaulted:
                lines.append(LogLine(row.seq, "defaulted",
                                     "*" + _("Default orders for %(seats)s", seats=", ".join(defaulted)) + "*"))
            for seat_name in row.data.get("substitute") or [] if row.kind == "orders" else []:
                order = (row.data.get("orders") or {}).get(seat_name)
                played = game.format_order(order) \
                    if order is not None and seat_name not in (row.data.get("hidden") or []) \
                    else _("a hidden order")
                lines.append(LogLine(row.seq, "substitute", "*" + _("%(seat)s (substitute) plays %(order)s",
                                                                   seat=seat_name.capitalize(), order=played) + "*"))
            standing = row.data.get("standing") or [] if row.kind == "orders" else []
            if standing:
                lines.append(LogLine(row.seq, "standing",
                                     "*" + _("Standing order applied for %(seats)s", seats=", ".join(standing)) + "*"))
            shown = [ev for ev in row.events or [] if visible(ev, seat)]
            lines += _headed([LogLine(row.seq, ev.get("kind", ""), _event_text(game, ev)) for ev in shown], shown, last)
        if row.seq in undone:
            mark = "**" + _("[undone by a rollback]") + "** "
            lines = [LogLine(line.index, line.kind, mark + line.markdown, heading=line.heading) for line in lines]
        for line in lines:
            line.at = at
        entries.append(LogEntry(row.seq, at, lines))
    return entries
