"""Random full games through the protocol: parse/format, defaults, invariants, views."""

from __future__ import annotations

import pytest

from adjudicator.cli.playout import play_one
from adjudicator.engine import get_game


@pytest.fixture
def registered():
    return get_game("1960")  # a built-in game: registered by adjudicator.games


@pytest.mark.slow
def test_fifty_random_games(registered):
    for i in range(50):
        result = play_one("1960", f"t{i}", check_views=i % 10 == 0)
        assert result.violations == []
        assert registered.outcome(result.record.state) is not None
