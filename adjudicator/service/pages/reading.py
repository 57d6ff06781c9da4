"""Read-only use cases: game list, public page, seat page, record export."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, col, func, select

from adjudicator.engine import GameModule, Prompt
from adjudicator.i18n import _, help_text, prompt_text, translate
from adjudicator.record.chain import export_document, must_withhold, redact_entries
from adjudicator.store import Game, RecordEntry, Seat

from ..common import verified
from ..common.clock import as_utc, format_deadline, utcnow
from ..common.core import (
    append_note,
    auth_admin,
    auth_seat,
    current_prompts,
    find_game,
    locked_game,
    module_of,
    sealed_groups,
    sealed_rows,
    seats_of,
)
from ..common.errors import Conflict, Forbidden
from ..common.snapshot import table_of
from ..common.tokens import MailKey, token_matches
from ..common.types import GameFeed, GameSummary, LogLine, LogPage, PublicPage, Receipt, SeatInfo, SeatPage
from ..history.gamelog import log_entries, render_entries, undone_seqs
from ..history.live import public_version, seat_version_of
from ..history.outcomes import outcome_of
from ..history.undoable import sealed_by_others, steps_to_take_back, why_not
from ..play.absence import absence_of
from ..play.orders import formatted_choices
from ..play.pace import owed_seats
from ..play.prompttoken import token_for
from ..play.standing import lines_of


def list_games(s: Session) -> list[GameSummary]:
    joined = dict(
        s.exec(
            select(Seat.game_id, func.count(col(Seat.id))).where(col(Seat.seat_token_hash).is_not(None))
            .group_by(col(Seat.game_id))
        ).all()
    )
    games = s.exec(select(Game).order_by(col(Game.created_at).desc())).all()
    return [
        GameSummary(g.public_id, g.game_type, g.title, g.status, g.seat_count, joined.get(g.id or 0, 0),
                    as_utc(g.due_at), as_utc(g.created_at))
        for g in games
    ]


# Record entries whose log lines a game or seat page carries: a page costs the same at entry 40
# and at entry 4,000 (the older lines are on the paged log, LOG_PAGE_ENTRIES entries a page).
LOG_ON_PAGE = 40
LOG_PAGE_ENTRIES = 250


def log_page_start(index: int) -> int:
    """The first entry of the paged log's page that holds entry `index` (a feed item's link)."""
    return index // LOG_PAGE_ENTRIES * LOG_PAGE_ENTRIES


def log_page_starts(record_length: int) -> range:
    """The first entry of each page of a paged log of this length (the static archive's pages)."""
    return range(0, record_length, LOG_PAGE_ENTRIES)


def game_log(s: Session, g: Game, game: GameModule, seat: str | None, newest: int | None = None) -> list[LogLine]:
    """The rendered log `seat` may see (None: the public log); `newest`: of the last entries only."""
    return [line for entry in log_entries(s, g, game, seat, newest) for line in entry.lines]


def _log_page(s: Session, g: Game, seat: str | None, start: int | None, timezone: str = "") -> LogPage:
    """Record entries [start, start + LOG_PAGE_ENTRIES); start None is the newest page (pages
    start at multiples of LOG_PAGE_ENTRIES, so their links stay the same as the game grows)."""
    total = g.record_length
    last_start = max(0, (total - 1) // LOG_PAGE_ENTRIES * LOG_PAGE_ENTRIES)
    first = last_start if start is None else min(max(0, start), max(0, total - 1))
    end = min(total, first + LOG_PAGE_ENTRIES)
    query = (select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.seq >= first, RecordEntry.seq < end)
             .order_by(col(RecordEntry.seq)))
    game = module_of(g)
    lines = [line for entry in render_entries(s.exec(query), game, seat, undone_seqs(s, g)) for line in entry.lines]
    return LogPage(g.public_id, g.game_type, g.title, g.status, lines, first, end, total, LOG_PAGE_ENTRIES,
                   timezone or g.timezone)


def public_log(s: Session, game_id: str, start: int | None = None) -> LogPage:
    """One page of the public log (the newest page unless `start` names an entry index)."""
    return _log_page(s, find_game(s, game_id), None, start)


def seat_log(s: Session, game_id: str, seat: str, seat_token: str | MailKey, start: int | None = None) -> LogPage:
    """One page of the log as the seat sees it (its own private lines included)."""
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    return _log_page(s, g, seat, start, row.timezone)


def public_feed(s: Session, game_id: str, newest: int = 50) -> GameFeed:
    """The public log of the newest record entries, newest first (the game's Atom feed)."""
    g = find_game(s, game_id)
    game = module_of(g)
    entries = [e for e in reversed(log_entries(s, g, game, None, newest)) if e.lines]
    return GameFeed(g.public_id, g.game_type, g.title, g.status, entries)


def _seat_infos(s: Session, g: Game) -> list[SeatInfo]:
    over = g.status == "finished"  # civil disorder ends with the game: nothing is left to default
    return [SeatInfo(r.seat, r.display_name, bool(r.seat_token_hash), r.disorder and not over, r.missed)
            for r in seats_of(s, g)]


def _outcome(s: Session, g: Game) -> dict[str, Any] | None:
    out = outcome_of(s, g)
    if out is None:
        return None
    return {**out.to_json(), "summary": prompt_text(out.summary, out.message)}  # in the reader's language


def public_game(s: Session, game_id: str) -> PublicPage:
    g = find_game(s, game_id)
    game = module_of(g)
    prompts = current_prompts(g)
    view = game.view(g.state, None) if g.state is not None else {}
    markdown = game.render_view_in(view, None, translate) if g.state is not None else "*" + _(
        "Waiting for players to join.") + "*"
    commitments = _commitments(s, g, prompts)
    thinking = _thinking(s, g)
    waiting = [seat for seat in prompts if seat not in commitments and seat not in thinking]
    groups = sealed_groups(prompts)
    over = g.status == "finished"
    return PublicPage(
        game_id=g.public_id, game=g.game_type, title=g.title, status=g.status, view=view,
        markdown=markdown, waiting=sorted(waiting), sealed_group=next(iter(groups), None),
        commitments=commitments, log=game_log(s, g, game, None, LOG_ON_PAGE), outcome=_outcome(s, g),
        seed_commitment=g.seed_commitment, server_seed=g.server_seed if over else None,
        deadline=as_utc(g.due_at), deadline_text=format_deadline(g.due_at, g.timezone),
        seats=_seat_infos(s, g), record_length=g.record_length, options=dict(g.options),
        log_earlier=g.record_length > LOG_ON_PAGE,
        tournament=_tournament(s, g), timezone=g.timezone, version=public_version(s, g), thinking=thinking,
    )


def _commitments(s: Session, g: Game, prompts: dict[str, Prompt]) -> dict[str, str]:
    """seat -> receipt of the sealed orders received in the open sealed groups."""
    commitments: dict[str, str] = {}
    for group in sealed_groups(prompts):
        commitments.update({seat: r.commitment for seat, r in sorted(sealed_rows(s, g, group).items())})
    return commitments


def _waiting_on(s: Session, g: Game, prompts: dict[str, Prompt]) -> list[str]:
    """The seats the game waits on now (a seat whose sealed order is in waits no more)."""
    if g.status != "running":
        return []
    done = _commitments(s, g, prompts)
    thinking = _thinking(s, g)
    return sorted(seat for seat in prompts if seat not in done and seat not in thinking)


def _thinking(s: Session, g: Game) -> list[str]:
    """Seats whose move the substitute owes and a worker is thinking out (service/play/substitutes.py)."""
    return owed_seats(table_of(s, g)) if g.substitute_at is not None else []


def _tournament(s: Session, g: Game) -> tuple[str, str] | None:
    from adjudicator.store import Director

    director = s.get(Director, g.director_id) if g.director_id is not None else None
    return (director.public_id, director.name) if director is not None else None


def _prompt_json(prompt: Prompt) -> dict[str, Any]:
    """The prompt for the seat's page, its text in the reader's language (the token is made from
    the prompt itself, so the language never changes it)."""
    data = prompt.to_json()
    data["text"] = prompt_text(prompt.text, prompt.message)
    return data


def seat_state(s: Session, game_id: str, seat: str, seat_token: str | MailKey) -> SeatPage:
    g = find_game(s, game_id)
    row = auth_seat(s, g, seat, seat_token)
    game = module_of(g)
    # a paused game shows the pending decision, marked paused (no order is accepted meanwhile)
    prompts = current_prompts(g)
    prompt = prompts.get(seat) if g.status in ("running", "paused") else None
    view = game.view(g.state, seat) if g.state is not None else {}
    markdown = game.render_view_in(view, seat, translate) if g.state is not None else "*" + _(
        "Waiting for players to join.") + "*"
    receipt = None
    if prompt is not None and prompt.sealed and prompt.group:
        sealed = sealed_rows(s, g, prompt.group).get(seat)
        if sealed is not None:
            receipt = Receipt(sealed.commitment, game.format_order(sealed.order), seat, sealed.group,
                              as_utc(sealed.submitted_at))
    return SeatPage(
        game_id=g.public_id, game=g.game_type, title=g.title, seat=row.seat, status=g.status, view=view,
        markdown=markdown, prompt=_prompt_json(prompt) if prompt else None,
        choices=formatted_choices(game, prompt), prompt_token=token_for(g, seat, prompt),
        receipt=receipt, deadline=as_utc(g.due_at), deadline_text=_seat_deadline(g, row),
        log=game_log(s, g, game, seat, LOG_ON_PAGE), over=g.status == "finished", outcome=_outcome(s, g),
        grammar_help=help_text(game.grammar_help()), seats=_seat_infos(s, g),
        absence=_absence_text(g, row), delivery_problem=delivery_problem(s, g, row),
        standing=lines_of(s, g, seat), disorder=row.disorder and g.status != "finished", paused=g.status == "paused",
        log_earlier=g.record_length > LOG_ON_PAGE, waiting=_waiting_on(s, g, prompts),
        timezone=row.timezone or g.timezone, version=seat_version_of(s, g, row), thinking=_thinking(s, g),
        budget=prompt_text("", budget) if prompt is not None and (budget := game.budget(view, seat)) else "",
        **_undo_of(s, g, seat, game),
    )


def _undo_of(s: Session, g: Game, seat: str, game: GameModule) -> dict[str, Any]:
    """The seat's steps it may take back (newest first), or why its own newest step may not be."""
    if g.status != "running":
        return {}
    steps = steps_to_take_back(s, g, seat)[1]
    if steps and (others := sealed_by_others(s, g, seat)):
        return {"undo_refusal": _("%(seats)s sent a sealed order since, so your step stands", seats=", ".join(others))}
    if steps:
        return {"undo_steps": [game.format_order(r.data["orders"][seat]) for r in reversed(steps)]}
    return {"undo_refusal": why_not(s, g, seat, own_only=True)}


def _seat_deadline(g: Game, row: Seat) -> str:
    """The deadline in the seat's own time zone, with the game's beside it when they differ."""
    mine = format_deadline(g.due_at, row.timezone or g.timezone)
    if g.due_at is None or not row.timezone or row.timezone == g.timezone:
        return mine
    return _("%(mine)s (game time %(game)s)", mine=mine, game=format_deadline(g.due_at, g.timezone))


def seat_decision(s: Session, game_id: str, seat: str, seat_token: str) -> tuple[dict[str, Any] | None, bool]:
    """The seat's open decision (Prompt.to_json()) and whether its sealed order is already in; a
    cheap form of `seat_state` for tools that do not need the board or the log."""
    g = find_game(s, game_id)
    auth_seat(s, g, seat, seat_token)
    prompt = current_prompts(g).get(seat) if g.status == "running" else None
    if prompt is None:
        return None, False
    sealed_in = bool(prompt.sealed and prompt.group and seat in sealed_rows(s, g, prompt.group))
    return prompt.to_json(), sealed_in


def _absence_text(g: Game, row: Seat) -> str:
    absence = absence_of(g, row)
    return absence.text if absence is not None and absence.until > utcnow() else ""


def delivery_problem(s: Session, g: Game, row: Seat) -> str:
    """Our newest failed or bounced mail to the seat's current address, unless the seat has mailed
    us since (which shows the address works). Only this seat's rows are read."""
    from adjudicator.store import InboxMessage, OutboxMessage

    if not row.email:
        return ""
    if not verified.is_verified(s, row.email):
        return _("The game's mails to %(address)s wait until you confirm it: open the link in our mail \"Confirm "
                 "your address for game %(game)s\" (or reply to that mail), or sign in with this address.",
                 address=row.email, game=g.public_id)
    bad = s.exec(select(OutboxMessage).where(
        OutboxMessage.game_id == g.id, OutboxMessage.seat == row.seat, OutboxMessage.to == row.email,
        col(OutboxMessage.channel) == "mail", col(OutboxMessage.status).in_(("failed", "bounced")))
        .order_by(col(OutboxMessage.id).desc())).first()
    if bad is None:
        return ""
    heard = s.exec(select(InboxMessage.id).where(
        InboxMessage.game_id == g.id, InboxMessage.seat == row.seat, InboxMessage.status == "done",
        InboxMessage.received_at > bad.created_at)).first()
    if heard is not None:
        return ""
    reason = bad.last_error or bad.status
    return (f"Our last mail to you ({bad.to}, \"{bad.subject}\") {'bounced' if bad.status == 'bounced' else 'failed'}: "
            f"{reason} — check your address.")


def _record_entries(s: Session, g: Game) -> list[dict[str, Any]]:
    if g.record_length == 0:
        raise Conflict(f"game {g.public_id} has not started yet; there is no record to export")
    rows = s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id).order_by(col(RecordEntry.seq)))
    return [r.to_entry() for r in rows]


