"""Random full games through the protocol: no violations for every player count, side and variant.

`pbem selfplay china --games 2000` does the same at scale once the game is registered.
"""

from __future__ import annotations

import pytest

from adjudicator.cli.playout import play_one
from adjudicator.engine.registry import register
from adjudicator.games.china import GAME

pytestmark = pytest.mark.slow

GAMES_PER_CONFIG = 50
CONFIGS = [(3, "auto"), (4, "3-4"), (4, "4-5"), (5, "auto")]


@pytest.fixture(autouse=True)
def registered():
    register(GAME)  # the lead adds China to adjudicator/games/__init__.py; until then, here
    yield GAME


@pytest.mark.parametrize("forts", [False, True], ids=["basic", "fortifications"])
@pytest.mark.parametrize(("players", "side"), CONFIGS, ids=[f"{p}p-{s}" for p, s in CONFIGS])
def test_random_games_have_no_violations(players, side, forts):
    reasons = set()
    for index in range(GAMES_PER_CONFIG):
        result = play_one("china", f"test-{players}-{side}-{forts}-{index}", players,
                          {"side": side, "fortifications": forts})
        assert result.violations == []
        state = result.record.state
        assert not GAME.prompts(state) and GAME.outcome(state) is not None
        expected = {3: "3-4p", 4: f"{side}p", 5: "4-5p"}[players]
        assert state["board"] == expected
        reasons.add(state["result"]["reason"])
    assert "deck" in reasons


def test_defaults_alone_finish_a_game():
    result = play_one("china", "all-defaults", 4, {"fortifications": True}, default_rate=1.0)
    assert result.violations == []
    assert GAME.outcome(result.record.state) is not None


def test_same_seed_same_game():
    a = play_one("china", "same", 5).record.state
    b = play_one("china", "same", 5).record.state
    assert a == b
