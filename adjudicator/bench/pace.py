"""`pbem bench pace GAME... [--games N] [--players P] [--models M,...] [--seed S]`: how a game
moves at the speed of its players.

Plays N random games of each title through the service on a fresh SQLite file, with simulated
players on a simulated clock. The service composes every mail as it would for real (outbox rows;
nothing is sent); deadlines pass when the clock reaches them (the deadline sweep runs then).
Player models (`--models`, all by default):

- `web`: reads each mail that asks for a decision after 1 to 24 hours and answers in one sitting
  through the command box: its decision, then each follow-up with probability 0.7, now and then a
  standing order (LATER); a follow-up left for later is answered 1 to 12 hours on.
- `mail-one`: a mail player who reads its newest mail once a day (at its own hour) and, if that
  mail shows an open decision, replies to it with one order line chosen from the orders the mail
  lists, through the real intake (the reply address, the parser, the reply).
- `mail-expert`: reads like `mail-one`, but writes several lines: its order and the follow-up
  decisions its order leads to (it foresees them), in one mail.

Each game is played with everyone answering, and again with one seat that never answers after its
first sitting. Prints for each title and model: days to finish, waits and mails per seat, the
median length in lines of the "your move" mails, and the share of decisions defaulted for the
seats that answered every mail; then, per title, the days of `mail-one` over `mail-expert`.
With `--games N` every figure is the mean over the N games (days with its standard error, ±),
and the ratio is of those means, for the games with everyone answering and beside an abandoned
seat. The `mail-one` player sends exactly one line: copied from the mail's list, where an order
that leads to more decisions of its own is listed as its whole turn (wholeturn.py).
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
from email.message import EmailMessage
from pathlib import Path
from typing import Any

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
ASKING = ("start", "turn", "reminder", "disorder")
MODELS = ("web", "mail-one", "mail-expert")
MAX_EVENTS = 200_000
MAX_EXPERT_LINES = 12


@dataclass
class GameRun:
    days: float
    waits: dict[str, int]
    mails: dict[str, int]  # mails the server wrote to the seat on its own (not replies)
    replies: int
    steps: int
    finished: bool
    abandoned: str | None = None
    kinds: dict[str, int] = field(default_factory=dict)
    turn_lines: list[int] = field(default_factory=list)  # lines of each "your move" mail
    decisions: dict[str, int] = field(default_factory=dict)  # orders applied per seat
    defaulted: dict[str, int] = field(default_factory=dict)  # of those, defaults per seat

    def defaulted_share(self) -> float:
        """Defaults among the decisions of the seats that answered every mail (not the abandoned one)."""
        seats = [s for s in self.decisions if s != self.abandoned]
        total = sum(self.decisions[s] for s in seats)
        return sum(self.defaulted[s] for s in seats) / total if total else 0.0


def listed_orders(body: str) -> list[str]:
    """The legal orders a mail lists (indented lines after its last "Legal orders ...:" line)."""
    lines = body.splitlines()
    heads = [i for i, line in enumerate(lines) if line.startswith("Legal orders") and line.rstrip().endswith(":")]
    if not heads:
        return []
    out = []
    for line in lines[heads[-1] + 1:]:
        if not line.strip() and not out:
            continue
        if not line.startswith("    ") or line.strip().startswith("..."):
            break
        out.append(line.strip())
    return out


class Table:
    """The simulated players of one game: whose sitting is next, the clock and the mail read."""

    def __init__(self, game: str, players: int | None, rnd: random.Random, abandon: bool, model: str) -> None:
        from adjudicator import service, store
        from adjudicator.engine import get_game
        from adjudicator.service.common.core import find_game

        self.model, self.rnd, self.game = model, rnd, game
        self.module = get_game(game)
        info = self.module.info
        policy = service.DeadlinePolicy(step_hours=info.wait_hours, follow_up_hours=info.follow_up_hours,
                                        reminder_hours=24, substitutes=False)  # the plain defaults' pace
        self.start = datetime(2030, 1, 1, 12, tzinfo=service.utcnow().tzinfo)
        self.now = self.start
        with store.transaction() as s:
            created = service.create_game(s, game=game, seats=players or info.min_seats, title="Pace",
                                          policy=policy)
        self.game_id = created.game_id
        self.tokens: dict[str, str] = {}
        for i, (seat, invite) in enumerate(created.invites.items()):
            with store.transaction() as s:
                service.common.verified.verify_address(s, f"{seat}@pace.test")  # a confirmed player's: the mails flow
                self.tokens[seat] = service.join_game(s, self.game_id, seat, invite, f"P{i}",
                                                      email=f"{seat}@pace.test", now=self.start).seat_token
        with store.transaction(write=False) as s:
            self.game_row_id = find_game(s, self.game_id).id
        self.gone = sorted(self.tokens)[0] if abandon else None
        self.hour = {seat: rnd.uniform(0, 24) for seat in self.tokens}  # a mail player's reading hour
        self.sat: set[str] = set()
        self.seen = 0  # this game's outbox rows read so far
        self.queue: list[tuple[datetime, int, str]] = []  # (when, tie, seat): a sitting
        self.planned: dict[str, datetime] = {}
        self.newest: dict[str, Any] = {}  # seat -> the newest mail row it has not read yet
        self.tie = 0
        self.steps = 0
        self.sent = 0

    # ------------------------------------------------------------------ scheduling
    def schedule(self, seat: str, at: datetime) -> None:
        self.tie += 1
        heapq.heappush(self.queue, (at, self.tie, seat))

    def next_reading(self, seat: str, after: datetime) -> datetime:
        day = after.replace(hour=0, minute=0, second=0, microsecond=0)
        at = day + timedelta(hours=self.hour[seat])
        return at if at > after else at + DAY

    def read_mail(self) -> None:
        """Take in this game's new outbox rows: who has mail, and when they will read it."""
        from sqlmodel import select

        from adjudicator import store
        from adjudicator.store import OutboxMessage

        with store.transaction(write=False) as s:
            rows = s.exec(select(OutboxMessage).where(OutboxMessage.game_id == self.game_row_id,
                                                      OutboxMessage.id > self.seen,
                                                      OutboxMessage.channel == "mail")
                          .order_by(OutboxMessage.id)).all()
        for row in rows:
            self.seen = max(self.seen, row.id or 0)
            seat = row.seat
            if not seat or (seat == self.gone and seat in self.sat):
                continue
            if self.model == "web":
                if row.kind in ASKING:
                    self.schedule(seat, self.now + timedelta(hours=self.rnd.uniform(1, 24)))
                continue
            self.newest[seat] = row  # a mail player reads only its newest mail
            if seat not in self.planned:
                self.planned[seat] = self.next_reading(seat, self.now)
                self.schedule(seat, self.planned[seat])

    # ------------------------------------------------------------------ sittings
    def sitting(self, seat: str) -> None:
        if self.model == "web":
            self.web_sitting(seat)
        else:
            self.planned.pop(seat, None)
            row = self.newest.pop(seat, None)
            if row is not None:
                self.mail_sitting(seat, row)

    def web_sitting(self, seat: str) -> None:
        from sqlmodel import select

        from adjudicator import service, store
        from adjudicator.store import Game, Seat

        for _ in range(200):
            with store.transaction(write=False) as s:
                prompt, sealed_in = service.seat_decision(s, self.game_id, seat, self.tokens[seat])
                disorder = s.exec(select(Seat.disorder).where(Seat.seat == seat, Seat.game_id == select(
                    Game.id).where(Game.public_id == self.game_id).scalar_subquery())).one()
            if disorder and (prompt is None or sealed_in):  # the civil-disorder notice: it answers
                try:
                    with store.transaction() as s:
                        service.submit(s, self.game_id, seat, self.tokens[seat], "STANDING", None, now=self.now)
                except service.ServiceError:
                    pass
                return
            if prompt is None or sealed_in:
                return
            lines = [self.module.format_order(self.rnd.choice(prompt["choices"]))]
            if self.rnd.random() < 0.1:  # answer a later decision of the same kind ahead
                ahead = self.module.format_order(self.rnd.choice(prompt["choices"]))
                lines.append(f"LATER {prompt['kind']}: {ahead}")
            try:
                with store.transaction() as s:
                    service.submit(s, self.game_id, seat, self.tokens[seat], "\n".join(lines), None, now=self.now)
            except service.ServiceError:
                return
            self.steps += 1
            if self.rnd.random() >= 0.7:  # leaves the rest for later (reads the reply or the page)
                with store.transaction(write=False) as s:
                    again, sealed_in = service.seat_decision(s, self.game_id, seat, self.tokens[seat])
                if again is not None and not sealed_in:
                    self.schedule(seat, self.now + timedelta(hours=self.rnd.uniform(1, 12)))
                return

    def mail_sitting(self, seat: str, row: Any) -> None:
        """Answer the newest mail if it shows an open decision: one line, or the expert's lines."""
        if row.kind == "disorder":
            self.send(seat, row, ["STATUS"])  # any mail ends civil disorder
            return
        choices = listed_orders(row.body)
        if not choices:
            return
        first = self.rnd.choice(choices)
        lines = [first] + (self.foreseen(seat, first) if self.model == "mail-expert" else [])
        self.send(seat, row, lines)

    def foreseen(self, seat: str, first: str) -> list[str]:
        """The follow-up orders an expert writes below its first line: the decisions of its own
        that its order leads to, one after another (the engine is pure: this changes nothing).
        A first line of several orders (a listed whole turn) is followed to its end first, and
        the expert goes on from there."""
        from adjudicator import store
        from adjudicator.engine import apply_checked
        from adjudicator.service.common.core import find_game
        from adjudicator.service.play.orders import order_lines

        with store.transaction(write=False) as s:
            state = find_game(s, self.game_id).state or {}
        lines: list[str] = []
        pending = order_lines(first)  # the orders of its own first line
        text = pending.pop(0) if pending else first
        while len(lines) < MAX_EXPERT_LINES:
            prompts = self.module.prompts(state)
            prompt = prompts.get(seat)
            if prompt is None or prompt.sealed or len(prompts) > 1:
                break
            try:
                order = self.module.parse_order(text, prompt)
                state = apply_checked(self.module, state, {seat: order}).state
            except ValueError:
                break
            after = self.module.prompts(state)
            follow = after.get(seat)
            if follow is None or follow.sealed or len(after) > 1:
                break
            if pending:
                text = pending.pop(0)
                continue
            text = self.module.format_order(self.rnd.choice(follow.choices))
            lines.append(text)
        return lines

    def send(self, seat: str, row: Any, lines: list[str]) -> None:
        from adjudicator import service, store
        from adjudicator.service.mail import inbound

        self.sent += 1
        msg = EmailMessage()
        msg["From"] = f"{seat}@pace.test"
        msg["To"] = row.headers["Reply-To"]
        msg["Subject"] = "Re: " + row.subject
        msg["Message-ID"] = f"<{self.game_id}-{seat}-{self.sent}@pace.test>"
        quoted = "\n".join("> " + line for line in row.body.splitlines()[:20])
        msg.set_content("\n".join(lines) + f"\n\nOn a day, pbem wrote:\n{quoted}\n")
        with store.transaction() as s:
            for _kind, inbox_id in service.receive_mail(s, bytes(msg), "smtp", f"{seat}@pace.test",
                                                        [row.headers["Reply-To"]], "127.0.0.1"):
                inbound.process(s, inbox_id, self.now)
        self.steps += len(lines)

    # ------------------------------------------------------------------ the game
    def play(self) -> GameRun:
        from sqlmodel import select

        from adjudicator import service, store
        from adjudicator.store import Game

        self.read_mail()
        for _ in range(MAX_EVENTS):
            with store.transaction(write=False) as s:
                g = s.exec(select(Game).where(Game.public_id == self.game_id)).one()
                status = g.status
                due = [t for t in (g.due_at, g.reminder_at if not g.reminded else None) if t is not None]
            if status == "finished":
                break
            next_sitting = self.queue[0][0] if self.queue else None
            next_due = min(due) if due else None
            if next_due is not None and (next_sitting is None or next_due <= next_sitting):
                self.now = max(self.now, next_due)
                with store.transaction() as s:
                    service.sweep_deadlines(s, self.now)
            elif next_sitting is not None:
                when, _, seat = heapq.heappop(self.queue)
                self.now = max(self.now, when)
                if seat == self.gone and seat in self.sat:
                    continue
                self.sitting(seat)
                self.sat.add(seat)
            else:
                break
            self.read_mail()
        return self.result()

    def result(self) -> GameRun:
        from sqlmodel import select

        from adjudicator import store
        from adjudicator.store import Game, OutboxMessage, RecordEntry, Seat

        with store.transaction(write=False) as s:
            g = s.exec(select(Game).where(Game.public_id == self.game_id)).one()
            rows = s.exec(select(Seat).where(Seat.game_id == g.id)).all()
            run = GameRun((self.now - self.start).total_seconds() / 86400, {r.seat: r.waits for r in rows},
                          {r.seat: 0 for r in rows}, 0, self.steps, g.status == "finished", self.gone,
                          decisions={r.seat: 0 for r in rows}, defaulted={r.seat: 0 for r in rows})
            for m in s.exec(select(OutboxMessage).where(OutboxMessage.game_id == g.id,
                                                        OutboxMessage.channel == "mail")):
                if m.kind == "reply":
                    run.replies += 1
                elif m.seat in run.mails:
                    run.mails[m.seat] += 1
                    run.kinds[m.kind] = run.kinds.get(m.kind, 0) + 1
                    if m.kind == "turn":
                        run.turn_lines.append(len(m.body.splitlines()))
            for entry in s.exec(select(RecordEntry).where(RecordEntry.game_id == g.id, RecordEntry.kind == "orders")):
                for seat in entry.data.get("orders") or {}:
                    if seat in run.decisions:
                        run.decisions[seat] += 1
                        run.defaulted[seat] += seat in (entry.data.get("defaulted") or [])
        return run


