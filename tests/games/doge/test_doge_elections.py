"""Scenario tests for district and Quarantia elections, advisors and palaces (hand-built states)."""

from __future__ import annotations

import pytest

from adjudicator.games.doge import GAME
from adjudicator.games.doge.elections import rank
from tests.games.doge.helpers import board, election, kinds, play, take_houses, top, waiting


def test_san_marco_simultaneous_build_example() -> None:
    # Two palaces already stand in San Marco, so the next costs 5. Anna (red) has 4 houses there,
    # Bernd (blue) 3; they tie for first.
    state = board(houses={"san-marco": {"red": 4, "blue": 3}}, palaces={"san-marco": ["green", "yellow"]})
    state, events = election(state, "san-marco", {"red": [3], "blue": [2, 1]})
    assert state["election"]["winners"] == ["red", "blue"]
    assert state["election"]["runners_up"] == []
    state, events = take_houses(state, events)
    assert state["districts"]["san-marco"]["houses"] == {"red": 6, "blue": 5}
    prompts = GAME.prompts(state)
    assert set(prompts) == {"red", "blue"}
    assert all(p.kind == "build" and p.sealed for p in prompts.values())
    assert len({p.group for p in prompts.values()}) == 1
    state, events = play(state, {"red": {"build": True}, "blue": {"build": True}})
    built = [e["data"] for e in events if e["kind"] == "palace-built"]
    assert built == [
        {"seat": "red", "area": "san-marco", "cost": 5, "space": 5},
        {"seat": "blue", "area": "san-marco", "cost": 5, "space": 6},
    ]
    assert state["districts"]["san-marco"]["palaces"] == ["green", "yellow", "red", "blue"]
    assert state["districts"]["san-marco"]["houses"] == {"red": 1}
    assert state["supply"]["red"]["houses"] == 15 - 1 and state["supply"]["blue"]["houses"] == 15
    assert state["supply"]["red"]["palaces"] == 7 and state["supply"]["blue"]["palaces"] == 7


def test_tied_builders_one_declines() -> None:
    state = board(houses={"san-marco": {"red": 4, "blue": 3}}, palaces={"san-marco": ["green", "yellow"]})
    state, _ = take_houses(*election(state, "san-marco", {"red": [3], "blue": [3]}))
    state, events = play(state, {"red": {"build": False}, "blue": {"build": True}})
    assert state["districts"]["san-marco"]["palaces"] == ["green", "yellow", "blue"]
    assert "palace-declined" in kinds(events)
    assert waiting(state) != {"red": "build"}  # a decliner is not asked again in this check


def test_tied_builders_with_one_space_left() -> None:
    state = board(
        houses={"dorsoduro": {"red": 5, "blue": 6}},
        palaces={"dorsoduro": ["green", "green", "yellow", "yellow"]},
    )
    state, _ = take_houses(*election(state, "dorsoduro", {"red": [2], "blue": [1, 1]}))
    state, events = play(state, {"red": {"build": True}, "blue": {"build": True}})
    # blue has more houses there (8 against 7), so blue takes the last space; red builds nothing
    assert state["districts"]["dorsoduro"]["palaces"][-1] == "blue"
    assert [e["data"]["seat"] for e in events if e["kind"] == "palace-no-space"] == ["red"]
    assert state["districts"]["dorsoduro"]["houses"] == {"red": 7, "blue": 1}


def test_zero_marker_example_no_runner_up() -> None:
    # Claudia (red) wins with 4; Daniel (blue) has only his 0 marker there and is not runner-up.
    state = board()
    state, events = election(state, "castello", {"red": [3, 1], "blue": [0]})
    assert state["election"]["totals"] == {"red": 4, "blue": 0}
    assert state["election"]["winners"] == ["red"]
    assert state["election"]["runners_up"] == []
    assert waiting(state) == {"red": "district-advisor"}
    state, events = play(state, {"red": {"take": "quarantia"}})
    placed = [e["data"] for e in events if e["kind"] == "houses-placed"]
    assert placed == [{"seat": "red", "area": "castello", "count": 2, "lost": 0}]


def test_zero_marker_with_advisor_can_place() -> None:
    state = board(advisors={"adv-san-polo": ("blue", "castello")})
    state, _ = election(state, "castello", {"red": [3, 1], "blue": [0]})
    assert state["election"]["totals"] == {"red": 4, "blue": 1}
    assert state["election"]["runners_up"] == ["blue"]


def test_advisor_alone_wins() -> None:
    state = board(advisors={"adv-san-polo": ("blue", "castello")})
    state, _ = election(state, "castello", {"red": [0]})
    assert state["election"]["winners"] == ["blue"]
    assert waiting(state) == {"blue": "district-advisor"}


