"""Rules 1.6 kept for replay: a state that says `rules_version` "1.6" (a record made before issue
14's changes, replayed by `pbem verify`) plays as 1.6 did, item by item. Each test is the pair of
the issue-14 test in test_ff_audit14.py: the same exact state, with 1.6's old outcome."""

from __future__ import annotations

from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.state import HAND_LIMIT, RULES_16, eligible_appointees, owner
from adjudicator.games.founding_fathers.turn import kill
from tests.games.founding_fathers.helpers import act, fresh, waiting
from tests.games.founding_fathers.test_ff_audit14 import (
    _bank_through_congress,
    _fill_hand,
    _gerry_president,
    _people_draft,
)

State = dict


def as_16(state: State) -> State:
    """The same state as rules 1.6 made it (no record of vacated offices)."""
    state["rules_version"] = RULES_16
    state["term"].pop("vacated", None)
    return state


def test_setup_for_a_16_record_keeps_16s_state() -> None:
    options = {k: v for k, v in GAME.info.resolve_options({}).items() if k != "short_game"}
    state = GAME.setup_version(RULES_16, "seed", GAME.seat_names(4, {}), options).state
    assert state["rules_version"] == RULES_16
    assert "vacated" not in state["term"] and "short_game" not in state["options"]
    assert GAME.setup("seed", GAME.seat_names(4, {}), {}).state["term"]["vacated"] == []


def test_16_checked_the_hand_limit_only_after_the_draft() -> None:
    state = as_16(_people_draft(fresh(5)))
    first, second = state["people"]["drafters"][:2]
    _fill_hand(state, first, HAND_LIMIT)
    state = act(state, first, f"take {sorted(state['secret']['packet'])[0]}")
    assert state["factions"][first]["hand"] == HAND_LIMIT + 1
    assert waiting(state) == {second: "draft"}  # 1.6-2: the first drafter discards at once
    assert GAME.invariants(state) == []


def test_16_put_the_liberals_first_under_gerry_at_support_zero() -> None:
    from adjudicator.games.founding_fathers.people import paper_order

    state = as_16(_gerry_president(fresh(5)))
    state["support"] = 0
    assert paper_order(state) == ["L", "C"]  # 1.6-2: ["C", "L"] (Washington is more popular)
    state["support"] = -1
    assert paper_order(state) == ["C", "L"]


def test_16_sent_a_cancelled_resolution_to_the_next_era_without_a_result() -> None:
    state = as_16(_bank_through_congress())
    state = act(state, owner(state, "john-jay"), "cancel")
    assert "create-national-bank" in state["issues"]["pools"]["B"]  # 1.6-2: removed (its Failed result)
    assert "create-national-bank" not in state["issues"]["removed"]


def test_16_never_offered_a_holder_an_office_vacated_by_death() -> None:
    state = fresh(5)
    state = act(state, "red", "appoint secretary of state Jefferson")
    state = act(state, "red", "appoint treasury Hamilton")
    state = as_16(state)
    kill(state, "alexander-hamilton", [])
    assert "vacated" not in state["term"]
    assert "thomas-jefferson" not in eligible_appointees(state, "secretary-of-the-treasury")
    assert {"act": "appoint", "office": "secretary-of-the-treasury", "statesman": "thomas-jefferson"} \
        not in GAME.prompts(state)["red"].choices
