"""Every record the server ever published verifies with this build (docs/architecture.md, "Changing
a rule without breaking old records").

`fixtures/` holds at least one finished record per title and per published rules version, each
exported by the build of that version (`fixtures/README.md` says which commit and command made
each). A new rules version is added to PUBLISHED with a fixture of its own; a version is never
taken away, so a build that can no longer replay one fails here.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from adjudicator.cli.verify import main as verify_main
from adjudicator.engine import IllegalOrder, all_games, apply_checked, get_game
from adjudicator.games import CHINA, DOGE, FOUNDING_FATHERS, NINETEEN_SIXTY
from adjudicator.record import verify_bytes
from adjudicator.record.chain import derive_seed
from adjudicator.record.verify import replay_record

FIXTURES = Path(__file__).with_name("fixtures")
PUBLISHED = {  # every rules version a release has played, oldest first (git log of the version constants)
    "doge": ("1", "2", "3"),
    "china": ("1", "2"),
    "1960": ("gmt-2017-1", "gmt-2017-2", "gmt-2017-3"),
    "founding-fathers": ("1.6", "1.6-2", "1.6-3"),
}
# the published games' records (the tests' toy game has a fixture here too, for test_derived_fields)
RECORDS = sorted(p for p in [*FIXTURES.glob("*.json"), *FIXTURES.glob("*.json.gz")] if not p.name.startswith("toy-"))


def read(path: Path) -> bytes:
    raw = path.read_bytes()
    return gzip.decompress(raw) if path.suffix == ".gz" else raw


def fixture(game: str, version: str) -> dict:
    return next(doc for doc in map(json.loads, map(read, RECORDS))
                if (doc["game"], doc["rules_version"]) == (game, version))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_every_fixture_record_verifies_by_the_version_it_names(path: Path) -> None:
    raw = read(path)
    report = verify_bytes(raw)
    assert report.replayed and report.finished
    assert report.rules_version == json.loads(raw)["rules_version"]


def test_every_published_rules_version_is_still_replayed() -> None:
    built_in = {game.info.id for game in (CHINA, DOGE, FOUNDING_FATHERS, NINETEEN_SIXTY)}
    assert set(PUBLISHED) == built_in and built_in <= set(all_games())
    for game_id, versions in PUBLISHED.items():
        info = get_game(game_id).info
        assert info.rules_version == versions[-1]
        assert {info.rules_version, *info.replays} == set(versions), game_id


def test_every_published_rules_version_has_a_fixture() -> None:
    present = {(doc["game"], doc["rules_version"]) for doc in map(json.loads, map(read, RECORDS))}
    assert present == {(game, version) for game, versions in PUBLISHED.items() for version in versions}


def test_the_fixtures_stay_small() -> None:
    assert sum(path.stat().st_size for path in RECORDS) < 1_000_000


def test_pbem_verify_names_the_version_it_replayed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "old.json"
    path.write_bytes(read(FIXTURES / "1960-rules-gmt-2017-1.json.gz"))
    assert verify_main([str(path)]) == 0
    assert "OK: 1960, rules version gmt-2017-1, 210 entries replayed by those rules" in capsys.readouterr().out


# The version a record names selects the rules that replay it: played by another version's rules,
# the same orders give other states.

def replay_by(game_id: str, version: str, doc: dict) -> list[dict]:
    """Apply the record's orders from a setup of `version` (no hash checks): the states."""
    game = get_game(game_id)
    data = doc["entries"][0]["data"]
    state = game.setup_version(version, derive_seed(doc["server_seed"], data["entropy"]), data["seats"],
                               data["options"]).state
    game = game.for_rules(version)
    states = [state]
    for entry in doc["entries"][1:]:
        state = apply_checked(game, state, entry["data"]["orders"]).state
        states.append(state)
    return states


def test_a_1960_gmt_2017_1_record_replays_with_the_game_bound_to_its_version() -> None:
    """1960's states named no version before gmt-2017-3: `for_rules` binds the game to it (the
    bag rule it changes is tested on an exact state in tests/games/nineteen_sixty/test_bag_reseed.py)."""
    doc = fixture("1960", "gmt-2017-1")
    assert all("rules_version" not in state for _entry, state in replay_record(doc))
    game = get_game("1960")
    assert game.for_rules("gmt-2017-3") is game and game.for_rules("gmt-2017-2") is game
    assert game.for_rules("gmt-2017-1") is not game
    with pytest.raises(IllegalOrder):
        game.for_rules("gmt-2016")


def test_a_china_version_1_record_keeps_its_doubled_fortified_houses() -> None:
    doc = fixture("china", "1")
    assert doc["entries"][0]["data"]["options"]["fortifications"] is True
    recorded = [state for _entry, state in replay_record(doc)][-1]
    assert [s for s in recorded["forts"] if s in recorded["houses"]]  # fortified houses scored
    options = {**doc["entries"][0]["data"]["options"], "fortification_scoring": "neutral"}
    neutral = replay_by("china", "2", {**doc, "entries": [
        {**doc["entries"][0], "data": {**doc["entries"][0]["data"], "options": options}}, *doc["entries"][1:]]})
    assert neutral[-1]["result"]["scores"] != recorded["result"]["scores"]


def test_a_founding_fathers_1_6_2_record_parts_ways_under_rules_1_6_3() -> None:
    """The fixture delegates issues and ends in a monetary collapse: today's rules (the Vice-
    President's popularity for a delegated issue) lead to another game, whose next recorded
    order is refused."""
    doc = fixture("founding-fathers", "1.6-2")
    assert [s for _entry, s in replay_record(doc)][-1]["result"]["reason"] == "monetary-collapse"
    with pytest.raises(IllegalOrder):
        replay_by("founding-fathers", "1.6-3", doc)
