"""`pbem liveness [GAME...] [--seeds N] [--seed S] [--full] [--mode M]`: every game must end.

Plays every player count and option set of each game through the protocol (`apply_checked`,
`default_order`), in two ways, and reports any game that does not end within its step bound:

- `defaults`: nobody ever orders; every waiting seat takes its deadline default, the way the
  deadline sweep does it (sealed groups whole, then the open prompts one seat at a time);
- `mixed`: a seeded random mix of random legal orders and defaults (each game draws its own
  default rate, so some games are almost all defaults).

Random self-play alone misses loops that only defaults walk into (a random player rarely takes
the default twice in a row), hence the first mode.
"""

from __future__ import annotations

import argparse
import itertools
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from adjudicator.engine import GameModule, IllegalOrder, Prompt, all_games, apply_checked, get_game

# The most steps (apply calls) a game may take before it counts as not ending. Each is the
# largest step count measured over a sweep of both modes (`pbem liveness --full --seeds 3` for
# doge, china and 1960; `pbem liveness founding-fathers --seeds 4` for Founding Fathers, whose
# full product is 96 option sets) times a margin of about 3, rounded up:
#   doge 317 (2026-11-25, rules version 3: runners-up and tied placers decide on their houses,
#   one more step per placement, and random players who decline houses build later; the covering
#   set with 25 seeds, 900 games), china 129, 1960 341,
#   founding-fathers 1101 (mixed mode).
# A game that needs more has either grown a loop or changed enough that the bound must be
# measured again (docs/games/<game>.md, "Liveness").
STEP_BOUNDS: dict[str, int] = {
    "doge": 1_000,
    "china": 400,
    "1960": 1_100,
    "founding-fathers": 3_500,
}
MODES = ("defaults", "mixed")
DEFAULT_RATES = (0.3, 0.7, 0.95)  # the mixed mode draws one per game


@dataclass
class LiveResult:
    game: str
    players: int
    options: dict[str, Any]
    mode: str
    seed: str
    steps: int
    ended: bool
    problem: str = ""

    def describe(self) -> str:
        opts = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items())) or "default set"
        what = self.problem or ("ended" if self.ended else "did not end")
        return (f"{self.game} players={self.players} options=[{opts}] mode={self.mode} "
                f"seed={self.seed}: {what} after {self.steps} steps")


def option_sets(game: GameModule, full: bool = True) -> list[dict[str, Any]]:
    """Option sets to play: every combination of the options' choices (`full`), or the default set
    plus each non-default choice alone plus every option at its last choice (CI's covering set).
    Content options (boards, decks) keep their built-in default."""
    varied = [o for o in game.info.options if o.library is None and o.choices]
    if full:
        return [dict(zip([o.name for o in varied], combo, strict=True))
                for combo in itertools.product(*(o.choices for o in varied))]
    sets: list[dict[str, Any]] = [{}]
    for option in varied:
        sets += [{option.name: c} for c in option.choices if c != option.default]
    last = {o.name: o.choices[-1] for o in varied if o.choices[-1] != o.default}
    if len(last) > 1:
        sets.append(last)
    return sets


def configurations(game_id: str, full: bool = True) -> Iterator[tuple[int, dict[str, Any]]]:
    """(players, options) pairs the game accepts; a set its setup refuses (China's 4-5 board side
    with 3 players) is not a game anyone can start, so it is left out."""
    game = get_game(game_id)
    for players in range(game.info.min_seats, game.info.max_seats + 1):
        for options in option_sets(game, full):
            resolved = game.info.resolve_options(options)
            try:
                game.setup("liveness:probe", game.seat_names(players, resolved), resolved)
            except IllegalOrder:
                continue
            yield players, options


def _deadline_sweep(prompts: dict[str, Prompt]) -> list[list[str]]:
    """The seats of one deadline sweep, one apply call each, in the order the service defaults
    them: every sealed group whole, then the open prompts one seat at a time."""
    groups: dict[str, list[str]] = {}
    for seat, prompt in prompts.items():
        if prompt.sealed:
            groups.setdefault(str(prompt.group), []).append(seat)
    return [*groups.values(), *([seat] for seat, p in prompts.items() if not p.sealed)]


