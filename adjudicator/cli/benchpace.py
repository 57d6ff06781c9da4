"""`pbem bench pace GAME [--games N] [--players P] [--seed S]`: how a game moves at the speed of
its players.

Plays N random games through the service on a fresh SQLite file, with simulated players on a
simulated clock. The service composes every mail as it would for real (outbox rows; nothing is
sent). A player reads each mail that asks for a decision ("your move", the start mail, a reminder)
after a random delay of 1 to 24 hours and answers in one sitting through the command box: its
decision, then each follow-up decision with probability 0.7 (several decisions at once), and now
and then a standing order (LATER) for a later decision of the same kind; a player whose seat fell
into civil disorder answers the notice (which ends it). A follow-up it leaves
for later is answered 1 to 12 hours on (it reads the reply or its page). Deadlines pass when the
clock reaches them (the deadline sweep runs then).

Each game is played twice: everyone answering, and with one seat that stops answering after its
first sitting. Prints per game and in total: waits per player, mails per player (every mail the
server writes to a seat on its own: start, your move, reminder, civil disorder, end; replies to a
player's own mail are counted apart and are none here, since these players use the command box),
and simulated days to finish.
"""

from __future__ import annotations

import argparse
import heapq
import os
import random
import statistics
import tempfile
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

HOUR = timedelta(hours=1)
ASKING = ("start", "turn", "reminder", "disorder")
MAX_SITTINGS = 200_000


@dataclass
class GameRun:
    days: float
    waits: dict[str, int]
    mails: dict[str, int]
    replies: int
    steps: int
    finished: bool
    abandoned: str | None = None
    kinds: dict[str, int] = field(default_factory=dict)


def play(game: str, players: int | None, rnd: random.Random, abandon: bool) -> GameRun:
    from sqlmodel import select

    from adjudicator import service, store
    from adjudicator.engine import get_game
    from adjudicator.store import Game, OutboxMessage, Seat

    info = get_game(game).info
    seats = players or info.min_seats
    policy = service.DeadlinePolicy(step_hours=info.wait_hours, follow_up_hours=info.follow_up_hours,
                                    reminder_hours=24, substitutes=False)  # the plain defaults' pace
    start = datetime(2030, 1, 1, 12, tzinfo=service.utcnow().tzinfo)
    with store.transaction() as s:
        created = service.create_game(s, game=game, seats=seats, title="Pace", policy=policy)
    tokens: dict[str, str] = {}
    for i, (seat, invite) in enumerate(created.invites.items()):
        with store.transaction() as s:
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, f"P{i}", email=f"{seat}@pace.test",
                                             now=start).seat_token
    gone = sorted(tokens)[0] if abandon else None
    sat: set[str] = set()
    seen = 0  # outbox rows read so far
    queue: list[tuple[datetime, int, str]] = []  # (when, tie, seat): a sitting
    tie = 0
    now = start
    steps = 0

    def schedule(seat: str, at: datetime) -> None:
        nonlocal tie
        tie += 1
        heapq.heappush(queue, (at, tie, seat))

    def read_mail() -> None:
        nonlocal seen
        with store.transaction(write=False) as s:
            rows = s.exec(select(OutboxMessage).where(OutboxMessage.id > seen).order_by(OutboxMessage.id)).all()
        for row in rows:
            seen = max(seen, row.id or 0)
            if row.kind in ASKING and row.seat and not (row.seat == gone and row.seat in sat):
                schedule(row.seat, now + timedelta(hours=rnd.uniform(1, 24)))

    def sitting(seat: str) -> None:
        nonlocal steps
        for _ in range(200):
            with store.transaction(write=False) as s:
                prompt, sealed_in = service.seat_decision(s, created.game_id, seat, tokens[seat])
                disorder = s.exec(select(Seat.disorder).where(Seat.seat == seat, Seat.game_id == select(
                    Game.id).where(Game.public_id == created.game_id).scalar_subquery())).one()
            if disorder and (prompt is None or sealed_in):  # the civil-disorder notice: it answers
                try:
                    with store.transaction() as s:
                        service.submit(s, created.game_id, seat, tokens[seat], "STANDING", None, now=now)
                except service.ServiceError:
                    pass
                return
            if prompt is None or sealed_in:
                return
            game_module = get_game(game)
            choice = rnd.choice(prompt["choices"])
            lines = [game_module.format_order(choice)]
            if rnd.random() < 0.1:  # answer a later decision of the same kind ahead
                ahead = game_module.format_order(rnd.choice(prompt["choices"]))
                lines.append(f"LATER {prompt['kind']}: {ahead}")
            try:
                with store.transaction() as s:
                    service.submit(s, created.game_id, seat, tokens[seat], "\n".join(lines), None, now=now)
            except service.ServiceError:
                return
            steps += 1
            if rnd.random() >= 0.7:  # leaves the rest for later (reads the reply or the page)
                with store.transaction(write=False) as s:
                    again, sealed_in = service.seat_decision(s, created.game_id, seat, tokens[seat])
                if again is not None and not sealed_in:
                    schedule(seat, now + timedelta(hours=rnd.uniform(1, 12)))
                return

    read_mail()
    status = "running"
    for _ in range(MAX_SITTINGS):
        with store.transaction(write=False) as s:
            g = s.exec(select(Game).where(Game.public_id == created.game_id)).one()
            status = g.status
            due = [t for t in (g.due_at, g.reminder_at if not g.reminded else None) if t is not None]
        if status == "finished":
            break
        next_sitting = queue[0][0] if queue else None
        next_due = min(due) if due else None
        if next_due is not None and (next_sitting is None or next_due <= next_sitting):
            now = max(now, next_due)
            with store.transaction() as s:
                service.sweep_deadlines(s, now)
        elif next_sitting is not None:
            when, _, seat = heapq.heappop(queue)
            now = max(now, when)
            if seat == gone and seat in sat:
                continue
            sitting(seat)
            sat.add(seat)
        else:
            break
        read_mail()
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == created.game_id)).one()
        rows = s.exec(select(Seat).where(Seat.game_id == g.id)).all()
        waits = {r.seat: r.waits for r in rows}
        mails = {r.seat: 0 for r in rows}
        kinds: dict[str, int] = {}
        replies = 0
        for m in s.exec(select(OutboxMessage).where(OutboxMessage.game_id == g.id, OutboxMessage.channel == "mail")):
            if m.kind == "reply":
                replies += 1
            elif m.seat in mails:
                mails[m.seat] += 1
                kinds[m.kind] = kinds.get(m.kind, 0) + 1
        finished = g.status == "finished"
    return GameRun((now - start).total_seconds() / 86400, waits, mails, replies, steps, finished, gone, kinds)


