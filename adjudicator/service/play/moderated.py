"""What every moderator tool of tournament play (rollback, remove a seat, declare a result) does
first: lock the game (game row first, as everywhere), check the moderator's or the director's link,
check that the game is running or paused, and clean the reason the players will read in the log."""

from __future__ import annotations

from sqlmodel import Session

from adjudicator.i18n import _
from adjudicator.store import Game

from ..common.core import auth_admin, locked_game
from ..common.errors import Conflict, ServiceError

MAX_REASON = 500


def moderator_reason(text: str) -> str:
    """The reason a moderator gives for an action: one line, required, bounded."""
    reason = " ".join((text or "").split())
    if not reason:
        raise ServiceError(_("give a reason: the players read it in the game's log"))
    if len(reason) > MAX_REASON:
        raise ServiceError(_("a reason holds at most %(max)s characters", max=MAX_REASON))
    return reason


def game_to_moderate(s: Session, game_id: str, admin_token: str, reason: str,
                     refusal: str) -> tuple[Game, dict[str, str], str]:
    """The locked game, who acts (what the note records: nothing for the game's own moderator) and
    the cleaned reason. `refusal` is an `N_`-marked msgid with %(game)s and %(status)s, said when
    the game is neither running nor paused."""
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    if g.status not in ("running", "paused"):
        raise Conflict(_(refusal, game=game_id, status=_(g.status)))
    return g, by, moderator_reason(reason)
