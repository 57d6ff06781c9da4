"""Correspondence pace: waits, follow-ups, automatic decisions and civil disorder.

Every use case that changes a game ends with `settle`, once (not once per engine step):

1. `advance` applies what needs nobody: a sealed group whose orders are all in is revealed, a
   decision that one of the seat's standing orders answers is answered, and a seat in civil
   disorder (or resigned) takes its default at once.
2. Then the wait is worked out. A **wait** starts when the game starts waiting on a seat that did
   not just act, or whose decision opened because another seat moved (an order, a default, a
   standing order, civil disorder) after its own: it gets the full deadline (`Game.step_seconds`)
   and one "your move" mail, which carries everything the seat may see since its last mail. A
   **follow-up**, a decision that opens straight from the seat's own order with no other seat's
   move between, continues its wait: the deadline is only extended to at least
   `Game.follow_up_seconds` from now (a day and a half by default, so that a once-a-day reader
   answers in time), and no mail is sent (the seat is at its page or gets the reply to its mail,
   which states the decision and its deadline).

A seat that misses `Game.disorder_after` deadlines in a row is in civil disorder until it speaks
again (any order, mail or message) or is replaced; `seat_spoke` ends it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime, timedelta

from sqlmodel import Session

from adjudicator.bots import choose
from adjudicator.engine import GameModule, IllegalOrder, Order, Prompt
from adjudicator.store import Game, Seat, StandingOrder, update_row
from adjudicator.store.gamelock import SeatRow

from ..common import snapshot
from ..common.clock import as_utc, utcnow
from ..common.core import append_note, last_hash, sealed_groups
from ..common.snapshot import Table, table_seats
from ..common.types import Task
from . import notify
from .standingdrop import drop_never_legal
from .steps import apply_group, record_orders, seal, sealed_of, sealed_seats

log = logging.getLogger(__name__)

# Automatic steps in one transaction. A game whose every seat is in disorder plays on by
# itself; past this many steps the rest is left to the next deadline sweep, so one transaction
# never holds the game for long.
AUTO_LIMIT = 2000


def waiting_seats(t: Table, sealed_in: set[str] | None = None) -> list[str]:
    """Seats with a decision that have not answered it yet (a sealed order in counts as answered).
    `sealed_in`: the seats with a sealed order in, if the caller knows them (`_advance` does)."""
    if sealed_in is None:
        sealed_in = sealed_seats(t)
    return sorted(seat for seat in t.prompts if seat not in sealed_in)


def automatic_order(s: Session, g: Game, game: GameModule, seat: str, substituted: bool) -> tuple[Order, str]:
    """The order of a seat in civil disorder and where it comes from: the substitute's choice
    (`substitute_order`) when `substituted`, else the documented default."""
    if substituted:
        return substitute_order(game, g.state or {}, seat, last_hash(s, g), g.public_id)
    return game.default_order(g.state or {}, seat), "default"


def substitute_order(game: GameModule, state: dict, seat: str, public: str, game_id: str = "") -> tuple[Order, str]:
    """The substitute's choice from the seat's own view, seeded by the record's last hash
    (`public`), or the documented default if the search fails. This is the search (about half a
    second of CPU): only the worker's task calls it, outside any transaction (substitutes.py)."""
    try:
        return choose(game, state, seat, public=public), "substitute"
    except Exception:  # noqa: BLE001 - a failing search must never stop the game: the default plays
        log.exception("the substitute for %s in %s failed; the default plays", seat, game_id)
    return game.default_order(state, seat), "default"


# What the substitute chose for a seat (service/play/substitutes.py): (record length it decided at, order, origin)
Chosen = dict[str, tuple[int, Order, str]]


def substitutes_play(g: Game, seats: list[SeatRow] | list[Seat]) -> bool:
    """The substitute plays the seats in civil disorder: the game has substitutes and someone
    still plays (a game nobody plays any more ends on the plain defaults, which cost no search:
    a deadline burst of abandoned games stays cheap)."""
    return g.substitutes and any(not (r.disorder or r.resigned) for r in seats)


def owed_seats(t: Table) -> list[str]:
    """Seats in civil disorder whose open decision the substitute has to think about."""
    seats = t.rows[Seat]
    if t.game.status != "running" or not substitutes_play(t.game, seats):
        return []
    automatic = {r.seat for r in seats if r.disorder or r.resigned}
    answered = sealed_seats(t)
    return sorted(seat for seat in t.prompts if seat in automatic and seat not in answered)


