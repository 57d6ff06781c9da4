"""The procedures added after the first cut: tie-break, running mates, Gerry, deferral,
single-party candidacies, re-appointment, bereaved players, options and scenarios."""

from __future__ import annotations

import pytest

from adjudicator.engine import Event
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.flowbase import FLOW
from adjudicator.games.founding_fathers.state import owned
from adjudicator.games.founding_fathers.turn import kill
from tests.games.founding_fathers.biased import play_biased
from tests.games.founding_fathers.helpers import act, fresh, waiting


def _run_election(state, keep, cubes=None, support=2):
    state["statesmen"] = {}
    for sid, seat in keep.items():
        state["statesmen"][sid] = {"owner": seat, "cubes": (cubes or {}).get(sid, 0), "bonus": 0, "influence": 0,
                                   "elected": 0}
    state["offices"] = dict.fromkeys(state["offices"])
    state["support"] = support
    events: list[Event] = []
    FLOW.start(state, "election", stage="start")
    FLOW.settle(state, events)
    return state


def test_running_mate_of_another_player_may_refuse() -> None:
    state = fresh(5)
    keep = {"james-madison": "blue", "aaron-burr": "green", "james-monroe": "yellow",
            "alexander-hamilton": "red", "john-marshall": "red"}
    state = _run_election(state, keep, cubes={"james-madison": 5, "alexander-hamilton": 5})
    assert waiting(state) == {"red": "running-mate"}
    state = act(state, "red", "mate Marshall")  # own statesman: no question asked
    assert waiting(state) == {"blue": "running-mate"}
    state = act(state, "blue", "mate Burr")
    assert waiting(state) == {"green": "running-mate-offer"}
    state = act(state, "green", "refuse")
    prompt = GAME.prompts(state)["blue"]
    assert {c["statesman"] for c in prompt.choices if c["act"] == "mate"} == {"james-monroe"}
    state = act(state, "blue", "mate Monroe")  # the last eligible must accept
    assert state["election"]["mates"]["james-madison"] == "james-monroe"


def test_first_placer_may_defer_his_first_cube() -> None:
    state = fresh(5)
    keep = {"james-madison": "blue", "aaron-burr": "blue", "alexander-hamilton": "red", "john-marshall": "green"}
    state = _run_election(state, keep, cubes={"james-madison": 5, "alexander-hamilton": 5})
    state = act(state, "red", "mate Marshall")
    state = act(state, "blue", "mate Burr")
    prompt = GAME.prompts(state)["blue"]
    assert {"act": "place", "state": "defer"} in prompt.choices
    first_before = list(state["election"]["first"])
    assert first_before[0] == "james-madison"
    state = act(state, "blue", "place defer")
    el = state["election"]
    # deferring had an effect: no cube of Madison yet, he is recorded as deferred, he is no longer
    # first, and his first cube now follows the other first cubes of his side
    assert el["deferred"] == ["james-madison"]
    assert el["placed"]["james-madison"] == [] and all("james-madison" not in c for c in el["cubes"].values())
    assert el["first"] and el["first"][0] != "james-madison" and "james-madison" in el["first"]
    assert el["first"].index("james-madison") > 0
    assert GAME.prompts(state)["blue"].text == "Place a cube for Aaron Burr."  # the next first cube


def test_tiebreak_state_by_state_with_a_vote_per_statesman() -> None:
    from adjudicator.games.founding_fathers.election import start_tiebreak

    state = fresh(4)
    keep = {"james-madison": "blue", "alexander-hamilton": "red", "john-jay": "red", "james-monroe": "green",
            "george-washington": "yellow"}
    state["statesmen"] = {sid: {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}
                          for sid, seat in keep.items()}
    state["offices"] = dict.fromkeys(state["offices"])
    state["offices"]["president"] = "george-washington"
    state["election"] = {"tb": None}
    state["flow"] = []
    start_tiebreak(state, ["james-madison", "alexander-hamilton"], "president", [])
    FLOW.settle(state, [])
    assert waiting(state) == {"yellow": "tiebreak-state"}  # the President chooses the order of states
    first = GAME.prompts(state)["yellow"].choices[0]["state"]
    state = act(state, "yellow", f"tiebreak {first}")
    seen = set()
    while state["flow"]:
        (seat, kind), = waiting(state).items()
        seen.add(kind)
        if kind == "tiebreak-vote":
            # every statesman backs the Federalist-era Conservative, Hamilton, if asked by red
            text = "back alexander-hamilton" if seat == "red" else GAME.format_order(GAME.default_order(state, seat))
        else:
            text = GAME.format_order(GAME.default_order(state, seat))
        state = act(state, seat, text)
    assert "tiebreak-vote" in seen
    assert set(state["election"]["tb"]) == {"james-madison", "alexander-hamilton"}


