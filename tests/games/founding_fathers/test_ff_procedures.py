"""Exact-state tests of the procedures and the rulebook's worked examples."""

from __future__ import annotations

import pytest

from adjudicator.engine import Event
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.flowbase import FLOW
from adjudicator.games.founding_fathers.people import FLOW as PFLOW
from adjudicator.games.founding_fathers.people import newspapers_auto
from adjudicator.games.founding_fathers.state import owned, popularity
from adjudicator.games.founding_fathers.turn import crisis, treasury
from tests.games.founding_fathers.helpers import act, fresh, waiting


def test_setup_five_players() -> None:
    state = fresh(5)
    assert state["offices"]["president"] == "george-washington"
    assert state["offices"]["vice-president"] == "john-adams"
    for seat in state["seats"]:
        assert len(owned(state, seat)) == 3
        assert len(state["private"][seat]["hand"]) == 2
        assert state["factions"][seat]["influence"] == 3
    assert "george-washington" in owned(state, "red") and "benjamin-franklin" in owned(state, "red")
    assert "thomas-jefferson" in owned(state, "green")
    assert (state["revenue"], state["reserves"], state["support"], state["tension"]) == (-30, 0, 0, 0)
    assert sorted(state["map"]) == sorted(["NE", "NY", "PA", "NJ", "DE", "MD", "VA", "NC", "GA"])
    assert waiting(state) == {"red": "agenda"}


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_setup_all_counts(players: int) -> None:
    state = fresh(players)
    assert GAME.invariants(state) == []
    assert all(len(owned(state, s)) == 3 for s in state["seats"])


def _example_state():
    state = fresh(5)
    top = ["admit-ky", "create-national-bank"]
    deck = state["secret"]["issues"]
    for c in top:
        deck.remove(c)
    state["secret"]["issues"] = top + deck
    return state


def test_kentucky_and_national_bank_example() -> None:
    state = _example_state()
    state = act(state, "red", "appoint secretary of state Jefferson")
    state = act(state, "red", "appoint treasury Hamilton")
    jeff0, wash0 = popularity(state, "thomas-jefferson"), popularity(state, "george-washington")
    state = act(state, "red", "draw")
    assert state["issues"]["current"]["card"] == "admit-ky"
    state = act(state, "red", "assign admit")
    state = act(state, "green", "spend 0")  # ability 3 meets difficulty 2
    for seat in ["blue", "green", "yellow", "purple", "red"]:
        state = act(state, seat, "vote yes")
    assert "KY" in state["map"]
    assert popularity(state, "thomas-jefferson") == jeff0 + 1
    assert popularity(state, "george-washington") == wash0 + 1
    # the National Bank: Hamilton (3) needs one influence from Washington (difficulty 4)
    state["statesmen"]["george-washington"]["influence"] = 1
    state = act(state, "red", "draw")
    state = act(state, "red", "assign resolve")
    state = act(state, "red", "give 1")
    state = act(state, "blue", "spend 1")
    for seat in ["blue", "green", "yellow", "purple", "red"]:
        state = act(state, seat, "yes")
    assert "create-national-bank" in state["issues"]["resolved"]
    assert state["statesmen"]["alexander-hamilton"]["influence"] == 0
    assert state["statesmen"]["george-washington"]["influence"] == 2  # the card's effect
    assert waiting(state) == {"red": "agenda"}  # no judicial review: the Theory is not in play


def test_failed_vote_loses_half_the_influence_and_tie_goes_to_vp() -> None:
    state = _example_state()
    state = act(state, "red", "appoint treasury Hamilton")
    state = act(state, "red", "draw")
    state = act(state, "red", "ignore")  # Kentucky ignored: back to the next era's deck
    assert state["issues"]["pools"]["B"] == ["admit-ky"]
    state = act(state, "red", "draw")
    state = act(state, "red", "assign resolve")
    state["statesmen"]["alexander-hamilton"]["influence"] = 0
    state["factions"]["blue"]["influence"] = 3
    state = act(state, "blue", "spend 1")
    votes = {"blue": "vote no", "green": "vote no", "yellow": "vote no", "purple": "abstain", "red": "abstain"}
    for seat in ["blue", "green", "yellow", "purple", "red"]:
        state = act(state, seat, votes[seat])
    assert state["factions"]["blue"]["influence"] == 3  # half of 1, rounded down, is 0
    assert "create-national-bank" in state["issues"]["removed"]


