"""Standing orders that can never be used again: dropped, and told in the seat's next mail.

A queued line may become impossible as the game goes on (1960: a card removed from the game);
the game says so (`GameModule.never_legal`). Such a line is taken out of use at once (its row
keeps the reason in `dropped`, seen only by its seat) and the seat's next mail lists it, after
which the row is deleted. Lines a game cannot judge stay queued, as documented.
"""

from __future__ import annotations

import json

from sqlmodel import Session, col, select

from adjudicator.engine import GameModule
from adjudicator.i18n import _, prompt_text
from adjudicator.store import Game, StandingOrder


def drop_never_legal(game: GameModule, g: Game, rows: list[StandingOrder]) -> list[StandingOrder]:
    """`rows` (one seat's queued lines) without those that can never be legal again, which are
    marked dropped (the caller's session writes them)."""
    if not rows or g.state is None:
        return rows
    kept = []
    for row in rows:
        why = game.never_legal(g.state, row.seat, row.text)
        if why is None:
            kept.append(row)
        else:
            row.dropped = json.dumps(why)[:500]  # the msgid and values: the mail words it in the seat's language
    return kept


def dropped_rows(s: Session, g: Game, seat: str) -> list[StandingOrder]:
    """The seat's dropped standing orders, read (a caller without the game's table)."""
    return list(s.exec(select(StandingOrder).where(StandingOrder.game_id == g.id, StandingOrder.seat == seat,
                                                   col(StandingOrder.dropped) != "")
                       .order_by(col(StandingOrder.id))))


def dropped_lines(s: Session, rows: list[StandingOrder], seat: str) -> list[str]:
    """Markdown lines for the seat's dropped standing orders among `rows` (then deleted: told once)."""
    lines = []
    for row in sorted((r for r in rows if r.seat == seat and r.dropped), key=lambda r: r.id or 0):
        lines.append("- " + _("Your standing order `%(line)s` was dropped: %(reason)s.", line=row.text,
                              reason=_reason(row.dropped)))
        s.delete(row)
    return lines


def _reason(stored: str) -> str:
    try:
        msgid, values = json.loads(stored)
        return prompt_text("", (msgid, values))
    except (ValueError, TypeError):  # a cut or hand-edited value: shown as it is
        return stored
