"""The game row and its record: loading and locking a game, checking a seat's or a moderator's link,
the open prompts, and the one write path: every change to a game's record goes through
`append_entry` (orders through `steps.record_orders`, moderator actions through `append_note`) on
a game row the caller has locked with `locked_game` in the current transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy.orm import object_session
from sqlmodel import Session, col, select

from adjudicator.engine import Prompt
from adjudicator.engine import state_hash as hash_state
from adjudicator.i18n import _
from adjudicator.record import GENESIS, entry_hash
from adjudicator.store import Director, Game, ModeratorAction, RecordEntry, SealedOrder, Seat, gamelock, lock_game
from adjudicator.store.gamelock import SealedRow, SeatRow
from adjudicator.store.typed import id_of

from . import snapshot
from .clock import utcnow
from .errors import Conflict, Forbidden, NotFound
from .prompts import current_prompts as current_prompts  # (re-exported: the play room reads them here)
from .prompts import module_of as module_of
from .tokens import MailKey, mail_key_matches, seat_token_matches, token_matches

# ---------------------------------------------------------------------------- loading and auth

class _SeatLink(Protocol):
    @property
    def seat_token_hash(self) -> str | None: ...


L = TypeVar("L", bound=_SeatLink)


def locked_game(s: Session, game_id: str) -> Game:
    g = snapshot.locked(s, game_id) or lock_game(s, game_id)
    if g is None:
        raise NotFound(_("there is no game %(game)s; check the link", game=repr(game_id)))
    return g


def find_game(s: Session, game_id: str) -> Game:
    """Read without locking (pages)."""
    g = snapshot.locked(s, game_id) or s.exec(select(Game).where(Game.public_id == game_id)).first()
    if g is None:
        raise NotFound(_("there is no game %(game)s; check the link", game=repr(game_id)))
    return g


def seats_of(s: Session, g: Game) -> list[Seat]:
    """The game's seats as ORM objects (to change them; an order's table holds plain rows to read)."""
    cached = snapshot.seat_objects(s, g)
    if cached is not None:
        return cached
    return list(s.exec(select(Seat).where(Seat.game_id == g.id).order_by(col(Seat.position))).all())


def seat_row(s: Session, g: Game, seat: str, seats: list[Seat] | None = None) -> Seat:
    """`seats`: the game's rows (`seats_of`), if the caller has them already."""
    if seats is None and snapshot.active(s, g):
        seats = seats_of(s, g)
    if seats is None:
        row = s.exec(select(Seat).where(Seat.game_id == g.id, Seat.seat == seat)).first()
    else:
        row = next((r for r in seats if r.seat == seat), None)
    if row is None:
        raise _no_seat(g, seat)
    return row


def _no_seat(g: Game, seat: str) -> NotFound:
    return NotFound(_("game %(game)s has no seat %(seat)s", game=g.public_id, seat=repr(seat)))


def auth_seat(s: Session, g: Game, seat: str, seat_token: str | MailKey, seats: list[Seat] | None = None) -> Seat:
    """A seat link's token, or a MailKey (reply-address token / SIGNON password) from a mail."""
    return _authenticated(g, seat, seat_token, seat_row(s, g, seat, seats))


def auth_table_seat(t: snapshot.Table, seat: str, seat_token: str | MailKey) -> SeatRow | Seat:
    """`auth_seat` on a locked table, answered with the table's row (an order's plain row)."""
    row: SeatRow | Seat | None = next((r for r in t.rows[Seat] if r.seat == seat), None)
    if row is None:
        raise _no_seat(t.game, seat)
    return _authenticated(t.game, seat, seat_token, row)


def _authenticated(g: Game, seat: str, seat_token: str | MailKey, row: L) -> L:
    if isinstance(seat_token, MailKey):
        ok = mail_key_matches(row.seat_token_hash, g.public_id, seat, seat_token)
    else:
        ok = seat_token_matches(row.seat_token_hash, g.public_id, seat, seat_token)
    if not ok:
        raise Forbidden(_("this seat link is not valid (wrong or replaced); ask the moderator for a new one"))
    return row