def test_vice_president_breaks_a_tie() -> None:
    state = _example_state()
    state = act(state, "red", "draw")
    state = act(state, "red", "appoint sos Jefferson")
    state = act(state, "red", "assign admit")
    state = act(state, "green", "spend 0")
    for seat in ["blue", "green", "yellow", "purple", "red"]:
        state = act(state, seat, "abstain")
    assert waiting(state) == {"purple": "tie"}  # John Adams is Vice-President
    state = act(state, "purple", "tie pass")
    assert "KY" in state["map"]


def test_treasury_interest_example() -> None:
    state = fresh(4)
    state["revenue"] = -45
    events: list[Event] = []
    treasury(state, events)
    assert state["reserves"] == -59  # -45, then interest 14 (13.5 rounded toward more debt)
    assert events[-1]["data"]["interest"] == 14
    assert GAME.invariants(state) == []


def test_economic_crisis_example() -> None:
    state = fresh(4)
    state["reserves"] = -340
    state["ledger"]["start"] = -340
    crisis(state, 2, [])
    assert state["ending"] == "monetary-collapse"


@pytest.mark.parametrize("roll,support,pop", [(3, -2, -1), (4, -1, -1), (5, -1, 0), (6, 0, 0)])
def test_economic_crisis_table(roll: int, support: int, pop: int) -> None:
    state = fresh(4)
    state["reserves"] = -150  # one full hundred: the roll is reduced by 1
    before = popularity(state, "george-washington")
    crisis(state, roll, [])
    # Washington is Conservative: support moves toward the Liberals (positive)
    assert state["support"] == -support
    assert popularity(state, "george-washington") == before + pop


def test_prerequisite_unmet_goes_to_next_era_and_is_replaced() -> None:
    state = fresh(4)
    deck = state["secret"]["issues"]
    deck.remove("admit-oh")
    deck.remove("bill-of-rights")
    state["secret"]["issues"] = ["admit-oh", "bill-of-rights", *deck]
    state = act(state, "red", "draw")
    assert state["issues"]["current"]["card"] == "bill-of-rights"
    assert state["issues"]["pools"]["B"] == ["admit-oh"]
    assert state["issues"]["drawn"] == 1


def test_hand_of_time_kills_the_oldest_and_vp_succeeds() -> None:
    from adjudicator.engine import scripted_state

    state = fresh(4)
    deck = state["secret"]["issues"]
    deck.remove("british-attacks-on-shipping")
    state["secret"]["issues"] = ["british-attacks-on-shipping", *deck]
    # Franklin (1) is the oldest: a roll of 1-3 kills him; 4-5 Washington (the second oldest)
    state["secret"]["rng"] = scripted_state([3])  # die value 4
    state = act(state, "red", "draw")
    assert "george-washington" not in state["statesmen"]
    assert state["gone"]["george-washington"] == "death"
    assert state["offices"]["president"] == "john-adams"
    assert state["offices"]["vice-president"] is None