def export_record(s: Session, game_id: str) -> dict[str, Any]:
    """The public `pbem-record/1` document. Once the game is finished: the complete record and the
    server seed. While it runs: commitments, not contents (`redact_entries` withholds sealed
    groups and server-chosen defaults, which may carry hidden values)."""
    g = find_game(s, game_id)
    entries = _record_entries(s, g)
    if g.status == "finished":
        return export_document(module_of(g), entries, g.server_seed)
    redacted, withheld = redact_entries(entries)
    return export_document(module_of(g), redacted, None, withheld)


def full_record(s: Session, game_id: str, admin_token: str, now: datetime | None = None) -> dict[str, Any]:
    """For the moderator: the complete record (sealed orders and salts included; the seed only
    once the game is over). While the game runs this is audited: a `full_record_export` note
    goes into the record, so every player sees in the log that the moderator read it."""
    g = locked_game(s, game_id)
    by = auth_admin(g, admin_token)
    entries = _record_entries(s, g)
    over = g.status == "finished"
    if not over and any(must_withhold(e) for e in entries):
        append_note(s, g, "full_record_export", now or utcnow(), **by)
        entries = _record_entries(s, g)
    return export_document(module_of(g), entries, g.server_seed if over else None)


def check_invite(s: Session, game_id: str, seat: str, invite_token: str) -> dict[str, Any]:
    """Is this invitation link valid? (The join page, before the form.) Raises Forbidden if not."""
    g = find_game(s, game_id)
    row = s.exec(select(Seat).where(Seat.game_id == g.id, Seat.seat == seat)).first()
    if row is None or not token_matches(row.invite_token_hash, invite_token):
        raise Forbidden("this invitation is not valid or was already used; ask the moderator for a new one")
    return {"title": g.title, "status": g.status, "game": g.game_type, "seat": seat, "timezone": g.timezone}