def play(game: str, players: int | None, rnd: random.Random, abandon: bool, model: str = "web") -> GameRun:
    return Table(game, players, rnd, abandon, model).play()


def _line(label: str, run: GameRun) -> str:
    per = ", ".join(f"{seat} {run.waits[seat]}/{run.mails[seat]}" for seat in sorted(run.waits))
    median = statistics.median(run.turn_lines) if run.turn_lines else 0
    return (f"{label}: {run.days:.1f} days, {'finished' if run.finished else 'NOT FINISHED'}, "
            f"waits/mails per seat: {per}; replies {run.replies}; median your-move mail {median:.0f} lines; "
            f"defaulted (answering seats) {100 * run.defaulted_share():.1f} %")


def _summary(title: str, model: str, normal: list[GameRun], abandoned: list[GameRun]) -> dict[str, float]:
    def share(runs: list[GameRun]) -> float:
        total = sum(r.decisions[s] for r in runs for s in r.decisions if s != r.abandoned)
        return sum(r.defaulted[s] for r in runs for s in r.defaulted if s != r.abandoned) / total if total else 0.0

    lines = [n for r in normal + abandoned for n in r.turn_lines]
    figures = {
        "days": statistics.mean(r.days for r in normal),
        "days_sd": _spread([r.days for r in normal]),
        "days_abandoned": statistics.mean(r.days for r in abandoned) if abandoned else 0.0,
        "days_abandoned_sd": _spread([r.days for r in abandoned]),
        "waits": statistics.mean(w for r in normal for w in r.waits.values()),
        "mails": statistics.mean(m for r in normal for m in r.mails.values()),
        "replies": statistics.mean(r.replies / len(r.waits) for r in normal),
        "median_lines": statistics.median(lines) if lines else 0.0,
        "defaulted": share(normal),
        "defaulted_abandoned": share(abandoned),
        "finished": sum(r.finished for r in normal + abandoned),
        "games": len(normal + abandoned),
    }
    print(f"{title} {model}: {figures['days']:.1f} ± {figures['days_sd']:.1f} days (abandoned seat: "
          f"{figures['days_abandoned']:.1f} ± {figures['days_abandoned_sd']:.1f}); "
          f"waits/seat {figures['waits']:.1f}; mails/seat {figures['mails']:.1f} + replies/seat "
          f"{figures['replies']:.1f}; median your-move mail {figures['median_lines']:.0f} lines; defaulted "
          f"(seats answering every mail) {100 * figures['defaulted']:.1f} %, beside an abandoned seat "
          f"{100 * figures['defaulted_abandoned']:.1f} %; finished {figures['finished']} of {figures['games']}")
    return figures