def test_election_example() -> None:
    """Madison 88, Hamilton 85, Marshall 53, Burr 50 (the rulebook's example)."""
    state = fresh(5)
    keep = {"james-madison": "blue", "aaron-burr": "blue", "alexander-hamilton": "red", "john-marshall": "green"}
    state["statesmen"] = {}
    for sid, seat in keep.items():
        state["statesmen"][sid] = {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}
    state["statesmen"]["james-madison"]["cubes"] = 5
    state["statesmen"]["alexander-hamilton"]["cubes"] = 5
    state["offices"] = dict.fromkeys(state["offices"])
    state["map"] = sorted([*state["map"], "KY"])
    state["support"] = 2  # toward the Liberals
    events: list[Event] = []
    FLOW.start(state, "election", stage="start")
    FLOW.settle(state, events)
    assert waiting(state) == {"red": "running-mate"}  # the party without support announces first
    state = act(state, "red", "mate Marshall")
    state = act(state, "blue", "mate Burr")
    sequence = [("james-madison", "VA"), ("aaron-burr", "NY"), ("alexander-hamilton", "NY"), ("john-marshall", "VA"),
                ("james-madison", "MD"), ("aaron-burr", "NE"), ("alexander-hamilton", "PA"), ("john-marshall", "KY"),
                ("james-madison", "PA"), ("alexander-hamilton", "MD"), ("john-marshall", "NC"),
                ("james-madison", "NJ"), ("alexander-hamilton", "NJ"), ("john-marshall", "GA"),
                ("james-madison", "DE"), ("alexander-hamilton", "DE"), ("james-madison", "KY"),
                ("alexander-hamilton", "NE"), ("james-madison", "NC"), ("james-madison", "GA")]
    for sid, st in sequence:
        el = state["election"]
        if el["result"] or st in el["placed"][sid]:
            continue
        state = act(state, keep[sid], f"place {st}")
    result = state["election"]["result"]
    assert result["votes"] == {"james-madison": 88, "alexander-hamilton": 85, "john-marshall": 53, "aaron-burr": 50}
    assert state["offices"]["president"] == "james-madison"
    assert state["offices"]["vice-president"] == "alexander-hamilton"
    assert state["statesmen"]["james-madison"]["cubes"] == 5 + 3
    assert state["statesmen"]["alexander-hamilton"]["cubes"] == 5 + 1
    assert state["statesmen"]["james-madison"]["elected"] == 1


def _papers_state():
    state = fresh(5)
    return state  # Washington (C) is President; Washington leads C, Franklin L


def _lift(state, party, boxes):
    seat = {"C": "red", "L": "red"}[party]
    state["flow"] = []
    events: list[Event] = []
    PFLOW.start(state, "papers")
    PFLOW.settle(state, events)
    prompts = GAME.prompts(state)
    if prompts:
        state = act(state, seat, "lift " + " ".join(map(str, boxes)))
    return state


def test_newspaper_examples_turns_2_to_5() -> None:
    state = _papers_state()
    papers = state["papers"]
    # turn 2: two C cubes and one L cube at the start; C lifts one (+1), L leaves its cube
    papers["C"]["lower"] = [2, 0, 0]
    papers["L"]["lower"] = [1, 0, 0]
    newspapers_auto(state, [])
    state["flow"] = []
    PFLOW.start(state, "papers")
    PFLOW.settle(state, [])
    state = act(state, "red", "lift 1 0 0")
    state = act(state, "red", "lift 0 0 0")  # Franklin (red) leads the Liberals
    assert state["support"] == -1
    assert state["papers"]["C"] == {"lower": [1, 0, 0], "upper": [0, 0, 0]}
    # turn 3: C has one cube at the start and one to its right; lifting both gives 2 + 1
    state["papers"]["C"]["lower"] = [1, 1, 0]
    state["papers"]["L"]["lower"] = [2, 1, 0]
    state["support"] = 0
    newspapers_auto(state, [])
    state["flow"] = []
    PFLOW.start(state, "papers")
    PFLOW.settle(state, [])
    state = act(state, "red", "lift 1 1 0")
    state = act(state, "red", "lift 0 0 0")
    assert state["support"] == -3
    assert state["papers"]["C"]["upper"] == [0, 1, 0]
    # turn 4: the C cube moves left by itself (+1 C); L lifts its lower-right cube (+3 L)
    state["support"] = 0
    state["papers"]["L"]["lower"] = [0, 2, 1]
    newspapers_auto(state, [])
    assert state["support"] == -1 and state["papers"]["C"]["upper"] == [0, 0, 0]
    state["flow"] = []
    PFLOW.start(state, "papers")
    PFLOW.settle(state, [])
    state = act(state, "red", "lift 0 0 1")
    assert state["support"] == -1 + 3
    assert state["papers"]["L"]["upper"] == [0, 0, 1]
    # turn 5: two L cubes in the lower right (+6) and the upper-right cube moves left (+2)
    state["support"] = 0
    state["papers"]["L"]["lower"] = [0, 0, 2]
    newspapers_auto(state, [])
    assert state["support"] == 2
    state["flow"] = []
    PFLOW.start(state, "papers")
    PFLOW.settle(state, [])
    state = act(state, "red", "lift 0 0 2")
    assert state["support"] == 8
