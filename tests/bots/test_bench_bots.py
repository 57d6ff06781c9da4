"""`pbem bench bots`: one whole game with the substitute in a seat is tallied (issue 28)."""

from __future__ import annotations

from adjudicator.bench.bots import Tally, _percentile, play_bot_game
from adjudicator.bots.search import BotConfig
from adjudicator.engine import get_game

TINY = BotConfig(candidates=2, samples=1, horizon=0)


def test_a_whole_game_against_defaults_is_counted_once_with_its_decisions():
    game = get_game("1960")
    seats = game.seat_names(2, game.info.resolve_options({}))
    tally = Tally()
    play_bot_game(game, seats, "nixon", "defaults", "t1", tally, config=TINY)
    assert tally.games == 1
    assert tally.wins in (0.0, 0.5, 1.0)
    assert tally.decisions and all(t >= 0 for t in tally.decisions)
    # each decision's time is also filed under its kind, for the per-kind p95 lines
    assert sorted(t for times in tally.by_kind.values() for t in times) == sorted(tally.decisions)
    again = Tally()
    play_bot_game(game, seats, "nixon", "defaults", "t1", again, config=TINY)
    assert (again.wins, again.margin, len(again.decisions)) == (tally.wins, tally.margin, len(tally.decisions))


def test_percentiles_read_the_sorted_values():
    assert _percentile([3.0, 1.0, 2.0, 4.0], 0.5) == 3.0
    assert _percentile([5.0, 1.0], 0.95) == 5.0
    assert _percentile([], 0.95) == 0.0


def test_every_move_is_legal_in_the_real_game_even_where_the_sample_differs():
    """The sampled deck may be shorter or longer than the real one (China's draw choices depend on
    it): the bot only ever plays a choice of the seat's real decision (apply_checked checks)."""
    for game_id, count in (("china", 4), ("doge", 4)):
        game = get_game(game_id)
        seats = game.seat_names(count, game.info.resolve_options({}))
        for index, kind in enumerate(("defaults", "random")):
            tally = Tally()
            play_bot_game(game, seats, seats[index + 1], kind, f"legal-{index}", tally, config=TINY)
            assert tally.games == 1 and tally.decisions