def test_single_party_election_asks_the_next_three() -> None:
    state = fresh(5)
    keep = {"james-madison": "blue", "aaron-burr": "green", "james-monroe": "yellow", "thomas-jefferson": "red",
            "alexander-hamilton": "purple"}
    state = _run_election(state, keep, cubes={"james-madison": 9}, support=10)
    assert waiting(state) and set(waiting(state).values()) == {"candidacy"}
    while set(waiting(state).values()) == {"candidacy"}:
        seat = next(iter(waiting(state)))
        state = act(state, seat, "run no")
    assert state["election"]["candidates"] == ["james-madison"]


def test_gerry_announces_first_and_places_last() -> None:
    state = fresh(5)
    keep = {"elbridge-gerry": "blue", "james-madison": "green", "aaron-burr": "yellow", "james-monroe": "red"}
    state = _run_election(state, keep, cubes={"elbridge-gerry": 20}, support=10)
    while set(waiting(state).values()) == {"candidacy"}:
        seat = next(iter(waiting(state)))
        state = act(state, seat, "run yes")
    el = state["election"]
    assert el["announce"][0] == "elbridge-gerry"
    while "running-mate" in waiting(state).values() or "running-mate-offer" in waiting(state).values():
        seat = next(iter(waiting(state)))
        state = act(state, seat, GAME.format_order(GAME.default_order(state, seat)))
    assert state["election"]["order"][-1] == "elbridge-gerry"


def test_black_rings_bar_a_twice_beaten_nominee() -> None:
    from adjudicator.games.founding_fathers.election import eligible

    state = GAME.setup("r", GAME.seat_names(4, {}), {"black_rings": True}).state
    state["rings"] = {"thomas-jefferson": 2}
    assert not eligible(state, "thomas-jefferson")
    state["options"]["black_rings"] = False
    assert eligible(state, "thomas-jefferson")


def test_new_president_of_the_other_party_reappoints() -> None:
    state = fresh(5)
    state["statesmen"]["john-adams"]["owner"] = "purple"
    # Washington (C) dies; Adams succeeds. Make Adams Liberal-led by a Liberal VP instead:
    state["offices"]["vice-president"] = "thomas-jefferson"  # Liberal
    state["offices"]["secretary-of-the-treasury"] = "alexander-hamilton"  # Conservative
    events: list[Event] = []
    FLOW.call(state, "death", stage="succession")
    kill(state, "george-washington", events)
    FLOW.settle(state, events)
    assert state["offices"]["president"] == "thomas-jefferson"
    assert waiting(state) == {"green": "reappoint"}
    prompt = GAME.prompts(state)["green"]
    assert any(c.get("office") == "secretary-of-the-treasury" for c in prompt.choices)
    state = act(state, "green", "end")


def test_player_without_statesmen_names_a_donor() -> None:
    state = fresh(5)
    for sid in list(owned(state, "blue")):
        state["statesmen"].pop(sid)
        state["gone"][sid] = "death"
    state["private"]["blue"]["hand"] = []
    state["factions"]["blue"]["hand"] = 0
    state["flow"].append({"node": "bereaved", "args": {"seat": "blue", "donor": None, "paid": False}})
    FLOW.settle(state, [])
    assert waiting(state) == {"blue": "name-donor"}
    state = act(state, "blue", "ask green")
    assert waiting(state) == {"green": "give-statesman"}
    sid = GAME.prompts(state)["green"].choices[0]["statesman"]
    state = act(state, "green", GAME.format_order(GAME.prompts(state)["green"].choices[0]))
    assert state["statesmen"][sid]["owner"] == "blue"


def test_bad_reputation_blames_the_player_who_ignored() -> None:
    state = GAME.setup("t", GAME.seat_names(5, {}), {"bad_reputation": True}).state
    deck = state["secret"]["issues"]
    deck.remove("pay-off-war-bonds")
    state["secret"]["issues"] = ["pay-off-war-bonds", *deck]
    state = act(state, "red", "draw")
    state = act(state, "red", "ignore")
    assert state["tension"] == 1 and state["factions"]["red"]["black"] == 1