@pytest.mark.parametrize(
    "totals, winners, runners",
    [
        ({}, [], []),
        ({"red": 0, "blue": 0}, [], []),
        ({"red": 3, "blue": 3, "green": 1}, ["red", "blue"], []),
        ({"red": 3, "blue": 1, "green": 1}, ["red"], ["blue", "green"]),
        ({"red": 3, "blue": 2, "green": 1}, ["red"], ["blue"]),
        ({"red": 3, "blue": 0}, ["red"], []),
        ({"yellow": 1, "green": 5, "red": 1}, ["green"], ["red", "yellow"]),
    ],
)
def test_rank_table(totals: dict[str, int], winners: list[str], runners: list[str]) -> None:
    state = board()
    assert rank(state, totals) == (winners, runners)


def test_district_tie_for_first() -> None:
    state = board(advisors={"adv-cannaregio": ("yellow", "quarantia")})
    state, events = take_houses(*election(state, "cannaregio", {"red": [3], "blue": [2, 1], "green": [1]}))
    assert state["advisors"]["adv-cannaregio"] == {"home": "cannaregio", "at": None, "owner": None}
    assert state["supply"]["yellow"]["rings"] == 6
    assert state["districts"]["cannaregio"]["houses"] == {"red": 2, "blue": 2}
    assert "district-advisor" not in waiting(state).values()
    assert [e["data"]["reason"] for e in events if e["kind"] == "advisor-neutral"] == ["tie"]


def test_district_tie_for_second() -> None:
    state = board()
    state, _ = election(state, "santa-croce", {"red": [3], "blue": [1], "green": [1], "yellow": [0]})
    assert state["election"]["runners_up"] == ["blue", "green"]
    state, events = take_houses(*play(state, {"red": {"abstain": True}}))
    placed = {e["data"]["seat"]: e["data"]["count"] for e in events if e["kind"] == "houses-placed"}
    assert placed == {"red": 2, "blue": 1, "green": 1}
    assert state["districts"]["santa-croce"]["houses"] == {"red": 2, "blue": 1, "green": 1}


def test_take_advisor_returns_previous_ring() -> None:
    state = board(advisors={"adv-castello": ("blue", "dorsoduro")})
    assert state["supply"]["blue"]["rings"] == 5
    state, _ = election(state, "castello", {"red": [3]})
    choices = GAME.prompts(state)["red"].choices
    assert {"take": "castello"} not in choices  # never its home district
    assert {"take": "dorsoduro"} in choices  # staying put is allowed
    state, events = play(state, {"red": {"take": "quarantia"}})
    assert state["advisors"]["adv-castello"] == {"home": "castello", "at": "quarantia", "owner": "red"}
    assert state["supply"]["blue"]["rings"] == 6 and state["supply"]["red"]["rings"] == 5
    taken = [e["data"] for e in events if e["kind"] == "advisor-taken"]
    assert taken[0]["previous"] == "blue"


def test_six_rings_must_abstain() -> None:
    advisors = {f"adv-{d}": ("red", "quarantia") for d in ["cannaregio", "dorsoduro", "san-marco", "san-polo"]}
    advisors |= {"adv-quarantia-1": ("red", "santa-croce"), "adv-quarantia-2": ("red", "san-polo")}
    state = board(advisors=advisors, houses={"cannaregio": {"red": 1}})
    assert state["supply"]["red"]["rings"] == 0
    state, _ = election(state, "castello", {"red": [3]})
    choices = GAME.prompts(state)["red"].choices
    assert not any("take" in c for c in choices)
    assert {"abstain": True, "move": ["cannaregio", "castello"]} in choices


def test_six_rings_may_keep_own_advisor() -> None:
    advisors = {f"adv-{d}": ("red", "quarantia") for d in ["cannaregio", "castello", "dorsoduro", "san-marco"]}
    advisors |= {"adv-quarantia-1": ("red", "santa-croce"), "adv-quarantia-2": ("red", "san-polo")}
    state = board(advisors=advisors)
    state, _ = election(state, "castello", {"red": [3]})
    assert {"take": "san-polo"} in GAME.prompts(state)["red"].choices
    state, _ = play(state, {"red": {"take": "san-polo"}})
    assert state["advisors"]["adv-castello"]["at"] == "san-polo"
    assert state["supply"]["red"]["rings"] == 0


SIX_RINGS = {f"adv-{d}": ("red", "quarantia") for d in ["cannaregio", "dorsoduro", "san-marco", "san-polo"]}
SIX_RINGS |= {"adv-quarantia-1": ("red", "santa-croce"), "adv-quarantia-2": ("red", "san-polo")}


