"""The moderator's rollback: return a running game to the state after an earlier record entry.

Nothing is deleted from the record: a `rollback` note (adjudicator/record/rollback.py) marks the
entries after the target as undone, and its state hash is the state after the target, rebuilt by
replaying the record from the seed. So `pbem verify` still checks every entry, undone ones too.
What changes around it:

- sealed orders collected for the decision open now are withdrawn (they answered a state that
  no longer exists); their contents were never published and stay unpublished;
- every seat waits afresh: a new full deadline, and one mail per seat saying what was undone and
  why, followed by the usual "your move" mail for the seats now waited on;
- seats' missed-deadline counts and civil disorder stay as they are (they are about the players,
  not the position), and standing orders used by the undone entries are not given back;
- the game's PRNG state goes back with the position: the same orders give the same draws again.

A finished game cannot be rolled back: its seed and complete record are already public.
"""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, delete, select

from adjudicator.engine import State
from adjudicator.i18n import N_, _, language
from adjudicator.record import ROLLBACK, replay_record, undone_indices
from adjudicator.record.chain import export_document
from adjudicator.store import Game, ModeratorAction, RecordEntry, SealedOrder
from adjudicator.store.typed import id_of

from ..common.clock import utcnow
from ..common.core import append_entry, module_of, seats_of
from ..common.errors import ServiceError
from ..common.snapshot import table_of
from ..common.types import Task
from . import notify
from .moderated import game_to_moderate
from .pace import settle


def _entries(s: Session, g: Game) -> list[dict]:
    rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id).order_by(col(RecordEntry.seq)))
    return [r.to_entry() for r in rows]


def _state_after(g: Game, entries: list[dict], target: int) -> State:
    """Replay the record from the seed (checking every hash on the way) up to entry `target`."""
    doc = export_document(module_of(g), entries, g.server_seed)
    for entry, state in replay_record(doc):
        if entry["index"] == target:
            return state
    raise ServiceError(f"entry {target} is not in the record")  # pragma: no cover - checked before


def return_to(s: Session, g: Game, to: int, about: dict[str, object], now: datetime) -> None:
    """The rollback itself, shared by the moderator's tool and a player's undo (undo.py): the
    state after entry `to` (replayed from the seed), the sealed orders of the open decision
    withdrawn, and the `rollback` note (with `about`: who and why) with its ModeratorAction row."""
    entries = _entries(s, g)
    undone = undone_indices(entries)
    last = g.record_length - 1
    if not 0 <= to < last:
        raise ServiceError(_("roll back to an entry from 0 to %(last)s (the record's last entry is %(end)s)",
                             last=max(0, last - 1), end=last))
    if to in undone:
        raise ServiceError(_("entry %(entry)s was undone by an earlier rollback; choose an entry still in force",
                             entry=to))
    state = _state_after(g, entries, to)
    s.exec(delete(SealedOrder).where(col(SealedOrder.game_id) == g.id))
    data = {"action": ROLLBACK, "to": to, "undone": g.record_length - to - 1, **about}
    append_entry(s, g, "note", data, state, [])
    s.add(ModeratorAction(game_id=id_of(g), action=ROLLBACK, data={k: v for k, v in data.items() if k != "action"},
                          at=now))


def rollback(s: Session, game_id: str, admin_token: str, to: int, reason: str,
             now: datetime | None = None) -> list[Task]:
    """Undo every entry after entry `to` (see the module doc). The game keeps running (or stays
    paused, with a full wait kept for its resume)."""
    now = now or utcnow()
    g, by, reason = game_to_moderate(s, game_id, admin_token, reason, N_(
        "game %(game)s is %(status)s; only a running or paused game can be rolled back"))
    return_to(s, g, to, {"reason": reason, **by}, now)
    g.waiting_on = []  # everyone waited on from here is a new wait, with a full deadline
    if g.status == "paused":
        g.paused_remaining = g.step_seconds
    else:
        g.due_at = g.reminder_at = None
    s.add(g)
    game = module_of(g)
    tasks: list[Task] = []
    for row in seats_of(s, g):
        with language(notify.seat_language(g, row)):
            title = g.title or game.info.title
            body = [
                "# " + _("%(title)s (%(game)s): the moderator rolled the game back", title=title, game=g.public_id),
                "",
                _("Every move after record entry %(entry)s is undone; the game goes on from the position after it. "
                  "Reason: %(reason)s", entry=to, reason=reason), "",
                _("Sealed orders sent for the current decision were withdrawn: send them again when you are "
                  "asked."), "",
                _("Game page: %(url)s", url=notify.public_url(g)),
            ]
            subject = _("[%(game)s] %(title)s: rolled back to entry %(entry)s", game=g.public_id, title=title,
                        entry=to)
        tasks += notify.to_seat(s, g, row, subject, "\n".join(body), "moderator")
    return tasks + settle(s, table_of(s, g), now)