def _spread(values: list[float]) -> float:
    """The standard error of the mean of `values` (0 for fewer than two): how far the mean of
    this many games may be from the title's."""
    return statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0


def ratio_line(title: str, figures: dict[str, dict[str, float]]) -> str:
    """The days of the one-line mail players over the expert's, from the means over the games,
    beside an abandoned seat too."""
    one, expert = figures["mail-one"], figures["mail-expert"]
    normal = one["days"] / expert["days"] if expert["days"] else float("nan")
    left = one["days_abandoned"] / expert["days_abandoned"] if expert["days_abandoned"] else float("nan")
    return (f"{title}: one-line mail players take {normal:.2f} x the days of the expert mail players "
            f"({one['days']:.1f} / {expert['days']:.1f}, mean of {int(one['games']) // 2} games each); "
            f"beside an abandoned seat {left:.2f} x ({one['days_abandoned']:.1f} / {expert['days_abandoned']:.1f})")


def main(argv: list[str]) -> int:
    from adjudicator.engine import all_games

    parser = argparse.ArgumentParser(prog="pbem bench pace", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", nargs="+", help="game ids, or `all`")
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--seed", default="pace")
    parser.add_argument("--quiet", action="store_true", help="only the summary lines")
    args = parser.parse_args(argv)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    unknown = sorted(set(models) - set(MODELS))
    if unknown:
        parser.error(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(MODELS)}")
    titles = sorted(g.info.id for g in all_games()) if args.game == ["all"] else args.game
    tmp = Path(tempfile.mkdtemp(prefix="pbem-bench-pace-"))
    os.environ.pop("SMTP_HOST", None)
    os.environ.pop("PBEM_EAGER", None)
    os.environ.setdefault("PBEM_MAIL_DNS", "0")
    os.environ["PBEM_MAIL_REPLIES_PER_HOUR"] = "100000"  # simulated time: the loop brake is not measured

    from adjudicator import store

    store.configure(f"sqlite:///{tmp / 'pace.sqlite'}")
    store.init_db()
    try:
        for title in titles:
            figures: dict[str, dict[str, float]] = {}
            for model in models:
                normal: list[GameRun] = []
                abandoned: list[GameRun] = []
                for index in range(args.games):
                    for abandon, runs in ((False, normal), (True, abandoned)):
                        run = play(title, args.players, random.Random(f"{args.seed}-{index}-{abandon}"), abandon,
                                   model)
                        runs.append(run)
                        if not args.quiet:
                            label = f"{title} {model} game {index + 1}"
                            print(_line(label + (f" abandoned by {run.abandoned}" if abandon else ""), run))
                figures[model] = _summary(title, model, normal, abandoned)
            if "mail-one" in figures and "mail-expert" in figures:
                print(ratio_line(title, figures))
    finally:
        store.configure(None)
    return 0