@pytest.mark.parametrize("scenario,president,era,tension,support", [
    ("B", "thomas-jefferson", "B", 1, 3), ("C", "william-henry-harrison", "C", 2, -3)])
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_scenario_setups(scenario, president, era, tension, support, players) -> None:
    state = GAME.setup("s", GAME.seat_names(players, {}), {"scenario": scenario}).state
    assert GAME.invariants(state) == []
    assert state["offices"]["president"] == president
    assert (state["era"], state["tension"], state["support"], state["phase"]) == (era, tension, support, "people")
    assert all(GAME.info and s for s in state["seats"])
    assert "judicial-review" in state["flags"] and "twelfth-amendment" in state["flags"]
    assert set(waiting(state).values()) == {"draft"}
    assert all(len(state["private"][s]["hand"]) >= 2 for s in state["seats"])


def test_scenario_b_values() -> None:
    state = GAME.setup("s", GAME.seat_names(3, {}), {"scenario": "B"}).state
    assert state["statesmen"]["thomas-jefferson"]["elected"] == 2
    assert state["statesmen"]["thomas-jefferson"]["bonus"] == 6
    assert state["statesmen"]["james-madison"]["bonus"] == 3 + 2  # Dolley Todd is his spouse
    assert (state["revenue"], state["reserves"], state["taxes"]["tariff"]) == (15, -20, 1)
    assert {"KY", "OH", "TN"} <= set(state["map"])
    assert state["gone"]["george-washington"] == "retired"
    third = state["private"][state["seats"][2]]["hand"]
    assert any(c.startswith("coalition-building") for c in third)


@pytest.mark.parametrize("options", [{"scenario": "B"}, {"scenario": "C"},
                                     {"bad_reputation": True, "reduced_faction": True, "black_rings": True}])
def test_biased_playouts_with_options(options) -> None:
    for k in range(4):
        r = play_biased(f"opt-{k}", 3 + k, options)
        assert r.violations == []
        assert GAME.outcome(r.state) is not None


def test_tiebreak_worked_example_with_exact_votes() -> None:
    """Madison (VA, 5 votes, popularity 2) and Hamilton (NY, 4 votes, popularity 3) are tied.
    Virginia votes first (the President's choice): Madison backs himself (5), Monroe backs Madison
    (4), Washington backs Hamilton (10): Hamilton 10 - Madison 9, Virginia to Hamilton. New York:
    Jay backs Hamilton (2), Hamilton backs Madison (4): Madison 4 - Hamilton 2, New York to
    Madison. One state each, no Chief Justice: the more popular, Hamilton, wins."""
    from adjudicator.engine import apply_checked
    from adjudicator.games.founding_fathers.election import start_tiebreak

    state = fresh(4)
    keep = {"james-madison": "blue", "alexander-hamilton": "red", "john-jay": "red", "james-monroe": "green",
            "george-washington": "yellow"}
    state["statesmen"] = {sid: {"owner": seat, "cubes": 0, "bonus": 0, "influence": 0, "elected": 0}
                          for sid, seat in keep.items()}
    state["offices"] = dict.fromkeys(state["offices"])
    state["offices"]["president"] = "george-washington"
    state["election"] = {"tb": None}
    state["flow"] = []
    start_tiebreak(state, ["james-madison", "alexander-hamilton"], "president", [])
    FLOW.settle(state, [])
    events = []

    def step(seat, text):
        nonlocal state
        assert seat in GAME.prompts(state), waiting(state)
        res = apply_checked(GAME, state, {seat: GAME.parse_order(text, GAME.prompts(state)[seat])})
        state = res.state
        events.extend(res.events)

    step("yellow", "tiebreak VA")
    step("blue", "back james-madison")      # Madison, 5
    step("green", "back james-madison")     # Monroe, 4
    step("yellow", "back alexander-hamilton")  # Washington, 10
    step("red", "back alexander-hamilton")  # Jay (NY, older: asked first), 2
    step("red", "back james-madison")       # Hamilton, 4
    results = [e["data"] for e in events if e["kind"] == "tiebreak-state-result"]
    assert results == [
        {"state": "VA", "votes": {"james-madison": 9, "alexander-hamilton": 10}, "winner": "alexander-hamilton"},
        {"state": "NY", "votes": {"james-madison": 4, "alexander-hamilton": 2}, "winner": "james-madison"},
    ]
    assert state["election"]["tb"] == ["alexander-hamilton", "james-madison"]
