"""Creating, joining and starting games."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import Any

from sqlmodel import Session, select

from adjudicator.engine import IllegalOrder, get_game
from adjudicator.i18n import DEFAULT, LANGUAGES, _
from adjudicator.mail.headers import one_line
from adjudicator.record import derive_seed, seed_commitment, setup_data
from adjudicator.store import Game, Person, Seat
from adjudicator.store.typed import id_of

from ..common import verified
from ..common.clientbounds import count_client
from ..common.clock import check_timezone, utcnow
from ..common.content import keep_builtin_content, load_installed
from ..common.core import append_entry as _append_entry
from ..common.core import auth_admin, locked_game, module_of, seat_row, seats_of
from ..common.errors import Conflict, Forbidden, NotFound, ServiceError
from ..common.snapshot import table_of
from ..common.tokens import hash_token, new_public_id, new_token, token_matches
from ..common.types import CreatedGame, DeadlinePolicy, JoinedSeat, Task
from ..moderation.directors import auth_director
from ..play import notify
from ..play.pace import settle

MAX_ENTROPY = 256


def create_game(
    s: Session,
    game: str = "doge",
    seats: int = 4,
    options: dict[str, Any] | None = None,
    title: str = "",
    policy: DeadlinePolicy | None = None,
    publish_press: bool = False,
    director: tuple[str, str] | None = None,
    language: str = DEFAULT,
    client: str | None = None,
    signed_in: bool = False,
) -> CreatedGame:
    """A pending game. `director`: (director id, director token) of the tournament it belongs to;
    that director's link then moderates it too. `language`: of its pages, and of mails to seats that
    choose none (adjudicator.i18n.LANGUAGES). `client`: the asking web client's address, counted
    against its network's bound (clientbounds.py; `signed_in`: the higher one)."""
    try:
        module = get_game(game)
    except KeyError as exc:
        raise NotFound(str(exc.args[0])) from None
    info = module.info
    load_installed(s)  # installed boards and decks are choices too
    if not info.min_seats <= seats <= info.max_seats:
        raise ServiceError(f"{info.title} takes {info.min_seats} to {info.max_seats} players, not {seats}")
    try:
        resolved = info.resolve_options(options)
        # A trial setup (pure and cheap) refuses option and seat-count combinations the game
        # cannot start with now, instead of at the last player's join.
        module.setup("trial", module.seat_names(seats, resolved), resolved)
    except IllegalOrder as exc:
        raise ServiceError(str(exc)) from None
    if language not in LANGUAGES:
        raise ServiceError(_("language must be one of %(codes)s", codes=", ".join(LANGUAGES)))
    director_row = auth_director(s, *director) if director else None
    policy = policy or DeadlinePolicy()
    check_timezone(policy.timezone)
    if not 0 <= policy.follow_up <= 60 * 24 * 3600 or not 0 <= policy.disorder_after <= 100:
        raise ServiceError("the follow-up period must be 0 to 1440 hours and civil disorder 0 to 100 missed deadlines")
    if not 0 <= policy.max_absence_days <= 366:
        raise ServiceError("the longest absence must be between 0 and 366 days")
    if client is not None:
        count_client(s, client, "create", signed_in, utcnow())
    public_id = new_public_id()
    while s.exec(select(Game.id).where(Game.public_id == public_id)).first() is not None:
        public_id = new_public_id()
    server_seed = secrets.token_hex(32)
    admin_token = new_token()
    g = Game(
        public_id=public_id, game_type=game, options=resolved, title=one_line(title, 200) or info.title,
        seat_count=seats, server_seed=server_seed, seed_commitment=seed_commitment(server_seed),
        admin_token_hash=hash_token(admin_token), step_seconds=policy.step,
        follow_up_seconds=policy.follow_up, disorder_after=policy.disorder_after,
        reminder_seconds=policy.reminder, timezone=policy.timezone, grace_minutes=policy.grace_minutes,
        max_absence_days=policy.max_absence_days,
        substitutes=policy.substitutes if policy.substitutes is not None else director_row is None,
        publish_press=publish_press, director_id=director_row.id if director_row else None,
        language=language,
    )
    s.add(g)
    s.flush()
    invites: dict[str, str] = {}
    for position, name in enumerate(module.seat_names(seats, resolved)):
        invites[name] = new_token()
        s.add(Seat(game_id=id_of(g), seat=name, position=position, invite_token_hash=hash_token(invites[name])))
    s.flush()
    return CreatedGame(public_id, admin_token, invites)


