"""Helpers to set up and play games through the service in tests."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from adjudicator import service, store
from adjudicator.service import DeadlinePolicy, Task
from adjudicator.service.common import verified


@dataclass
class PlayedGame:
    game_id: str
    admin_token: str
    tokens: dict[str, str]  # seat -> seat token
    tasks: list[Task] = field(default_factory=list)  # from the join that started the game

    def submit(self, seat: str, text: str, token: Any = "current", **kw: Any) -> service.Submission:
        """Submit in its own transaction; token="current" fetches the seat's prompt token first.
        The substitute's moves it leads to follow, as a worker plays them after the commit."""
        if token == "current":
            token = self.prompt_token(seat)
        with store.transaction() as s:
            result = service.submit(s, self.game_id, seat, self.tokens[seat], text, token, **kw)
        service.run_substitutes(result.tasks, now=kw.get("now"))
        return result

    def prompt_token(self, seat: str) -> str | None:
        return self.page(seat).prompt_token

    def page(self, seat: str) -> service.SeatPage:
        with store.transaction(write=False) as s:
            return service.seat_state(s, self.game_id, seat, self.tokens[seat])

    def public(self) -> service.PublicPage:
        with store.transaction(write=False) as s:
            return service.public_game(s, self.game_id)

    def reveal(self, group: str) -> list[Task]:
        with store.transaction() as s:
            return service.reveal(s, self.game_id, group)

    def export(self) -> dict[str, Any]:
        """The public export (redacted while the game runs)."""
        with store.transaction(write=False) as s:
            return service.export_record(s, self.game_id)

    def full_export(self) -> dict[str, Any]:
        """The moderator's complete record (leaves a note in the log while the game runs)."""
        with store.transaction() as s:
            return service.full_record(s, self.game_id, self.admin_token)


def verify_addresses(*addresses: str) -> list[Task]:
    """Their owners confirmed these addresses (as a confirmation link or a mail from them does):
    the mails held for them are released (their delivery tasks returned)."""
    tasks: list[Task] = []
    with store.transaction() as s:
        for address in addresses:
            verified.verify_address(s, address)
            tasks += verified.release_held(s, address)
    return tasks


def new_game(
    game: str = "toy",
    seats: int = 3,
    emails: bool = True,
    policy: DeadlinePolicy | None = None,
    options: dict[str, Any] | None = None,
) -> PlayedGame:
    """Create a game and join every seat (which starts it)."""
    with store.transaction() as s:
        created = service.create_game(s, game=game, seats=seats, options=options or {}, title="Test",
                                      policy=policy)
    if emails:  # their owners confirmed them before (signed in): the game's mails go to them
        verify_addresses(*(f"{seat}@example.org" for seat in created.invites))
    tokens: dict[str, str] = {}
    tasks: list[Task] = []
    for i, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            joined = service.join_game(s, created.game_id, seat, invite, name=f"Player {i + 1}",
                                       email=f"{seat}@example.org" if emails else "", entropy=f"e{i}")
        tokens[seat] = joined.seat_token
        tasks += joined.tasks
    return PlayedGame(created.game_id, created.admin_token, tokens, tasks)


def finished_duel(director: service.CreatedDirector | None, names: tuple[str, str], winner_first: bool = True,
                  emails: tuple[str, str] = ("", "")) -> PlayedGame:
    """A one-round toy game between two named players; the first wins (bid 2 against 0) unless
    `winner_first` is False."""
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, options={"rounds": 1}, title=" v ".join(names),
                                      director=(director.director_id, director.token) if director else None)
    tokens = {}
    for (seat, invite), name, email in zip(created.invites.items(), names, emails, strict=True):
        with store.transaction() as s:
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, name=name, email=email).seat_token
    game = PlayedGame(created.game_id, created.admin_token, tokens)
    winner, loser = ("p1", "p2") if winner_first else ("p2", "p1")
    game.submit(loser, "bid 0")
    game.submit(winner, "bid 2")
    game.submit(winner, "keep")
    assert game.public().status == "finished"
    return game


def random_game(game_id: str, seed: int, label: str,
                steps: int = 3000) -> Iterator[tuple[Any, list[str], dict[str, Any]]]:
    """(state, seats, open prompts) at each step of a game played with random legal orders (a
    random player count, the default options, seeded by `label` and `seed`), the last state with
    no prompt when it ends within `steps`."""
    import random

    from adjudicator.cli.playout import choose_group
    from adjudicator.engine import get_game
    from adjudicator.engine.play import apply_checked

    game, rnd = get_game(game_id), random.Random(seed)
    options = game.info.resolve_options({})
    seats = game.seat_names(rnd.randint(game.info.min_seats, game.info.max_seats), options)
    state = game.setup(f"{label}:{seed}", seats, options).state
    for _ in range(steps):
        prompts = game.prompts(state)
        yield state, seats, prompts
        if not prompts:
            return
        orders = {s: rnd.choice(prompts[s].choices) for s in choose_group(rnd, prompts)}
        state = apply_checked(game, state, orders, prompts).state


def declared_game(game: str, seats: int, title: str, director: service.CreatedDirector | None) -> str:
    """A game of `seats` players, all joined, ended at once by the moderator's declared result."""
    with store.transaction() as s:
        created = service.create_game(s, game=game, seats=seats, title=title,
                                      director=(director.director_id, director.token) if director else None)
    for number, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            service.join_game(s, created.game_id, seat, invite, name=f"{title} player {number + 1}")
    with store.transaction() as s:
        service.declare_result(s, created.game_id, created.admin_token, [sorted(created.invites)[0]],
                               "the club's season ended")
        assert service.public_game(s, created.game_id).status == "finished"
    return created.game_id


def kennedy_to_play(cp: int) -> tuple[PlayedGame, str]:
    """A 1960 game where Kennedy plays first, and his play of a card of at least `cp` CP for its
    CP (the order text, not sent yet)."""
    import re

    from adjudicator.engine import get_game

    game = new_game("1960", seats=2)
    [chooser] = [seat for seat in ("kennedy", "nixon") if game.page(seat).prompt]
    assert not game.submit(chooser, "first kennedy").error
    labels = [get_game("1960").order_label(c) for c in game.page("kennedy").prompt["choices"]]
    plays = [(int(m.group(2)), m.group(1)) for label in labels
             if (m := re.match(r"(play \d+ cp) — .* \((\d) CP\b", label))]
    best, text = max(plays)
    assert best >= cp, labels
    return game, text


def substitutes_move(game_id: str, now: Any = None) -> None:
    """Play here the moves the substitute owes in the game (a worker's "substitute" tasks in
    production, service/play/substitutes.py), until a seat with a player must decide."""
    from sqlmodel import select

    from adjudicator.store import Game

    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        owed, length = g.substitute_at is not None, g.record_length
    if owed:
        service.run_substitutes([("substitute", game_id, length)], now=now)