def test_six_rings_with_no_house_anywhere_abstains_automatically() -> None:
    # Six rings used, no house on the board and none in supply: nothing is left to decide.
    state = board(advisors=SIX_RINGS, supply_houses={"red": 0})
    state, events = election(state, "castello", {"red": [3]})
    neutral = [e["data"] for e in events if e["kind"] == "advisor-neutral"]
    assert neutral[0] == {"advisor": "adv-castello", "previous": None, "seat": "red", "reason": "abstain"}
    assert state["districts"]["castello"]["houses"] == {}
    # the flow went on: red's advisors elsewhere now make it win an election further down the order
    assert state["election"]["area"] != "castello"


def test_six_rings_and_houses_in_supply_still_choose_whether_to_place_them() -> None:
    # "Luego puede colocar 2 casas": a winner who must abstain still decides about his houses.
    state = board(advisors=SIX_RINGS)
    state, _ = election(state, "castello", {"red": [3]})
    assert GAME.prompts(state)["red"].choices == [{"abstain": True}, {"abstain": True, "houses": False}]
    state, events = play(state, {"red": {"abstain": True}})
    assert state["districts"]["castello"]["houses"] == {"red": 2}


def test_abstain_move_then_palace_check_before_placing() -> None:
    state = board(houses={"castello": {"red": 1}, "san-marco": {"red": 2}},
                  advisors={"adv-castello": ("green", "san-polo")})
    state, _ = election(state, "castello", {"red": [3], "blue": [1]})
    choices = GAME.prompts(state)["red"].choices
    assert {"abstain": True, "move": ["castello", "san-marco"]} in choices
    assert {"abstain": True, "move": ["san-marco", "castello"]} in choices
    assert {"abstain": True, "move": ["san-marco", "dorsoduro"]} not in choices  # must touch Castello
    state, events = play(state, {"red": {"abstain": True, "move": ["castello", "san-marco"]}})
    assert state["advisors"]["adv-castello"] == {"home": "castello", "at": None, "owner": None}
    assert state["supply"]["green"]["rings"] == 6
    assert state["districts"]["san-marco"]["houses"] == {"red": 3}
    assert "houses-placed" not in kinds(events)  # the palace check comes first
    assert waiting(state) == {"red": "build"} and top(state)["args"]["area"] == "san-marco"
    state, events = take_houses(*play(state, {"red": {"build": True}}))
    assert state["districts"]["san-marco"]["palaces"] == ["red"]
    placed = {e["data"]["seat"]: e["data"]["count"] for e in events if e["kind"] == "houses-placed"}
    assert placed == {"red": 2, "blue": 1}
    assert state["districts"]["castello"]["houses"] == {"red": 2, "blue": 1}


def test_palace_cost_sequence_in_one_check() -> None:
    state = board(houses={"dorsoduro": {"red": 12}})
    state, _ = election(state, "dorsoduro", {"red": [3]})
    state, _ = play(state, {"red": {"take": "quarantia"}})
    costs = []
    while waiting(state) == {"red": "build"}:
        state, events = play(state, {"red": {"build": True}})
        costs += [e["data"]["cost"] for e in events if e["kind"] == "palace-built"]
    assert costs == [3, 4, 5]  # 14 houses: 3 + 4 + 5 leaves 2, short of the 6 for the next space
    assert state["districts"]["dorsoduro"]["houses"] == {"red": 2}
    assert state["districts"]["dorsoduro"]["palaces"] == ["red", "red", "red"]


def test_house_supply_exhaustion_loses_placement() -> None:
    state = board(houses={"dorsoduro": {"red": 2}}, supply_houses={"red": 1})
    state, _ = election(state, "dorsoduro", {"red": [3]})
    state, events = play(state, {"red": {"take": "quarantia"}})
    placed = [e["data"] for e in events if e["kind"] == "houses-placed"]
    assert placed == [{"seat": "red", "area": "dorsoduro", "count": 1, "lost": 1}]
    assert state["supply"]["red"]["houses"] == 0


def test_no_build_offer_without_palaces_or_space() -> None:
    state = board(houses={"dorsoduro": {"red": 5}}, supply_palaces={"red": 0})
    state, _ = election(state, "dorsoduro", {"red": [3]})
    state, _ = play(state, {"red": {"take": "quarantia"}})
    assert "build" not in waiting(state).values()
    full = ["blue", "blue", "green", "green", "yellow"]
    state = board(houses={"dorsoduro": {"red": 9}}, palaces={"dorsoduro": full})
    state, _ = election(state, "dorsoduro", {"red": [3]})
    state, _ = play(state, {"red": {"take": "quarantia"}})
    assert "build" not in waiting(state).values()


