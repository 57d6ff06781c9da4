"""Protocol conformance, run over every registered game."""

import random

import pytest

from adjudicator.cli.playout import play_one
from adjudicator.engine import all_games
from adjudicator.record import VerifyError, export_bytes, verify_bytes

GAMES = sorted(all_games())


@pytest.mark.parametrize("game_id", GAMES)
def test_random_full_games_have_no_violations(game_id):
    game = all_games()[game_id]
    for players in range(game.info.min_seats, game.info.max_seats + 1):
        for index in range(6):
            result = play_one(game_id, f"conformance-{players}-{index}", players)
            assert result.violations == []
            assert not game.prompts(result.record.state), "the game must end"
            assert game.outcome(result.record.state) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_records_replay_to_the_same_hashes(game_id):
    result = play_one(game_id, "replay", None)
    report = verify_bytes(export_bytes(result.record.export()))
    assert report.replayed and report.finished
    assert report.entries == result.steps + 1


@pytest.mark.parametrize("game_id", GAMES)
def test_any_changed_byte_of_an_export_fails_verification(game_id):
    raw = export_bytes(play_one(game_id, "tamper", None).record.export())
    rnd = random.Random(7)
    positions = rnd.sample(range(len(raw) - 1), min(150, len(raw) - 1))
    for position in positions:
        changed = bytearray(raw)
        changed[position] = (changed[position] + 1 + rnd.randrange(254)) % 256
        with pytest.raises(VerifyError):
            verify_bytes(bytes(changed))


@pytest.mark.parametrize("game_id", GAMES)
def test_defaults_alone_finish_a_game(game_id):
    # A game where everybody always misses the deadline must still end.
    result = play_one(game_id, "all-defaults", None, default_rate=1.0)
    assert result.violations == []
    assert all_games()[game_id].outcome(result.record.state) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_running_export_verifies_chain_only_until_the_seed_is_revealed(game_id):
    record = play_one(game_id, "running", None).record
    doc = record.export(reveal_seed=False)
    report = verify_bytes(export_bytes(doc))
    assert not report.replayed
