"""The rulebook's worked examples as exact-state tests.

The rulebook's people keep their colours: Alex green, Barbara red, Chris violet, Doris blue. The
board is the stand-in, so region colours follow it (Qi is orange and Ch'in yellow here) and the
alliance numbers of example 6 are the stand-in's (Ch'in-Wei is 5, Ch'in-Shu 11).
"""

from __future__ import annotations

from adjudicator.games.china.scoring import alliance_points, final_scoring, road_points
from adjudicator.games.china.state import board_of

from .helpers import (
    ALEX,
    BARBARA,
    CHRIS,
    DORIS,
    act,
    choices,
    finish_turn,
    new_game,
    put_emissaries,
    put_houses,
    scored,
    set_cards,
)


def plays(state, region):
    return [c for c in choices(state) if c.get("region") == region]


def test_example_1_one_piece_in_an_empty_region_two_with_a_wildcard_pair_later():
    state = new_game()
    state["current"] = ALEX
    set_cards(state, {ALEX: ["purple", "red", "red"], BARBARA: ["green", "green", "red"],
                      CHRIS: ["yellow", "yellow", "yellow"]})
    # Wei is empty: one piece only, whatever the cards.
    assert {len(c["pieces"]) for c in plays(state, "wei")} == {1}
    state, _ = act(state, "play red to Wei: house", "space wei-1", "draw deck")
    state["current"] = BARBARA
    assert {"play": ["green", "green", "red"], "region": "wei", "pieces": ["house", "house"]} in choices(state)
    state, _ = act(state, "play red green green to Wei: house, house", "space wei-2", "space wei-3")
    state = finish_turn(state)
    assert [state["houses"][s] for s in ("wei-1", "wei-2", "wei-3")] == [ALEX, BARBARA, BARBARA]
    # Chris with three yellow cards: never three pieces, two in a yellow region or one elsewhere.
    state["current"] = CHRIS
    put_houses(state, {"qin-1": DORIS, "lu-1": DORIS})
    options = [c for c in choices(state) if "play" in c]
    assert max(len(c["pieces"]) for c in options) == 2
    assert all(len(c["play"]) <= 2 for c in options)  # a third yellow card would pay for nothing
    assert {c["region"] for c in options if c["pieces"] == ["house", "house"]} == {"qin", "lu"}
    assert {"play": ["yellow", "yellow"], "region": "chu", "pieces": ["house"]} in options


def test_example_2_emissaries_up_to_the_largest_house_count():
    state = new_game()
    state["current"] = ALEX
    put_houses(state, {"chu-1": BARBARA, "chu-2": BARBARA, "chu-3": BARBARA, "chu-4": BARBARA, "chu-5": DORIS})
    put_emissaries(state, "chu", {DORIS: 1, CHRIS: 1})
    set_cards(state, {ALEX: ["orange", "orange", "purple"]})
    wanted = {"play": ["orange", "orange", "purple"], "region": "chu", "pieces": ["emissary", "emissary"]}
    assert wanted in choices(state)
    state, _ = act(state, "play purple orange orange to Chu: emissary, emissary")
    assert state["courts"]["chu"] == {DORIS: 1, CHRIS: 1, ALEX: 2}
    # The court is now at Barbara's 4 houses: nobody can add another emissary there.
    state = finish_turn(state)
    state["current"] = DORIS
    set_cards(state, {DORIS: ["purple", "purple", "red"]})
    assert not [c for c in plays(state, "chu") if "emissary" in c["pieces"]]


def test_example_3_tied_majority_sets_the_limit_and_the_cards_allow_any_mix():
    state = new_game()
    state["current"] = ALEX
    put_houses(state, {"qi-1": BARBARA, "qi-2": BARBARA, "qi-3": DORIS, "qi-4": DORIS})
    set_cards(state, {ALEX: ["orange", "orange", "red"]})
    mixes = {tuple(c["pieces"]) for c in plays(state, "qi")}
    # Only one free space is left, so two houses do not fit; the rest of the mixes do.
    assert mixes == {("emissary",), ("house",), ("emissary", "emissary"), ("emissary", "house")}


def test_example_4_region_scoring_first_second_third():
    state = new_game()
    state["current"] = ALEX
    put_houses(state, {"wei-1": ALEX, "wei-2": ALEX, "wei-3": ALEX, "wei-4": BARBARA, "wei-5": BARBARA,
                       "wei-6": DORIS})
    set_cards(state, {ALEX: ["red", "yellow", "yellow"]})
    before = dict(state["scores"])
    state, events = act(state, "play red to Wei: house")  # the last free space: scored at once
    assert scored(events, "region") == [{"what": "region", "region": "wei",
                                         "houses": {ALEX: 4, BARBARA: 2, DORIS: 1},
                                         "points": {ALEX: 7, BARBARA: 4, DORIS: 2}}]
    gained = {s: state["scores"][s] - before[s] for s in state["seats"]}
    assert gained == {ALEX: 7, BARBARA: 4, DORIS: 2, CHRIS: 0}
    assert state["scored"] == ["wei"]


def test_example_5_tied_first_place_and_no_gap_after_it():
    state = new_game()
    state["current"] = CHRIS
    put_houses(state, {"qi-1": BARBARA, "qi-2": BARBARA, "qi-3": CHRIS, "qi-4": DORIS})
    set_cards(state, {CHRIS: ["orange", "red", "red"]})
    state, events = act(state, "play orange to Qi: house")
    assert scored(events, "region")[0]["points"] == {BARBARA: 5, CHRIS: 5, DORIS: 2}


def test_example_6_alliances():
    state = new_game()
    put_houses(state, {"wei-1": DORIS, "wei-2": DORIS, "qin-1": DORIS, "qin-2": DORIS, "qin-3": DORIS,
                       "qin-4": DORIS, "shu-1": CHRIS, "shu-2": CHRIS, "shu-3": CHRIS})
    put_emissaries(state, "wei", {DORIS: 1, BARBARA: 1})
    put_emissaries(state, "qin", {DORIS: 2, BARBARA: 1, ALEX: 1})
    put_emissaries(state, "shu", {CHRIS: 2, DORIS: 1})
    assert alliance_points(state, "qin", "wei") == {DORIS: 6}
    assert alliance_points(state, "qin", "shu") == {}
    events: list = []
    final_scoring(state, events)
    by_number = {a["number"]: a for a in scored(events, "alliance")}
    assert by_number[5]["regions"] == ["qin", "wei"] and by_number[5]["points"] == {DORIS: 6}
    assert by_number[11]["regions"] == ["qin", "shu"] and by_number[11]["points"] == {}


def test_example_7_a_row_across_two_regions_without_its_branch():
    state = new_game()
    # Ch'in 4-6, across the border to Shu 1-3-4; Shu 2 hangs off Shu 1 (a branch).
    put_houses(state, {s: DORIS for s in ("qin-4", "qin-6", "shu-1", "shu-3", "shu-4", "shu-2")})
    points, rows = road_points(state, board_of(state), DORIS)
    assert points == 5
    assert rows == [["qin-4", "qin-6", "shu-1", "shu-3", "shu-4"]]
