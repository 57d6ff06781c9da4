"""Daily digests: the held mails of a seat that chose "digest" become one mail per game."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from adjudicator.i18n import _, language
from adjudicator.mail import compose
from adjudicator.render.markdown import markdown_blocks_to_html
from adjudicator.store import Game, OutboxMessage

from ..common.clock import utcnow
from ..common.core import seat_row
from ..common.types import Task
from . import notify


def send_digests(s: Session, now: datetime | None = None) -> list[Task]:
    now = now or utcnow()
    held = s.exec(select(OutboxMessage).where(OutboxMessage.status == "held").order_by(col(OutboxMessage.id))).all()
    groups: dict[tuple[int | None, str, str], list[OutboxMessage]] = {}
    for row in held:
        groups.setdefault((row.game_id, row.to, row.seat), []).append(row)
    tasks: list[Task] = []
    for (game_id, to, seat), rows in groups.items():
        g = s.get(Game, game_id) if game_id else None
        code = notify.seat_language(g, seat_row(s, g, seat)) if g and seat else None
        with language(code):  # the held mails are in the seat's language already; so is their wrapper
            parts = ["# " + _("Daily digest: %(count)s message(s)", count=len(rows)), ""]
            subject = _("[%(game)s] daily digest", game=g.public_id) if g else _("daily digest")
        html: list[str] = [markdown_blocks_to_html("\n".join(parts))]
        for row in rows:
            parts += ["---", "", f"**{row.subject}**", "", row.body, ""]
            html += [markdown_blocks_to_html(f"---\n\n**{row.subject}**"),
                     row.html if row.html is not None else markdown_blocks_to_html(row.body)]
            row.status = "digested"
            s.add(row)
        # the seat's own reply address, never a press mail's: a reply to the digest is read as orders
        reply_to = notify.reply_address(g, seat_row(s, g, seat)) if g and seat else ""
        hdrs = compose.headers(g.public_id if g else None, seat, reply_to)
        # its HTML part joins the held mails' own (a press mail's is built from the stored press)
        task = notify.queue_mail(s, g, to, subject, "\n".join(parts), kind="digest", seat=seat,
                                 html="\n".join(html) if any(r.html is not None for r in rows) else None, **hdrs)
        if task:
            tasks.append(task)
    return tasks