def admin_page(s: Session, game_id: str, admin_token: str) -> PublicPage:
    """The public page, after checking the moderator token (the moderator's view of a game)."""
    auth_admin(find_game(s, game_id), admin_token)
    return public_game(s, game_id)


def mail_log(s: Session, game_id: str, admin_token: str, limit: int = 100) -> dict[str, list[dict[str, Any]]]:
    """For the moderator: the game's recent inbound mail with its DKIM/SPF signals, and outgoing
    mail that failed or still waits."""
    from adjudicator.store import InboxMessage, OutboxMessage

    g = find_game(s, game_id)
    auth_admin(g, admin_token)
    inbound = s.exec(select(InboxMessage).where(InboxMessage.game_id == g.id)
                     .order_by(col(InboxMessage.id).desc()).limit(limit)).all()
    outbound = s.exec(select(OutboxMessage).where(OutboxMessage.game_id == g.id, col(OutboxMessage.status).in_(
        ("failed", "bounced", "pending", "sending"))).order_by(col(OutboxMessage.id).desc()).limit(limit)).all()
    return {
        "inbound": [{"received": as_utc(m.received_at), "from": m.from_addr, "seat": m.seat, "status": m.status,
                     "outcome": m.outcome, "via": m.auth.get("via", ""), "dkim": m.auth.get("dkim", ""),
                     "spf": m.auth.get("spf", ""), "reused": m.auth.get("reused", 0)} for m in inbound],
        "outbound": [{"to_seat": m.seat, "to": m.to if m.channel == "mail" else "chat webhook",
                      "subject": m.subject, "status": m.status, "attempts": m.attempts,
                      "error": m.last_error, "created": as_utc(m.created_at)} for m in outbound],
    }