def _line(label: str, run: GameRun) -> str:
    per = ", ".join(f"{seat} {run.waits[seat]}/{run.mails[seat]}" for seat in sorted(run.waits))
    ratio = max((run.mails[s] / run.waits[s]) for s in run.waits if run.waits[s]) if any(run.waits.values()) else 0
    return (f"{label}: {run.days:.1f} days, {'finished' if run.finished else 'NOT FINISHED'}, "
            f"waits/mails per seat: {per}; worst mails/waits {ratio:.2f}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench pace", description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", default="pace")
    args = parser.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-pace-"))
    os.environ.pop("SMTP_HOST", None)
    os.environ.pop("PBEM_EAGER", None)

    from adjudicator import store

    store.configure(f"sqlite:///{tmp / 'pace.sqlite'}")
    store.init_db()
    normal: list[GameRun] = []
    abandoned: list[GameRun] = []
    print(f"game: {args.game}")
    try:
        for index in range(args.games):
            for abandon, runs in ((False, normal), (True, abandoned)):
                run = play(args.game, args.players, random.Random(f"{args.seed}-{index}"), abandon)
                runs.append(run)
                print(_line(f"game {index + 1}{' abandoned by ' + str(run.abandoned) if abandon else ''}", run))
    finally:
        store.configure(None)
    waits = [w for r in normal for w in r.waits.values()]
    mails = [m for r in normal for m in r.mails.values()]
    ratios = [r.mails[s] / r.waits[s] for r in normal for s in r.waits if r.waits[s]]
    days = statistics.mean(r.days for r in normal)
    days_abandoned = statistics.mean(r.days for r in abandoned)
    print(f"waits per player: {statistics.mean(waits):.1f} (max {max(waits)})")
    print(f"mails per player: {statistics.mean(mails):.1f} (max {max(mails)})")
    print(f"mails per wait, worst seat: {max(ratios):.2f} (games where everyone answers)")
    kinds: dict[str, int] = {}
    for r in normal:
        for kind, n in r.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    print("mails by kind (everyone answering): " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
    print(f"replies to players' own mail: {sum(r.replies for r in normal + abandoned)}")
    print(f"days to finish: {days:.1f}")
    print(f"days to finish with an abandoned seat: {days_abandoned:.1f} ({days_abandoned / days:.2f} x)")
    print(f"games finished: {sum(r.finished for r in normal + abandoned)} of {2 * len(normal)}")
    return 0
