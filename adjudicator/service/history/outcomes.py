"""A game's outcome: the rules' own, or the result a moderator declared (an adjudicated end).

A declared result is the `declare_result` note that ends the record, so it is found by reading the
game's last entry only; pages, mails, standings and ratings all ask here."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, select

from adjudicator.engine import Outcome
from adjudicator.record import DECLARED_RESULT
from adjudicator.store import Game, RecordEntry

from ..common.core import module_of


def declared_result(s: Session, g: Game) -> dict[str, Any] | None:
    """The data of the moderator's declared result, if this finished game ended by one."""
    if g.status != "finished" or g.record_length == 0:
        return None
    last = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id,
                                            RecordEntry.seq == g.record_length - 1)).first()
    if last is None or last.kind != "note" or last.data.get("action") != DECLARED_RESULT:
        return None
    return last.data


def outcome_of(s: Session, g: Game) -> Outcome | None:
    """The declared result if there is one, else what the rules say of the current state."""
    declared = declared_result(s, g)
    if declared is not None:
        return Outcome(list(declared.get("winners") or []), dict(declared.get("scores") or {}),
                       declared_summary(declared))
    if g.state is None:
        return None
    return module_of(g).outcome(g.state)


def declared_summary(data: dict[str, Any]) -> str:
    from adjudicator.i18n import _

    winners = ", ".join(data.get("winners") or []) or _("nobody")
    return _("Result declared by the moderator: won by %(winners)s. Reason: %(reason)s", winners=winners,
             reason=data.get("reason", ""))
