"""Liveness: every game ends, on deadline defaults alone and on a random mix of orders and defaults.

Every built-in game, every player count and (in CI) a covering set of option sets: the default
set, each non-default choice alone, and every option at its last choice together. They are
played in both modes of `adjudicator.cli.liveness` (`defaults`: nobody ever orders; `mixed`:
random legal orders and defaults; see `_plan` for which pairs each mode plays), and fail unless
the game ends within the game's STEP_BOUNDS entry. The default option set gets extra seeds.

The full sweep (every combination of option choices, more seeds) runs with
`PBEM_LIVENESS=full [PBEM_LIVENESS_SEEDS=3] pytest tests/conformance/test_liveness.py`, or from the
command line as `pbem liveness --full --seeds 3`.
"""

from __future__ import annotations

import os

import pytest

from adjudicator.cli.liveness import MODES, STEP_BOUNDS, configurations, play_live
from adjudicator.engine import all_games, apply_checked

FULL = os.environ.get("PBEM_LIVENESS") == "full"
SEEDS = int(os.environ.get("PBEM_LIVENESS_SEEDS", "3" if FULL else "1"))
EXTRA_SEEDS_FOR_DEFAULT_OPTIONS = 2
BUILTIN = sorted(g for g, m in all_games().items() if type(m).__module__.startswith("adjudicator.games."))


def test_every_builtin_game_has_a_step_bound() -> None:
    assert BUILTIN, "no built-in games registered"
    assert sorted(STEP_BOUNDS) == BUILTIN


def _plan(game_id: str, mode: str) -> list[tuple[int, dict, int]]:
    """(players, options, seeds) to play. The defaults mode (where the loops hide) plays every
    player count with every option set; in CI the mixed mode, which random self-play already
    samples, plays each non-default option set with one player count, taken in turn."""
    by_set: dict[str, tuple[dict, list[int]]] = {}
    for players, options in configurations(game_id, full=FULL):
        by_set.setdefault(repr(sorted(options.items())), (options, []))[1].append(players)
    plan = []
    for index, (options, counts) in enumerate(by_set.values()):
        if not options:
            plan += [(players, options, SEEDS + EXTRA_SEEDS_FOR_DEFAULT_OPTIONS) for players in counts]
        elif FULL or mode == "defaults":
            plan += [(players, options, SEEDS) for players in counts]
        else:
            plan.append((counts[index % len(counts)], options, SEEDS))
    return plan


def test_the_ci_plan_plays_every_option_set_in_both_modes() -> None:
    for game_id in BUILTIN:
        sets = {repr(sorted(o.items())) for _, o in configurations(game_id, full=FULL)}
        for mode in MODES:
            planned = [(players, repr(sorted(o.items()))) for players, o, _ in _plan(game_id, mode)]
            assert {key for _, key in planned} == sets
            assert len(planned) == len(set(planned))


@pytest.mark.slow
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("game_id", BUILTIN)
def test_every_player_count_and_option_set_ends(game_id: str, mode: str) -> None:
    not_live = []
    plan = _plan(game_id, mode)
    for players, options, seeds in plan:
        for index in range(seeds):
            result = play_live(game_id, players, options, mode, f"ci-{index}")
            if not result.ended or result.problem:
                not_live.append(result.describe())
    assert {players for players, _, _ in plan} == set(range(all_games()[game_id].info.min_seats,
                                                            all_games()[game_id].info.max_seats + 1))
    assert not_live == []


def test_the_defaults_mode_catches_the_agenda_loop_of_issue_14(monkeypatch) -> None:
    # The harness must see a game that never ends: put back the Founding Fathers agenda default
    # that appointed the General back and forth (the first choice) and play 3 players on defaults.
    from adjudicator.games.founding_fathers.issues import Desk

    def looping_default(self, state, args, seat):
        choices = self.choices(state, args, seat)
        return next((c for c in choices if c["act"] in ("draw", "end")), choices[0])

    monkeypatch.setattr(Desk, "default", looping_default)
    result = play_live("founding-fathers", 3, {}, "defaults", "0", step_limit=1_000)
    assert not result.ended and "no end within 1000 steps" in result.problem
    monkeypatch.undo()
    assert play_live("founding-fathers", 3, {}, "defaults", "0").ended


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("max_years", [0, 10])
def test_doge_on_defaults_ends_by_the_rulebook_with_or_without_the_year_limit(players: int, max_years: int) -> None:
    # Issue 14: the year limit (max_years, 0 = off, the default) is an optional safety end. A game
    # nobody plays (civil disorder: deadline defaults only) must still end, within the bound
    # STEP_BOUNDS["doge"] (1,000 steps), and by the rulebook's own end - someone is Doge - before
    # even a 10-year limit would stop it: the defaults aim at a palace in every district.
    from adjudicator.engine import get_game
    from adjudicator.games.doge.board import palace_districts

    game = get_game("doge")
    options = {"max_years": max_years}
    for seed in ("doge-0", "doge-1"):
        state = game.setup(f"liveness:{seed}", game.seat_names(players, options), options).state
        steps = 0
        while game.prompts(state):
            assert steps < STEP_BOUNDS["doge"], f"{players} players, max_years={max_years}: no end"
            prompts = game.prompts(state)
            sealed = [s for s, p in prompts.items() if p.sealed]
            group = sealed or [next(iter(prompts))]
            state = apply_checked(game, state, {s: game.default_order(state, s) for s in group}).state
            steps += 1
        result = state["result"]
        assert result["reason"] == "doge", result
        assert any(palace_districts(state, s) >= 4 for s in result["winners"])
        assert result["year"] < 10
