"""A seat's own settings: delivery (every step / daily digest / off, chat webhook, time zone) and
resigning. Absences are in `absence.py`."""

from __future__ import annotations

from datetime import datetime

from sqlmodel import Session, col, select

from adjudicator.i18n import LANGUAGES, _, normal
from adjudicator.store import Game, Seat

from ..common.clock import check_timezone, utcnow
from ..common.core import append_note, auth_seat, find_game, locked_game
from ..common.errors import Conflict, ServiceError
from ..common.snapshot import table_of
from ..common.tokens import MailKey, seat_token_matches
from ..common.types import Task
from ..play.pace import settle
from .webhooks import WebhookUrlError, check_url

MAIL_MODES = ("each", "digest", "off")


def language_of(s: Session, game_id: str, seat: str | None = None, seat_token: str | None = None) -> str:
    """The language a game's pages are shown in: the seat's own choice (only with the seat's valid
    link: a seat's choice is its own business), else the game's."""
    # one query (every page and POST of a seat asks this before its own work)
    found = s.exec(select(Game.language, Seat.language, Seat.seat_token_hash).select_from(Game)
                   .outerjoin(Seat, (col(Seat.game_id) == Game.id) & (col(Seat.seat) == (seat or "")))
                   .where(Game.public_id == game_id)).first()
    if found is None:
        return normal(find_game(s, game_id).language)  # raises NotFound, with its message
    game_language, seat_language, token_hash = found
    if seat and seat_token and seat_language and seat_token_matches(token_hash, game_id, seat, seat_token):
        return normal(seat_language)
    return normal(game_language)


def seat_settings(s: Session, game_id: str, seat: str, seat_token: str | MailKey) -> dict[str, str]:
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    return {"mail_mode": row.mail_mode, "chat_webhook": row.chat_webhook, "timezone": row.timezone,
            "email": row.email, "max_absence_days": str(g.max_absence_days), "language": row.language,
            "game_language": normal(g.language)}


def update_settings(s: Session, game_id: str, seat: str, seat_token: str | MailKey, mail_mode: str,
                    chat_webhook: str = "", timezone: str = "", language: str | None = None) -> None:
    """`language`: the seat's language code, "" for the game's; None leaves it as it is."""
    row = auth_seat(s, locked_game(s, game_id), seat, seat_token)
    if mail_mode not in MAIL_MODES:
        raise ServiceError(_("delivery must be one of %(modes)s", modes=", ".join(MAIL_MODES)))
    try:
        hook = check_url(chat_webhook)  # https, a public address: never the server's own network
    except WebhookUrlError as exc:
        raise ServiceError(str(exc)) from None
    if timezone.strip():
        check_timezone(timezone.strip())
    if language is not None and language.strip() and language.strip() not in LANGUAGES:
        raise ServiceError(_("language must be one of %(codes)s", codes=", ".join(LANGUAGES)))
    row.mail_mode, row.chat_webhook, row.timezone = mail_mode, hook, timezone.strip()
    if language is not None:
        row.language = language.strip()
    s.add(row)


def resign(s: Session, game_id: str, seat: str, seat_token: str | MailKey,
           now: datetime | None = None) -> list[Task]:
    """The seat stays in the game until the moderator replaces it; its decisions take the default
    at once (nobody waits for a player who left)."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    if g.status == "finished":
        raise Conflict(_("game %(game)s is over", game=game_id))
    if row.resigned:
        return []
    row.resigned = True
    s.add(row)
    if g.state is None:
        return []
    append_note(s, g, "resign", now, seat=seat)
    return settle(s, table_of(s, g), now) if g.status == "running" else []