def _group_now(prompts: dict[str, Prompt], seat: str) -> list[str]:
    """The seats applied together with `seat` now: its whole sealed group, or itself alone."""
    prompt = prompts.get(seat)
    if prompt is None:
        return []
    if not prompt.sealed:
        return [seat]
    return [s for s, p in prompts.items() if p.sealed and p.group == prompt.group]


def play_live(game_id: str, players: int, options: dict[str, Any], mode: str, seed: str,
              step_limit: int | None = None) -> LiveResult:
    """Play one game in `mode` until it ends or takes `step_limit` steps (its STEP_BOUNDS entry)."""
    game = get_game(game_id)
    limit = step_limit if step_limit is not None else STEP_BOUNDS[game_id]
    resolved = game.info.resolve_options(options)
    seats = game.seat_names(players, resolved)
    state = game.setup(f"liveness:{seed}", seats, resolved).state
    rnd = random.Random(f"{game_id}:{players}:{sorted(options.items())}:{mode}:{seed}")
    rate = rnd.choice(DEFAULT_RATES)
    steps = 0

    def result(ended: bool, problem: str = "") -> LiveResult:
        return LiveResult(game_id, players, dict(options), mode, seed, steps, ended, problem)

    while steps < limit:
        prompts = game.prompts(state)
        if not prompts:
            if game.outcome(state) is None:
                return result(True, "no prompts left but no outcome")
            return result(True)
        if mode == "defaults":
            batch = _deadline_sweep(prompts)
        else:
            batch = [_group_now(prompts, rnd.choice(sorted(prompts)))]
        current = prompts
        for index, group in enumerate(batch):
            if index:
                current = game.prompts(state)
                if _group_now(current, group[0]) != group:
                    break  # an earlier apply of this sweep moved the game on; sweep again
            # defaults are computed on the state they apply to, as the deadline sweep does
            orders = {s: (game.default_order(state, s) if mode == "defaults" or rnd.random() < rate
                          else rnd.choice(current[s].choices)) for s in group}
            try:
                state = apply_checked(game, state, orders).state
            except IllegalOrder as exc:
                return result(False, f"orders {orders!r} refused: {exc}")
            steps += 1
            if steps >= limit or mode != "defaults":
                break
    ended = not game.prompts(state)
    return result(ended, "" if ended else f"no end within {limit} steps")


def sweep(game_ids: list[str], seeds: int, seed: str = "1", full: bool = True,
          modes: tuple[str, ...] = MODES) -> list[LiveResult]:
    results = []
    for game_id in game_ids:
        for players, options in configurations(game_id, full):
            for mode in modes:
                for index in range(seeds):
                    results.append(play_live(game_id, players, options, mode, f"{seed}-{index}"))
    return results


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="pbem liveness", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--seeds", type=int, default=3, help="games per configuration and mode")
    parser.add_argument("--seed", default="1")
    parser.add_argument("--full", action="store_true",
                        help="every combination of option choices (default: a covering set)")
    parser.add_argument("--mode", choices=MODES, action="append", default=None,
                        help="play only this mode (repeatable; default: both)")
    args = parser.parse_args(argv)
    modes = tuple(args.mode or MODES)
    known = [g for g in all_games() if g in STEP_BOUNDS]
    unknown = [g for g in args.games if g not in known]
    if unknown:
        raise SystemExit(f"no game with a step bound called {', '.join(unknown)}; known: {', '.join(known)} "
                         "(a new game needs an entry in STEP_BOUNDS, adjudicator/cli/liveness.py)")
    failed = 0
    for game_id in args.games or list(known):
        started = time.perf_counter()
        results = sweep([game_id], args.seeds, args.seed, args.full, modes)
        bad = [r for r in results if not r.ended or r.problem]
        failed += len(bad)
        for mode in modes:
            steps = [r.steps for r in results if r.mode == mode]
            print(f"{game_id} {mode}: games {len(steps)}, steps max {max(steps)} "
                  f"mean {sum(steps) / len(steps):.0f} (bound {STEP_BOUNDS[game_id]})")
        print(f"{game_id}: {len(results)} games in {time.perf_counter() - started:.1f} s, "
              f"{len(bad)} did not end")
        for r in bad[:20]:
            print(f"not live: {r.describe()}")
    print(f"not live: {failed}")
    return 1 if failed else 0