def _person(s: Session, email: str, name: str) -> int | None:
    if not email:
        return None
    person = s.exec(select(Person).where(Person.email == email)).first()
    if person is None:
        person = Person(email=email, name=name)
        s.add(person)
        s.flush()
    return person.id


def join_game(
    s: Session,
    game_id: str,
    seat: str,
    invite_token: str,
    name: str,
    email: str = "",
    entropy: str = "",
    now: datetime | None = None,
    timezone: str = "",
    language: str = "",
    client: str | None = None,
    signed_in: bool = False,
) -> JoinedSeat:
    """Take a seat with its (single-use) invitation. Filling the last seat starts the game; joining a
    running game is how a replacement player takes over (their entropy is then ignored). `client`,
    `signed_in`: as for `create_game`."""
    now = now or utcnow()
    g = locked_game(s, game_id)
    row = seat_row(s, g, seat)
    if g.status == "finished":
        raise Conflict(f"game {game_id} is over; seats can no longer be taken")
    if not token_matches(row.invite_token_hash, invite_token):
        raise Forbidden("this invitation is not valid or was already used; ask the moderator for a new one")
    if client is not None:
        count_client(s, client, "join", signed_in, now)
    seat_token = new_token()
    row.seat_token_hash = hash_token(seat_token)
    row.invite_token_hash = None  # single use
    row.display_name = one_line(name, 100) or seat  # names and titles reach mail headers: one line
    row.email = one_line(email)
    row.language = language if language in LANGUAGES else ""  # "": the game's
    row.person_id = _person(s, row.email, row.display_name)
    if timezone.strip():  # the player's own zone for pages and mails ("" keeps the game's)
        row.timezone = check_timezone(timezone.strip())
    if g.status == "pending":
        row.entropy = entropy[:MAX_ENTROPY]
    row.joined_at = now
    row.missed, row.disorder, row.resigned = 0, False, False  # a replacement starts afresh
    row.held_by_substitute = False  # a player takes over a seat the substitute held
    row.mailed_seq = 0  # a replacement's first mail: how to play by mail and what happened lately
    s.add(row)
    s.flush()
    tasks: list[Task] = []
    if row.email and not verified.is_verified(s, row.email):  # asked now, while the player is here
        tasks += notify.confirmation_request(s, g, row)
    started = False
    if g.status == "pending" and all(r.seat_token_hash for r in seats_of(s, g)):
        tasks += start_seated(s, g, now)
        started = True
    return JoinedSeat(game_id, seat, seat_token, started, tasks)


def start_game(s: Session, game_id: str, admin_token: str, now: datetime | None = None) -> list[Task]:
    """Start a pending game whose seats are all taken (normally the last join does this)."""
    g = locked_game(s, game_id)
    auth_admin(g, admin_token)
    if g.status != "pending":
        raise Conflict(f"game {game_id} has already started")
    empty = [r.seat for r in seats_of(s, g) if not r.seat_token_hash]
    if empty:
        raise Conflict(f"seats still empty: {', '.join(empty)}; every seat must be taken first")
    return start_seated(s, g, now or utcnow())


def start_seated(s: Session, g: Game, now: datetime) -> list[Task]:
    """Start a pending game whose seats are all taken (the game is locked by the caller)."""
    module = module_of(g)
    seats = seats_of(s, g)
    names = [r.seat for r in seats]
    entropy = [r.entropy for r in seats]  # seat order, so anyone can re-derive the seed
    step = module.setup(derive_seed(g.server_seed, entropy), names, g.options)
    data = setup_data(module, g.options, names, g.seed_commitment, entropy)
    keep_builtin_content(s, g)
    _append_entry(s, g, "setup", data, step.state, step.events)
    g.status = "running"
    if not module.prompts(step.state):  # a game that is over before anyone moves (only degenerate test games)
        g.status = "finished"
    s.add(g)
    return settle(s, table_of(s, g), now, started=True)
