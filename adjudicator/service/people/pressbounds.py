"""How much press a game carries in an hour: per sending seat, per game, per receiving seat, and
the moderator's broadcasts (docs/security.md, "Bounds"). Each mail of press carries one person's
words to other people's addresses, so these bound what one player (or one stranger holding a
seat) can send through the server. A refused message is not stored: the refusal says when it may
be sent again."""

from __future__ import annotations

import os
from datetime import datetime, timedelta

from sqlmodel import Session, select

from adjudicator.i18n import _
from adjudicator.store import Game, Press

from ..common.clock import as_utc, format_deadline, window_free_at
from ..common.errors import TooMany

WINDOW = timedelta(hours=1)
PER_SEAT = int(os.environ.get("PBEM_PRESS_PER_SEAT_HOUR", "30"))
PER_GAME = int(os.environ.get("PBEM_PRESS_PER_GAME_HOUR", "120"))
PER_RECIPIENT = int(os.environ.get("PBEM_PRESS_PER_RECIPIENT_HOUR", "60"))
BROADCASTS = int(os.environ.get("PBEM_BROADCASTS_PER_GAME_HOUR", "10"))


def check_press(s: Session, g: Game, sender: str, recipients: list[str], now: datetime, timezone: str,
                moderator: bool = False) -> None:
    """Refuse (TooMany, with the time it may be sent) press from `sender` to `recipients` past a
    bound of the last hour; `timezone`: the sender's, for that time."""
    rows = s.exec(select(Press.sender, Press.recipients, Press.created_at)
                  .where(Press.game_id == g.id, Press.created_at >= now - WINDOW)).all()
    times = [as_utc(at) for _sender, _to, at in rows]
    mine = [as_utc(at) for who, _to, at in rows if who == sender]
    checks = [(window_free_at(mine, BROADCASTS if moderator else PER_SEAT, WINDOW),
               _("you sent %(count)s messages in the last hour, the most a game allows", count=len(mine))),
              (window_free_at(times, PER_GAME, WINDOW),
               _("this game carried %(count)s press messages in the last hour, the most it allows", count=len(times)))]
    for seat in recipients:
        got = [as_utc(at) for _who, to, at in rows if seat in (to or [])]
        checks.append((window_free_at(got, PER_RECIPIENT, WINDOW),
                       _("%(seat)s received %(count)s press messages in the last hour, the most a seat may",
                         seat=seat, count=len(got))))
    for free_at, why in checks:
        if free_at is not None:
            raise TooMany(_("Not sent: %(why)s. You may send it again from %(time)s.", why=why,
                            time=format_deadline(free_at, timezone)), free_at)
