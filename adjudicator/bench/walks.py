"""`pbem bench walks`: how far a game travels through the code (issue 27's "parameter walks").

Two walks are traced in this process on a fresh SQLite database, following one game:

- deadline: a Doge game's deadline passes; the sweep adjudicates it (defaults for every seat) and
  its notification mails are built and written as `.eml` files (the embedded default's delivery);
- order: a seat's ordinary order, submitted as the web's command box does (`service.submit`) and
  committed.

A step of a walk is a call of a project function (adjudicator, web, workers; not the bench) that
is handed the game: one of its arguments is the game's row, an object whose `public_id` is the
game's, or the game's public id itself. Consecutive calls in the same module are one stay. A
step *returns* when it enters a module the walk has already left. The bench prints, per walk,
the steps, the modules visited and the share of returns, first by module and then by room: a
room is a sub-package of the service (`adjudicator.service.play`, ...) or a top-level package
(`adjudicator.engine`, `adjudicator.store`, `workers`, ...). Issue 27's target is at most 30 %
returns on both walks.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
TRACED = tuple(str(ROOT / part) + os.sep for part in ("adjudicator", "web", "workers"))
SKIPPED = (str(ROOT / "adjudicator" / "bench") + os.sep,)


def room_of(module: str) -> str:
    """`adjudicator.service.play.orders` -> `adjudicator.service.play`; `adjudicator.store.models`
    -> `adjudicator.store`; `workers.mailer` -> `workers`."""
    parts = module.split(".")
    if parts[:2] == ["adjudicator", "service"]:
        # a module right under the service (the facade, or a flat layout) is a room of its own
        return ".".join(parts[:3]) if len(parts) > 3 else module
    if parts[0] == "adjudicator":
        return ".".join(parts[:2])
    return parts[0]


def returns(stays: list[str]) -> int:
    """How many steps enter a unit the walk has already left."""
    seen: set[str] = set()
    count = 0
    for unit in stays:
        if unit in seen:
            count += 1
        seen.add(unit)
    return count


def collapse(units: list[str]) -> list[str]:
    return [u for i, u in enumerate(units) if i == 0 or u != units[i - 1]]


class Walk:
    """Records the module of every traced call handed the game."""

    def __init__(self, public_id: str) -> None:
        self.public_id = public_id
        self.modules: list[str] = []

    def _holds_game(self, frame: FrameType) -> bool:
        code = frame.f_code
        for name in code.co_varnames[:code.co_argcount + code.co_kwonlyargcount]:
            value = frame.f_locals.get(name)
            if value is None or isinstance(value, (int, float, bool, bytes)):
                continue
            if value == self.public_id if isinstance(value, str) else \
                    getattr(value, "public_id", None) == self.public_id:
                return True
        return False

    def _profile(self, frame: FrameType, event: str, _arg: Any) -> None:
        if event != "call":
            return
        path = frame.f_code.co_filename
        if not path.startswith(TRACED) or path.startswith(SKIPPED):
            return
        if self._holds_game(frame):
            self.modules.append(str(frame.f_globals.get("__name__", path)))

    def run(self, work: Callable[[], Any]) -> None:
        sys.setprofile(self._profile)
        try:
            work()
        finally:
            sys.setprofile(None)


def report(name: str, walk: Walk) -> float:
    by_module = collapse(walk.modules)
    by_room = collapse([room_of(m) for m in walk.modules])
    for unit, stays in (("module", by_module), ("room", by_room)):
        steps = max(0, len(stays) - 1)
        back = returns(stays)
        share = back / steps if steps else 0.0
        print(f"walk {name} by {unit}: {steps} steps, {len(set(stays))} {unit}s, "
              f"{back} returns ({share:.0%})")
    print(f"walk {name} rooms in order: {' > '.join(by_room)}")
    steps = max(0, len(by_room) - 1)
    return returns(by_room) / steps if steps else 0.0


def _setup(tmp: Path) -> tuple[str, dict[str, str]]:
    """A running Doge game of four seats, each with a confirmed address; its start mails sent."""
    os.environ["PBEM_MAIL_DIR"] = str(tmp / "mail")
    from sqlalchemy import update

    from adjudicator import service, store
    from adjudicator.store import OutboxMessage

    store.configure(f"sqlite:///{tmp / 'walks.sqlite'}")
    store.init_db()
    policy = service.DeadlinePolicy(step_hours=24, reminder_hours=23, substitutes=False)
    tokens: dict[str, str] = {}
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=4, title="walks", policy=policy)
        for seat, invite in created.invites.items():
            address = f"{seat}@walks.test"
            service.common.verified.verify_address(s, address)
            joined = service.join_game(s, created.game_id, seat, invite, seat.title(), email=address)
            tokens[seat] = joined.seat_token
    with store.transaction() as s:
        s.connection().execute(update(OutboxMessage).values(status="sent"))
    return created.game_id, tokens


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench walks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--show", action="store_true", help="print each walk's modules in order")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-walks-"))
    game_id, tokens = _setup(tmp)

    from sqlmodel import select

    from adjudicator import service, store
    from adjudicator.store import Game, OutboxMessage
    from workers.mailer import deliver

    seat = next(iter(tokens))
    with store.transaction() as s:  # the page the order is read from: not part of the walk
        page = service.seat_state(s, game_id, seat, tokens[seat])

    def order() -> None:
        with store.transaction() as s:
            service.submit(s, game_id, seat, tokens[seat], page.choices[0], page.prompt_token)

    def deadline() -> None:
        with store.transaction() as s:
            g = s.exec(select(Game).where(Game.public_id == game_id)).one()
            g.due_at = service.utcnow()
        with store.transaction() as s:
            service.sweep_game(s, game_id)
        with store.transaction(write=False) as s:
            pending = list(s.exec(select(OutboxMessage.id).where(OutboxMessage.status == "pending")))
        for outbox_id in pending:
            deliver(outbox_id)

    walks = {"order": Walk(game_id), "deadline": Walk(game_id)}
    walks["order"].run(order)
    walks["deadline"].run(deadline)
    worst = 0.0
    for name, walk in walks.items():
        worst = max(worst, report(name, walk))
        if args.show:
            print(f"walk {name} modules: {' > '.join(collapse(walk.modules))}")
    print(f"walks worst share of returns by room: {worst:.0%}")
    return 0
