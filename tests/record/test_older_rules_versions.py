"""Records played under an older rules version still verify where the game says it replays it.

`fixtures/doge-rules-1.json` was exported by the build of commit 92aa437 (Doge rules version 1,
before issue 14): 3 players, `max_years` 10, seeded random orders with some defaults and salted
sealed groups, every Doge prompt kind. Version 2 added the winner's 'no houses' choice; replaying
the old record must give exactly the recorded state hashes.

`fixtures/doge-rules-2.json` was exported by the build of commit 3287e2a (Doge rules version 2,
before the runner-ups' and tied placers' `place-houses` decision of version 3) with
`tests/record/make_fixture.py doge 4 doge-v2 '{"max_years": 10}'`: 4 players, salted sealed
groups, runners-up in 47 elections, ties for first in 11, winners declining their houses.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from adjudicator.engine import IllegalOrder, apply_checked, get_game
from adjudicator.record import VerifyError, verify_bytes
from adjudicator.record.chain import derive_seed
from adjudicator.record.verify import replay_record

FIXTURE = Path(__file__).with_name("fixtures") / "doge-rules-1.json"
FIXTURE_2 = Path(__file__).with_name("fixtures") / "doge-rules-2.json"


def test_a_doge_version_1_record_verifies_with_this_build() -> None:
    raw = FIXTURE.read_bytes()
    assert json.loads(raw)["rules_version"] == "1" and get_game("doge").info.rules_version == "3"
    report = verify_bytes(raw)
    assert report.replayed and report.finished and report.entries == 84


def test_the_replayed_version_1_game_keeps_its_version_and_prompts() -> None:
    states = [state for _entry, state in replay_record(json.loads(FIXTURE.read_bytes()))]
    assert {s["rules_version"] for s in states} == {"1"}
    game = get_game("doge")
    offered = [c for s in states for p in game.prompts(s).values() for c in p.choices
               if isinstance(c, dict) and c.get("houses") is False]
    assert offered == []  # version 1 never offered 'no houses'


def test_a_doge_version_2_record_verifies_and_never_asks_the_runners_up() -> None:
    raw = FIXTURE_2.read_bytes()
    assert json.loads(raw)["rules_version"] == "2"
    report = verify_bytes(raw)
    assert report.replayed and report.finished and report.entries == 129
    states = [state for _entry, state in replay_record(json.loads(raw))]
    assert {s["rules_version"] for s in states} == {"2"}
    game = get_game("doge")
    assert any((s.get("election") or {}).get("runners_up") for s in states)  # there was something to ask
    assert [p for s in states for p in game.prompts(s).values() if p.kind == "place-houses"] == []
    assert any(c.get("houses") is False for s in states for p in game.prompts(s).values()
               if p.kind == "district-advisor" for c in p.choices)  # version 2's own choice stays


def test_an_unknown_rules_version_is_still_refused() -> None:
    doc = json.loads(FIXTURE.read_bytes())
    doc["rules_version"] = doc["entries"][0]["data"]["rules_version"] = "0"
    with pytest.raises(VerifyError, match="was played under rules version 0, this build has 3"):
        list(replay_record(doc))  # the replay itself, past the hash chain that the edit broke
    with pytest.raises(IllegalOrder):
        get_game("china").setup_version("0", "seed", ["blue", "green", "red"], {})



# Founding Fathers: `fixtures/founding-fathers-rules-1.6*.json` were exported by the build of
# commit 92aa437 (rules 1.6, before issue 14's rules 1.6-2) with tests/record/make_fixture.py:
# `founding-fathers 6 ff16-16 '{}'` (the standard game, 6 players: deaths, a succession, hands over
# the limit after the draft, a resolution cancelled by judicial review) and
# `founding-fathers 3 ff16-c '{"scenario": "C", "persuasion": true, "bad_reputation": true}'`.
FF_FIXTURES = sorted(Path(__file__).with_name("fixtures").glob("founding-fathers-rules-1.6*.json"))
FF_STANDARD = Path(__file__).with_name("fixtures") / "founding-fathers-rules-1.6.json"


@pytest.mark.parametrize("path", FF_FIXTURES, ids=lambda p: p.stem)
def test_a_founding_fathers_rules_16_record_verifies_with_this_build(path: Path) -> None:
    raw = path.read_bytes()
    assert json.loads(raw)["rules_version"] == "1.6" and get_game("founding-fathers").info.rules_version == "1.6-3"
    report = verify_bytes(raw)
    assert report.replayed and report.finished
    states = [state for _entry, state in replay_record(json.loads(raw))]
    assert {s["rules_version"] for s in states} == {"1.6"}
    assert all("vacated" not in s["term"] and "short_game" not in s["options"] for s in states)


def test_the_16_record_does_not_replay_under_rules_16_2() -> None:
    # The version selects the behaviour: played by today's rules, the same orders part ways
    # (here a hand over the limit is shed at once, so the recorded next order is out of turn).
    game = get_game("founding-fathers")
    doc = json.loads(FF_STANDARD.read_bytes())
    assert len(doc["entries"]) == 864
    data = doc["entries"][0]["data"]
    state = game.setup(derive_seed(doc["server_seed"], data["entropy"]), data["seats"], data["options"]).state
    with pytest.raises(IllegalOrder):
        for entry in doc["entries"][1:]:
            state = apply_checked(game, state, entry["data"]["orders"]).state