def _standing_rows(s: Session, t: Table) -> dict[str, list[StandingOrder]]:
    rows: dict[str, list[StandingOrder]] = {}
    for row in snapshot.merged(s, t.game_id, StandingOrder, t.rows[StandingOrder]):
        if not row.dropped:  # a line that can never be used again waits only to be told (standingdrop.py)
            rows.setdefault(row.seat, []).append(row)
    return rows


def advance(s: Session, t: Table, now: datetime) -> int:
    """Apply every decision that needs nobody (see the module doc); returns the number of steps.
    Stops at AUTO_LIMIT steps."""
    return _advance(s, t, now, t.rows[Seat])[0]


def _advance(s: Session, t: Table, now: datetime, seats: list[SeatRow] | list[Seat], moved: set[str] | None = None,
             chosen: Chosen | None = None, owed: set[str] | None = None) -> tuple[int, set[str] | None]:
    """`advance`, plus the seats whose sealed order is in when it stopped (None: not known), which
    spares `settle` reading the sealed rows again. `moved` collects the seats whose decision was
    answered here without them (a standing order, a default; a reveal only applies orders that
    were in already). The substitute never thinks here (a request or a deadline must stay fast):
    it plays what it `chosen` at this very position, and `owed` collects the seats it still has to
    think for (settle hands them to the worker)."""
    g, game = t.game, t.module
    moved = set() if moved is None else moved
    owed = set() if owed is None else owed
    chosen = {} if chosen is None else chosen
    standing = _standing_rows(s, t)
    automatic = {r.seat for r in seats if r.disorder or r.resigned}
    substituted = substitutes_play(g, seats)
    if not standing and not automatic and not any(p.sealed for p in t.prompts.values()):
        return 0, set()
    steps = 0
    while g.status == "running" and steps < AUTO_LIMIT:
        prompts = t.prompts
        if not prompts:
            return steps, set()
        acted = False
        answered: set[str] = set()
        for group, members in sealed_groups(prompts).items():
            rows = sealed_of(t, group)
            if set(members) <= set(rows):
                apply_group(s, t, group, members, rows, now)
                acted = True
                break
            answered |= set(rows)
        if not acted:
            for seat, prompt in sorted(prompts.items()):
                if seat in answered:
                    continue
                if standing.get(seat):
                    standing[seat] = drop_never_legal(game, g, standing[seat])
                fit = first_fit(game, prompt, standing.get(seat, []))
                if fit is not None:
                    row, order = fit
                    if not row.always:
                        standing[seat].remove(row)
                        s.delete(row)
                        t.rows[StandingOrder] = [r for r in t.rows[StandingOrder] if r is not row]
                    origin = "standing"
                elif seat in automatic and not substituted:
                    order, origin = game.default_order(g.state or {}, seat), "default"
                elif seat in automatic:
                    at, order, origin = chosen.pop(seat, (-1, None, ""))
                    if at != g.record_length or not prompt.allows(order):
                        owed.add(seat)  # the worker thinks for it (service/play/substitutes.py)
                        continue
                    owed.discard(seat)
                else:
                    continue
                try:
                    if prompt.sealed:
                        seal(s, t, seat, prompt, order, now, origin=origin)
                    else:
                        record_orders(s, t, {seat: order}, now=now,
                                      defaulted=[seat] if origin == "default" else None,
                                      standing=[seat] if origin == "standing" else None,
                                      substitute=[seat] if origin == "substitute" else None)
                except IllegalOrder:  # a game's default must be legal; never loop on one that is not
                    log.exception("automatic order for %s in %s refused", seat, g.public_id)
                    continue
                moved.add(seat)
                owed.discard(seat)
                acted = True
                break
        if not acted:
            return steps, answered  # every open sealed group was read in this round
        steps += 1
        owed.clear()  # a step was taken: the next round finds what is owed now
    return steps, None


def open_deadline(g: Game, now: datetime, seconds: float | None = None) -> datetime:
    """A new deadline `seconds` from now (the game's wait by default), with its reminder."""
    due = now + timedelta(seconds=g.step_seconds if seconds is None else seconds)
    g.due_at = due
    reminder = due - timedelta(seconds=g.reminder_seconds) if g.reminder_seconds > 0 else None
    g.reminder_at = reminder if reminder is not None and reminder > now else None
    g.reminded = False
    return due