def test_quarantia_winner_and_runner_up() -> None:
    state = board(
        houses={"castello": {"red": 1}},
        advisors={"adv-quarantia-1": ("green", "castello"), "adv-quarantia-3": ("red", "dorsoduro")},
    )
    state, events = election(state, "quarantia", {"red": [3, 3], "blue": [2], "green": [1]})
    assert all(state["advisors"][f"adv-quarantia-{i}"]["owner"] is None for i in (1, 2, 3))
    assert state["supply"]["green"]["rings"] == 6 and state["supply"]["red"]["rings"] == 6
    assert waiting(state) == {"red": "quarantia-advisor"}
    choices = GAME.prompts(state)["red"].choices
    assert {"take": "quarantia"} not in choices
    state, _ = play(state, {"red": {"take": "castello"}})
    assert waiting(state) == {"blue": "quarantia-advisor"}
    state, _ = play(state, {"blue": {"take": "dorsoduro"}})
    assert waiting(state) == {"red": "quarantia-advisor"}
    state, events = play(state, {"red": {"abstain": True, "move": ["castello", "san-polo"]}})
    adv = state["advisors"]
    assert (adv["adv-quarantia-1"]["owner"], adv["adv-quarantia-1"]["at"]) == ("red", "castello")
    assert (adv["adv-quarantia-2"]["owner"], adv["adv-quarantia-2"]["at"]) == ("blue", "dorsoduro")
    assert adv["adv-quarantia-3"]["owner"] is None
    assert state["districts"]["san-polo"]["houses"] == {"red": 1}
    assert "houses-placed" not in kinds(events)


def test_quarantia_tie_for_first() -> None:
    state = board(houses={"castello": {"red": 2}, "san-polo": {"blue": 2}},
                  advisors={"adv-quarantia-2": ("yellow", "castello")})
    state, _ = election(state, "quarantia", {"red": [3], "blue": [2, 1]})
    assert all(state["advisors"][f"adv-quarantia-{i}"]["owner"] is None for i in (1, 2, 3))
    assert waiting(state) == {"red": "house-move"}
    state, _ = play(state, {"red": {"move": ["castello", "dorsoduro"]}})
    assert waiting(state) == {"red": "house-move"}
    state, _ = play(state, {"red": {"move": ["castello", "dorsoduro"]}})
    assert waiting(state) == {"blue": "house-move"}
    state, _ = play(state, {"blue": {"pass": True}})
    assert state["districts"]["dorsoduro"]["houses"] == {"red": 2}
    assert state["districts"]["san-polo"]["houses"] == {"blue": 2}
    assert "house-move" not in waiting(state).values()


def test_quarantia_tie_for_second() -> None:
    state = board(houses={"castello": {"red": 1, "blue": 1, "green": 1}})
    state, _ = election(state, "quarantia", {"red": [3], "blue": [1], "green": [1]})
    assert waiting(state) == {"red": "quarantia-advisor"}
    state, _ = play(state, {"red": {"take": "castello"}})
    assert waiting(state) == {"blue": "house-move"}
    state, _ = play(state, {"blue": {"move": ["castello", "cannaregio"]}})
    assert waiting(state) == {"green": "house-move"}  # one move only for a tied runner-up
    state, _ = play(state, {"green": {"pass": True}})
    assert waiting(state) == {"red": "quarantia-advisor"}
    state, _ = play(state, {"red": {"take": "san-marco"}})
    owners = [state["advisors"][f"adv-quarantia-{i}"]["owner"] for i in (1, 2, 3)]
    assert owners == ["red", "red", None]


def test_quarantia_move_builds_palace() -> None:
    state = board(houses={"castello": {"red": 1}, "san-polo": {"red": 2}})
    state, _ = election(state, "quarantia", {"red": [3]})
    state, _ = play(state, {"red": {"abstain": True, "move": ["castello", "san-polo"]}})
    assert waiting(state) == {"red": "build"}
    state, _ = play(state, {"red": {"build": True}})
    assert state["districts"]["san-polo"]["palaces"] == ["red"]
    assert waiting(state) == {"red": "quarantia-advisor"}


def test_nobody_votes_leaves_advisor() -> None:
    state = board(advisors={"adv-castello": ("blue", "dorsoduro")})
    state, events = election(state, "castello", {"red": [0]})
    assert state["advisors"]["adv-castello"]["owner"] == "blue"
    election_event = next(e for e in events if e["kind"] == "election")
    assert election_event["data"]["winners"] == []
