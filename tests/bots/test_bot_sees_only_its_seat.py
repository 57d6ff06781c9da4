"""The substitute decides from its own seat's view: hidden values never change its move, and the
same state and public record always give the same move (issue 28)."""

from __future__ import annotations

import random

import pytest

from adjudicator.bots.search import BotConfig, choose, decision_seed, determinize
from adjudicator.engine import apply_checked, canonical_json, get_game
from adjudicator.service.common.hidden import scrambled

GAMES = {"1960": 2, "doge": 4, "china": 4, "founding-fathers": 5}
# random steps after each choice, whatever the title's own configuration (defaults' rollouts, no
# look-ahead): the hidden-information property must hold on both paths
SMALL = BotConfig(candidates=4, samples=2, horizon=3)


def _midgame(game_id: str, seed: int, steps: int):
    """A state some random steps in, with a seat whose decision has more than one choice."""
    game = get_game(game_id)
    options = game.info.resolve_options({})
    seats = game.seat_names(GAMES[game_id], options)
    state = game.setup(f"bots-test:{seed}", seats, options).state
    rnd = random.Random(seed)
    found = None
    for _ in range(steps):
        prompts = game.prompts(state)
        assert prompts, "the game ended before the test's decision"
        choosers = [s for s, p in sorted(prompts.items()) if len(p.choices) > 1]
        if choosers:
            found = (state, choosers[0])
        seat = rnd.choice(sorted(prompts))
        prompt = prompts[seat]
        group = (sorted(s for s, p in prompts.items() if p.sealed and p.group == prompt.group) if prompt.sealed
                 else [seat])
        state = apply_checked(game, state, {s: rnd.choice(prompts[s].choices) for s in group}, prompts).state
    prompts = game.prompts(state)
    choosers = [s for s, p in sorted(prompts.items()) if len(p.choices) > 1]
    if choosers:
        found = (state, choosers[0])
    assert found is not None
    return game, found[0], found[1]


def _scrambled(game, state, seat, seed: str):
    """`state` with every value `seat` may not see changed (the product's own scrambler, which
    the whole-turn lines of the mails are checked against too)."""
    return scrambled(state, seat, seed)


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed,steps", [(1, 12), (2, 40)])
def test_hidden_values_never_change_the_move(game_id, seed, steps):
    game, state, seat = _midgame(game_id, seed, steps)
    assert canonical_json(game.view(_scrambled(game, state, seat, "a"), seat)) == canonical_json(game.view(state, seat))
    move = choose(game, state, seat, public="h", config=SMALL)
    assert game.prompts(state)[seat].allows(move)
    for scramble in ("a", "b", "c"):
        assert choose(game, _scrambled(game, state, seat, scramble), seat, public="h", config=SMALL) == move


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed,steps", [(1, 12), (2, 40), (6, 90)])
def test_the_games_evaluation_reads_only_the_seats_view(game_id, seed, steps):
    game, state, seat = _midgame(game_id, seed, steps)
    value = game.evaluate(state, seat)
    assert isinstance(value, float)
    for scramble in ("a", "b"):
        assert game.evaluate(_scrambled(game, state, seat, scramble), seat) == value


@pytest.mark.parametrize("game_id", sorted(GAMES))
@pytest.mark.parametrize("seed,steps", [(3, 20), (7, 60)])
def test_the_same_record_gives_the_same_move_with_the_titles_configuration(game_id, seed, steps):
    game, state, seat = _midgame(game_id, seed, steps)
    first = choose(game, state, seat, public="last-hash")
    assert choose(game, _scrambled(game, state, seat, "z"), seat, public="last-hash") == first
    assert game.prompts(state)[seat].allows(first)


def test_the_seed_comes_from_the_view_and_public_data_only():
    game, state, seat = _midgame("china", 4, 10)
    view = game.view(state, seat)
    assert decision_seed(view, seat, "h1") == decision_seed(game.view(_scrambled(game, state, seat, "q"), seat), seat,
                                                            "h1")
    assert decision_seed(view, seat, "h1") != decision_seed(view, seat, "h2")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_sampled_state_keeps_the_view_and_samples_the_rest(game_id):
    game, state, seat = _midgame(game_id, 5, 15)
    view = game.view(state, seat)
    sample = determinize(game, view, seat, "s1")
    for key, value in view.items():  # what the seat sees is kept as it is
        if key != "private":
            assert canonical_json(sample[key]) == canonical_json(value), key
    assert sample["private"][seat] == state["private"][seat]
    assert set(sample["private"]) == set(state["private"])
    assert sample["secret"]["rng"] != state["secret"]["rng"]
    assert game.prompts(sample)[seat].kind == game.prompts(state)[seat].kind