def first_fit(game: GameModule, prompt: Prompt, rows: list[StandingOrder]) -> tuple[StandingOrder, Order] | None:
    """The first standing order that reads as a legal choice of `prompt`."""
    for row in rows:
        if row.kind and row.kind != prompt.kind.lower():
            continue
        try:
            order = game.parse_order(row.text, prompt)
        except (IllegalOrder, ValueError, KeyError, IndexError, TypeError):
            continue  # does not fit this decision: stays queued
        if prompt.allows(order):
            return row, order
    return None


def settle(s: Session, t: Table, now: datetime | None = None, actors: Iterable[str] = (),
           fresh: Iterable[str] = (), started: bool = False, chosen: Chosen | None = None) -> list[Task]:
    """Finish a use case: automatic decisions, then the wait's deadline and its mails.

    `actors`: seats whose own order (form, command box, mail) this use case applied; a decision
    of theirs that follows is a follow-up, not a new wait, unless another seat moved after them
    (then the decision opened because of that move: a new wait, with its mail). `fresh`: seats
    whose wait ended without them (a deadline passed): a decision they still have is a new wait.
    `started`: the game has just started (everyone gets the start mail). `chosen`: the substitute's
    moves thought out at this position (service/play/substitutes.py); a seat it still has to think
    for is handed to the worker (a "substitute" task; `Game.substitute_at` marks the game for the
    recovery sweep) and is not waited on."""
    now = now or utcnow()
    g = t.game
    actors, fresh = set(actors), set(fresh)
    rows: list[SeatRow] | list[Seat] = t.rows[Seat]
    moved: set[str] = set()
    owed: set[str] = set()
    steps, sealed_in = _advance(s, t, now, rows, moved, chosen, owed)
    follow_ups = actors if not (moved - actors) else set()
    fresh |= moved | (actors - follow_ups)  # their wait ended: a decision they have now is a new one
    tasks: list[Task] = []
    if g.status == "finished":
        g.waiting_on = []
        g.substitute_at = None
        s.add(g)
        return notify.seat_mails(s, t, "end", table_seats(s, t), started=started)
    if g.status != "running":
        return tasks
    waiting = [seat for seat in waiting_seats(t, sealed_in) if seat not in owed]
    previous = set(g.waiting_on or []) - fresh
    new = [seat for seat in waiting if seat not in previous and seat not in follow_ups]
    due = as_utc(g.due_at)
    if new or (waiting and due is None):
        open_deadline(g, now)
    elif set(waiting) & follow_ups and g.follow_up_seconds > 0:
        follow = now + timedelta(seconds=g.follow_up_seconds)
        if due is None or due < follow:
            open_deadline(g, now, g.follow_up_seconds)
    if steps >= AUTO_LIMIT:  # more automatic work: the next sweep goes on with it
        g.due_at, new = now, []
        waiting = []
    elif owed:
        tasks.append(("substitute", g.public_id, g.record_length))
        g.substitute_at = now
        if not waiting:  # only the substitute is to move: no reminder, and a deadline as a backstop
            if due is None or due <= now:  # (a worker away that long: the seats take their defaults)
                open_deadline(g, now)
            g.reminded = True
    elif g.substitute_at is not None:
        g.substitute_at = None
    if waiting != g.waiting_on:  # assigning an equal list still puts the game row through the flush
        g.waiting_on = waiting
    if g not in s:  # (adding it again walks its cascade: a tenth of a replaced order's settle)
        s.add(g)
    if not new:  # the common order: its seat's `acted_at`, by key (store/rowwrite.py)
        for plain in rows:
            if plain.seat in actors:
                update_row(s, plain, {"acted_at": now})
        return tasks
    waited = []
    for row in table_seats(s, t):  # a new wait changes its seats and mails them: ORM objects
        if row.seat in new:
            row.waits += 1
            row.wait_started_at = now
            s.add(row)
            waited.append(row)
        if row.seat in actors:  # one Core UPDATE unless the row has other changes (store/rowwrite.py)
            update_row(s, row, {"acted_at": now})
    # a seat's first "your move" mail carries what the start mail would have
    return tasks + notify.seat_mails(s, t, "start" if started else "turn", waited)


def seat_spoke(s: Session, g: Game, row: SeatRow | Seat, now: datetime | None = None) -> None:
    """The seat ordered, mailed or wrote: its missed deadlines are forgiven, civil disorder ends."""
    if row.missed == 0 and not row.disorder:
        return
    ended = row.disorder
    update_row(s, row, {"missed": 0, "disorder": False})
    if ended and g.state is not None:
        append_note(s, g, "disorder_ended", now or utcnow(), seat=row.seat)