def auth_admin(g: Game, admin_token: str) -> dict[str, str]:
    """The game's moderator link, or the link of its tournament director. Returns what a
    moderator note records of who acted: nothing for the game's own moderator."""
    if token_matches(g.admin_token_hash, admin_token):
        return {}
    s = object_session(g)
    if isinstance(s, Session) and directs(s, g, admin_token):  # the project's sessions are all SQLModel's
        return {"by": "director"}
    raise Forbidden(f"wrong moderator token for game {g.public_id}")


def directs(s: Session, g: Game, token: str) -> bool:
    """Whether `token` is the link of the director of game `g`."""
    if g.director_id is None:
        return False
    director = s.get(Director, g.director_id)
    return director is not None and token_matches(director.token_hash, token)


def require_running(g: Game) -> None:
    if g.status != "running":
        raise Conflict(_("game %(game)s is %(status)s; orders are accepted only while it runs", game=g.public_id,
                         status=_(g.status)))


# ---------------------------------------------------------------------------- prompts


def sealed_groups(prompts: dict[str, Prompt]) -> dict[str, list[str]]:
    """Open sealed groups: group -> member seats."""
    groups: dict[str, list[str]] = {}
    for seat, p in prompts.items():
        if p.sealed and p.group:
            groups.setdefault(p.group, []).append(seat)
    return groups


def sealed_rows(s: Session, g: Game, group: str) -> dict[str, SealedRow]:
    cached = snapshot.rows(s, g, SealedOrder)
    if cached is None:
        cached = gamelock.sealed_of(s, id_of(g))
    return {r.seat: r for r in cached if r.group == group}


# ---------------------------------------------------------------------------- the record


def last_hash(s: Session, g: Game) -> str:
    if g.record_length == 0:
        return GENESIS
    known = snapshot.known_hash(s, g)
    if known is not None:
        return known
    row = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.seq == g.record_length - 1))
    entry = row.first()
    assert entry is not None, "record_length and record rows disagree"
    return entry.hash


def append_entry(
    s: Session, g: Game, kind: str, data: dict[str, Any], state: dict[str, Any], events: list[dict[str, Any]]
) -> RecordEntry:
    """Append one chained entry (hashing reused from adjudicator.record) and update the caches."""
    state_hash = hash_state(state)  # sha256_hex(state), encoded by orjson
    entry: dict[str, Any] = {"index": g.record_length, "kind": kind, "data": data, "prev": last_hash(s, g),
                             "state_hash": state_hash}
    # a locked table holds the game's id (read with the lock); a game locked alone answers its row's
    table = snapshot.kept_table(s, g)
    row = RecordEntry(
        game_id=id_of(g) if table is None else table.game_id, seq=entry["index"], kind=kind, data=data,
        prev=entry["prev"], state_hash=state_hash, hash=entry_hash(entry), events=events,
    )
    s.add(row)
    if g.undo_seat or g.undo_from is not None:  # any entry ends the steps a seat may take back
        g.undo_seat, g.undo_from = "", None  # (record_orders and undo.py set them again when it is theirs)
    g.state = state  # a new object, so the JSON column is marked dirty
    g.state_hash = state_hash
    g.record_length += 1
    g.updated_at = utcnow()
    s.add(g)
    snapshot.appended(s, g, row)  # no flush here: the writes of a use case go out together
    return row


def append_note(s: Session, g: Game, action: str, now: datetime | None = None, **data: Any) -> RecordEntry:
    """A moderator action: a `note` entry (state unchanged) plus a ModeratorAction row."""
    if g.state is None:
        raise Conflict(f"game {g.public_id} has not started; there is no record to note {action} in")
    row = append_entry(s, g, "note", {"action": action, **data}, g.state, [])
    s.add(ModeratorAction(game_id=id_of(g), action=action, data=data, at=now or utcnow()))
    return row
