"""`pbem bench bots GAME [--games N] [--players P] [--against random|defaults|both]`.

The substitute (adjudicator/bots) plays one seat, taking every seat position in turn, against
random players and against players who only ever take the documented default order. Prints win
share, mean score margin (the bot's score minus the best other score) and the CPU time of its
decisions, and ends with three lines a script can read."""

from __future__ import annotations

import argparse
import multiprocessing
import random
import time
from dataclasses import dataclass, field

from adjudicator.bots.search import BotConfig, choose
from adjudicator.cli.playout import choose_group
from adjudicator.engine import GameModule, apply_checked, get_game

FAIR_SEATS = {"1960": 2, "doge": 4, "china": 4, "founding-fathers": 5}


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0
    margin: float = 0.0
    decisions: list[float] = field(default_factory=list)
    by_kind: dict[str, list[float]] = field(default_factory=dict)  # the same times per decision kind

    @property
    def share(self) -> float:
        return 100.0 * self.wins / self.games if self.games else 0.0


def play_bot_game(game: GameModule, seats: list[str], bot: str, opponents: str, seed: str,
                  tally: Tally, step_limit: int = 20_000, config: BotConfig | None = None) -> None:
    """One whole game: `bot` decides by the search, every other seat at random or by default.
    The public data mixed into the bot's seed changes with every step, as the record's last hash
    does in a served game, so a seat that sees the same page again need not repeat itself."""
    options = game.info.resolve_options({})
    state = game.setup(f"benchbots:{seed}", seats, options).state
    rnd = random.Random(seed)
    for step in range(step_limit):
        prompts = game.prompts(state)
        if not prompts:
            break
        orders = {}
        for member in choose_group(rnd, prompts):  # a whole sealed group or one seat, as random play does
            if member == bot:
                if len(prompts[member].choices) > 1:
                    started = time.process_time()
                    orders[member] = choose(game, state, member, public=f"{seed}:{step}", config=config)
                    tally.decisions.append(time.process_time() - started)
                    tally.by_kind.setdefault(prompts[member].kind, []).append(tally.decisions[-1])
                else:
                    orders[member] = prompts[member].choices[0]
            elif opponents == "defaults":
                orders[member] = game.default_order(state, member)
            else:
                orders[member] = rnd.choice(prompts[member].choices)
        state = apply_checked(game, state, orders, prompts).state
    outcome = game.outcome(state)
    tally.games += 1
    if outcome is None:
        return
    if bot in outcome.winners:
        tally.wins += 1.0 / len(outcome.winners)
    others = [v for s, v in outcome.scores.items() if s != bot]
    tally.margin += outcome.scores.get(bot, 0) - (max(others) if others else 0)


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _one_game(job: tuple[str, list[str], str, str, str]) -> Tally:
    """One bench game in a worker process (`--jobs`): its own tally, merged by the parent."""
    game_id, seats, bot, kind, seed = job
    tally = Tally()
    play_bot_game(get_game(game_id), seats, bot, kind, seed, tally)
    return tally


def _merge(into: Tally, part: Tally) -> None:
    into.games += part.games
    into.wins += part.wins
    into.margin += part.margin
    into.decisions += part.decisions
    for kind, times in part.by_kind.items():
        into.by_kind.setdefault(kind, []).extend(times)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem bench bots", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--games", type=int, default=20, help="games against each kind of opponent")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--seed", default="bots")
    parser.add_argument("--against", choices=("random", "defaults", "both"), default="both")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once, one process each (CPU times "
                        "are per process, so they stay comparable)")
    parser.add_argument("--progress", action="store_true", help="a line after every game")
    args = parser.parse_args(argv)
    game = get_game(args.game)
    count = args.players or FAIR_SEATS.get(game.info.id, game.info.min_seats)
    seats = game.seat_names(count, game.info.resolve_options({}))
    kinds = ["random", "defaults"] if args.against == "both" else [args.against]
    tallies = {kind: Tally() for kind in kinds}
    decisions: list[float] = []
    by_kind: dict[str, list[float]] = {}
    pool = multiprocessing.get_context("fork").Pool(args.jobs) if args.jobs > 1 else None
    for kind in kinds:
        tally = tallies[kind]
        # the bot takes every seat position in turn: game i puts it in seat i mod seats
        jobs = [(args.game, seats, seats[index % len(seats)], kind, f"{args.seed}-{kind}-{index}")
                for index in range(args.games)]
        results = pool.imap(_one_game, jobs) if pool is not None else map(_one_game, jobs)
        for job, part in zip(jobs, results, strict=True):
            _merge(tally, part)
            if args.progress:
                print(f"  game {tally.games} vs {kind}: bot as {job[2]}, won so far {tally.wins:g} of {tally.games}",
                      flush=True)
        decisions += tally.decisions
        for decision, times in tally.by_kind.items():
            by_kind.setdefault(decision, []).extend(times)
        print(f"vs {kind}: {tally.games} games, {len(seats)} seats (fair share {100 / len(seats):.0f} %), "
              f"bot won {tally.share:.1f} %, mean margin {tally.margin / max(1, tally.games):+.1f}, "
              f"{len(tally.decisions)} decisions, p50 {1000 * _percentile(tally.decisions, 0.5):.0f} ms CPU, "
              f"p95 {1000 * _percentile(tally.decisions, 0.95):.0f} ms CPU", flush=True)
    if pool is not None:
        pool.close()
        pool.join()
    # the target holds for every kind of decision, not only for all of them together
    for decision, times in sorted(by_kind.items()):
        print(f"decision {decision}: {len(times)} decisions, p95 {1000 * _percentile(times, 0.95):.0f} ms CPU, "
              f"slowest {1000 * max(times):.0f} ms CPU")
    for kind in ("random", "defaults"):
        share = f"{tallies[kind].share:.1f}" if kind in tallies else "n/a"
        print(f"win share vs {kind}: {share} %")
    print(f"decision p95: {1000 * _percentile(decisions, 0.95):.0f} ms")
    return 0
