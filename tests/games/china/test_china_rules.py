"""One test (or a few) per rule of issue 4."""

from __future__ import annotations

import pytest

from adjudicator.engine import IllegalOrder
from adjudicator.games.china import GAME
from adjudicator.games.china.placement import payments
from adjudicator.games.china.roads import best_rows
from adjudicator.games.china.scoring import (
    alliance_points,
    final_scoring,
    rank_points,
    region_points,
    road_points,
    score_region,
)
from adjudicator.games.china.state import board_of
from adjudicator.games.china.turn import finish

from .helpers import (
    ALEX,
    BARBARA,
    CHRIS,
    DORIS,
    act,
    choices,
    finish_turn,
    kind,
    new_game,
    put_emissaries,
    put_houses,
    scored,
    set_cards,
)

# setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(3, 47), (4, 52), (5, 57)])
def test_cards_removed_by_player_count(players, cards):
    state = new_game(players)
    in_play = len(state["secret"]["deck"]) + len(state["display"]) + sum(
        len(p["hand"]) for p in state["private"].values())
    assert in_play == cards
    assert set(state["box"].values()) == {(57 - cards) // 5}
    assert len(state["display"]) == 4 and all(len(p["hand"]) == 3 for p in state["private"].values())


def test_board_side_by_player_count_and_option():
    assert new_game(3)["board"] == "3-4p"
    assert new_game(4)["board"] == "3-4p"
    assert new_game(4, side="4-5")["board"] == "4-5p"
    assert new_game(5)["board"] == "4-5p"
    with pytest.raises(IllegalOrder, match="3 players"):
        new_game(3, side="4-5")
    with pytest.raises(IllegalOrder, match="5 players"):
        new_game(5, side="3-4")


def test_seats_are_colours_and_hands_are_hidden():
    state = new_game(5)
    assert state["seats"] == ["blue", "green", "red", "violet", "yellow"]
    view = GAME.view(state, "blue")
    assert set(view["private"]) == {"blue"} and "secret" not in view
    assert view["hand_sizes"] == {s: 3 for s in state["seats"]} and view["deck_size"] == 57 - 19
    assert GAME.view(state, None)["private"] == {}


# the 3-2-1 rule ---------------------------------------------------------------------------------


def test_payments_one_card_per_piece_or_a_pair_as_wildcard():
    assert payments(["green", "green", "red"], "red", 1) == [["red"], ["green", "green"]]
    assert payments(["green", "green", "red"], "red", 2) == [["green", "green", "red"]]
    assert payments(["green", "green", "red"], "green", 2) == [["green", "green"]]
    assert payments(["green", "green", "red"], "green", 1) == [["green"]]  # no red pair
    assert payments(["red", "red", "red"], "red", 2) == [["red", "red"]]  # never 3 pieces
    assert payments(["red", "red", "red"], "purple", 1) == [["red", "red"]]
    assert payments(["red", "red", "red"], "purple", 2) == []


def test_wildcard_play_places_one_piece_in_another_colour():
    state = new_game()
    put_houses(state, {"chu-1": BARBARA})
    state["current"] = DORIS
    set_cards(state, {DORIS: ["green", "green", "red"]})
    chu = [c for c in choices(state) if c.get("region") == "chu"]
    assert chu and all(c["play"] == ["green", "green"] and len(c["pieces"]) == 1 for c in chu)
    state, events = act(state, "play green green to chu: emissary")
    assert state["courts"]["chu"] == {DORIS: 1}
    assert kind(state) == "draw" and sorted(state["discard"][-2:]) == ["green", "green"]


# emissaries -------------------------------------------------------------------------------------


def test_no_emissary_in_a_region_without_houses():
    state = new_game()
    put_houses(state, {"wei-1": ALEX}, forts=None)
    state["current"] = DORIS
    set_cards(state, {DORIS: ["purple", "purple", "red"]})
    assert not [c for c in choices(state) if c.get("region") == "chu" and "emissary" in c["pieces"]]
    assert {"play": ["red"], "region": "wei", "pieces": ["emissary"]} in choices(state)


def test_houses_placed_this_turn_raise_the_limit_for_its_emissaries():
    state = new_game()
    put_houses(state, {"wei-1": BARBARA, "wei-2": DORIS})
    put_emissaries(state, "wei", {BARBARA: 1})
    state["current"] = DORIS
    set_cards(state, {DORIS: ["red", "red", "yellow"]})
    wei = {tuple(c["pieces"]) for c in choices(state) if c.get("region") == "wei"}
    assert ("emissary", "house") in wei  # 2 houses of Doris allow a second emissary
    assert ("emissary", "emissary") not in wei and ("emissary",) not in wei
    state, _ = act(state, "play red red to wei: house, emissary", "space 3")
    assert state["courts"]["wei"] == {BARBARA: 1, DORIS: 1}


def test_out_of_a_piece_type_cannot_place_it():
    state = new_game()
    put_houses(state, {"wei-1": BARBARA})
    state["current"] = DORIS
    state["supply"][DORIS]["houses"] = 0
    state["supply"][DORIS]["emissaries"] = 0
    set_cards(state, {DORIS: ["red", "red", "yellow"]})
    assert not [c for c in choices(state) if "play" in c]
    state["supply"][DORIS]["emissaries"] = 1
    assert {tuple(c["pieces"]) for c in choices(state) if "play" in c} == {("emissary",)}


def test_full_region_takes_no_house_but_still_emissaries():
    state = new_game()
    put_houses(state, {f"lu-{i}": BARBARA for i in (1, 2, 3)})
    state["current"] = BARBARA
    set_cards(state, {BARBARA: ["yellow", "yellow", "red"]})
    state, events = act(state, "play yellow to lu: house")
    assert scored(events, "region")[0]["points"] == {BARBARA: 4} and "lu" in state["scored"]
    state = finish_turn(state)
    state["current"] = BARBARA
    set_cards(state, {BARBARA: ["yellow", "yellow", "red"]})
    lu = {tuple(c["pieces"]) for c in choices(state) if c.get("region") == "lu"}
    assert lu == {("emissary",), ("emissary", "emissary")}


# region scoring ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("houses", "points"), [
    ({"a": 4, "b": 2, "c": 1}, {"a": 7, "b": 4, "c": 2}),  # example 4
    ({"a": 2, "b": 2, "c": 1}, {"a": 5, "b": 5, "c": 2}),  # example 5
    ({"a": 3, "b": 1, "c": 1}, {"a": 5, "b": 3, "c": 3}),  # tie for second
    ({"a": 2, "b": 2, "c": 1, "d": 1}, {"a": 6, "b": 6, "c": 2, "d": 2}),
    ({"a": 2, "b": 2, "c": 2}, {"a": 6, "b": 6, "c": 6}),
    ({"a": 3, "b": 2, "c": 1, "d": 1, "e": 1}, {"a": 8, "b": 3, "c": 2, "d": 2, "e": 2}),
    ({"a": 5}, {"a": 5}),
    ({}, {}),
])
def test_region_ranks_with_ties_and_no_gaps(houses, points):
    assert rank_points(houses) == points


def test_final_scoring_scores_unfilled_regions_then_alliances_in_order_then_roads():
    state = new_game()
    put_houses(state, {"wei-1": ALEX, "wei-2": BARBARA, "han-1": ALEX})
    put_emissaries(state, "wei", {ALEX: 1})
    put_emissaries(state, "han", {ALEX: 1})
    events: list = []
    final_scoring(state, events)
    whats = [e["data"]["what"] for e in events if e["kind"] == "scored"]
    assert whats == ["region", "region"] + ["alliance"] * 15 + ["roads"] * 4
    assert [a["number"] for a in scored(events, "alliance")] == list(range(1, 16))
    assert scored(events, "region")[0]["points"] == {ALEX: 2, BARBARA: 2}  # Wei, tied
    assert [a["points"] for a in scored(events, "alliance") if a["points"]] == [{ALEX: 2}]  # 8: Wei-Han
    assert state["scored"] == ["wei", "han"]  # regions without houses get no marker


def test_alliance_ties_all_count_as_majority_and_score_everything():
    state = new_game()
    put_houses(state, {"wei-1": ALEX, "wei-2": ALEX, "han-1": ALEX, "han-2": ALEX})
    put_emissaries(state, "wei", {ALEX: 1, BARBARA: 1})
    put_emissaries(state, "han", {ALEX: 1, BARBARA: 1})
    assert alliance_points(state, "wei", "han") == {ALEX: 4, BARBARA: 4}
    put_emissaries(state, "han", {CHRIS: 2})
    assert alliance_points(state, "wei", "han") == {}


# roads ------------------------------------------------------------------------------------------


def graph(*roads: str) -> dict[str, tuple[str, ...]]:
    """Roads written as "a-b-c" chains of one-letter-or-more space names."""
    near: dict[str, set[str]] = {}
    for chain in roads:
        names = chain.split("-")
        for a, b in zip(names, names[1:], strict=False):
            near.setdefault(a, set()).add(b)
            near.setdefault(b, set()).add(a)
    return {k: tuple(sorted(v)) for k, v in near.items()}


def test_road_t_junction_counts_the_longest_row_not_the_branch():
    #   a1 - a2 - a3 - J - b1 - b2       (the bar of the T)
    #                  |
    #                  c1 - c2           (the stem: a branch of 2)
    roads = graph("a1-a2-a3-J-b1-b2", "J-c1-c2")
    assert best_rows(roads, roads) == (6, [["a1", "a2", "a3", "J", "b1", "b2"]])


def test_road_t_junction_with_a_long_stem_scores_it_as_a_second_row():
    #   a1 - a2 - J - b1 - b2, stem J - c1 - c2 - c3 - c4: the stem's 4 houses form their own row
    roads = graph("a1-a2-J-b1-b2", "J-c1-c2-c3-c4")
    points, rows = best_rows(roads, roads)
    assert points == 9 and sorted(map(len, rows)) == [4, 5]


def test_road_two_rows_meeting_share_no_house():
    # Two rows of 4 meet end to end at M... only one row may hold M: 4 + 3 is one row of 7.
    roads = graph("a1-a2-a3-M-b1-b2-b3")
    assert best_rows(roads, roads)[0] == 7
    # A cross: rows of 5 through X both ways. X counts once, so one row of 5 and two stubs of 2.
    cross = graph("n1-n2-X-s1-s2", "w1-w2-X-e1-e2")
    assert best_rows(cross, cross)[0] == 5
    # A row of 5 and a row of 4 ending on its middle house: best is 4 + 2 (a row of 6), the rest 2.
    meet = graph("a1-a2-a3-a4-a5", "a3-c1-c2-c3")
    points, rows = best_rows(meet, meet)
    assert points == 6 and len(rows) == 1


def test_road_needs_four_unbroken_houses_and_ignores_other_players():
    roads = graph("a-b-c-d-e")
    assert best_rows(["a", "b", "c"], roads)[0] == 0
    assert best_rows(["a", "b", "d", "e"], roads)[0] == 0  # broken at c
    assert best_rows(["a", "b", "c", "d"], roads)[0] == 4


def test_road_row_across_a_region_border_on_the_board():
    state = new_game()
    # wei-2 - wei-3 - wei-4 - lu-1 - lu-2: a road crosses from Wei into Lu.
    assert "lu-1" in board_of(state).neighbours["wei-4"]
    put_houses(state, {s: DORIS for s in ("wei-2", "wei-3", "wei-4", "lu-1", "lu-2")})
    put_houses(state, {"wei-5": ALEX})
    assert road_points(state, board_of(state), DORIS) == (5, [["lu-2", "lu-1", "wei-4", "wei-3", "wei-2"]])
    assert road_points(state, board_of(state), ALEX)[0] == 0


def test_road_cycle_counts_each_house_once():
    ring = graph("a-b-c-d-e-a")
    assert best_rows(ring, ring)[0] == 5


# exchanging and drawing -------------------------------------------------------------------------


def test_exchange_for_a_face_up_card_refills_the_display_and_ends_the_turn():
    state = new_game()
    set_cards(state, {DORIS: ["green", "red", "yellow"]}, display=["orange", "purple", "purple", "red"],
              top=["yellow"])
    state, events = act(state, "exchange green for purple")
    assert state["private"][DORIS]["hand"] == ["purple", "red", "yellow"]
    assert state["display"] == ["orange", "purple", "red", "yellow"]
    assert state["current"] == ALEX and kind(state) == "turn"


def test_draws_come_one_card_at_a_time_then_the_display_refills():
    state = new_game()
    set_cards(state, {DORIS: ["red", "red", "yellow"]}, display=["orange", "orange", "purple", "purple"],
              top=["green", "yellow", "red"])
    put_houses(state, {"wei-1": ALEX})
    state, _ = act(state, "play red red to wei: house, house", "space 2", "space 3")
    assert kind(state) == "draw" and len(state["private"][DORIS]["hand"]) == 1
    state, _ = act(state, "draw orange", "draw deck")
    assert state["private"][DORIS]["hand"] == ["green", "orange", "yellow"]
    assert state["display"] == ["orange", "purple", "purple", "yellow"]
    assert state["current"] == ALEX


def test_deck_exhaustion_twice_reshuffle_then_last_round():
    state = new_game()  # blue (start), green, red, violet
    set_cards(state, {s: ["red", "red", "red"] for s in state["seats"]},
              display=["green", "green", "orange", "orange"], top=["yellow"], deck_size=1,
              discard=["purple", "purple"])
    discards = len(state["discard"])
    # 1st exhaustion: blue takes the last card; the discards (with blue's red) form the new deck.
    state, events = act(state, "exchange red for deck")
    assert [e["kind"] for e in events].count("deck-reshuffled") == 1
    assert state["exhaustions"] == 1 and state["discard"] == []
    assert len(state["secret"]["deck"]) == discards + 1
    assert state["display"] == ["green", "green", "orange", "orange"]  # face-up cards stay out
    # 2nd exhaustion in red's turn (the third seat): the round still ends with violet.
    state = finish_turn(state)  # green exchanges too
    deck = state["secret"]["deck"]
    state["discard"] += deck[:-1]  # leave a single card for red to take
    del deck[:-1]
    assert state["current"] == BARBARA
    state, events = act(state, "exchange red for deck")
    assert state["exhaustions"] == 2 and any(e["kind"] == "last-round" for e in events)
    assert state["current"] == CHRIS and kind(state) == "turn"
    assert {"exchange": "red", "take": "deck"} not in choices(state)
    state, events = act(state, "exchange red for green")  # no deck: the display is not refilled
    assert state["display"] == ["green", "orange", "orange"]
    assert state["result"] is not None and state["result"]["reason"] == "deck"
    assert GAME.prompts(state) == {} and GAME.outcome(state) is not None


def test_invariants_notice_a_lost_card():
    state = new_game()
    state["secret"]["deck"].pop()
    assert any("cards not conserved" in p for p in GAME.invariants(state))


def test_game_ends_when_no_piece_can_be_placed():
    state = new_game(3)
    board = board_of(state)
    seats = state["seats"]
    spaces = [s for r in board.regions for s in board.spaces[r]]
    put_houses(state, {space: seats[i % 3] for i, space in enumerate(spaces[:-1])})
    for region in board.regions:
        if all(s in state["houses"] for s in board.spaces[region]):
            score_region(state, region, [])
    for seat in seats:  # nobody has emissaries left (not conserved: only the end rule is tested)
        state["supply"][seat]["emissaries"] = 0
    region = board.region_of[spaces[-1]]
    colour = board.colour[region]
    set_cards(state, {seats[0]: [colour, colour, colour]})
    step = GAME.apply(state, {seats[0]: {"play": [colour], "region": region, "pieces": ["house"]}})
    state = step.state
    while GAME.prompts(state):  # the draws of this turn
        seat = state["current"]
        state = GAME.apply(state, {seat: GAME.default_order(state, seat)}).state
    assert state["result"]["reason"] == "blocked" and state["turn"] == 1
    assert scored(step.events, "region")[0]["region"] == region


def test_winner_tie_broken_by_pieces_left():
    state = new_game()
    put_houses(state, {"wei-1": ALEX, "wei-2": BARBARA})
    put_emissaries(state, "wei", {ALEX: 1})  # Alex has one piece fewer in supply
    finish(state, "deck", [])
    assert state["scores"][ALEX] == state["scores"][BARBARA] == 2
    assert state["result"]["winners"] == [BARBARA]
    assert GAME.outcome(state).summary == ("red is the new Emperor with 2 points "
                                           "(tie broken by 27 pieces left in supply).")


# defaults ---------------------------------------------------------------------------------------


def test_defaults():
    state = new_game()
    set_cards(state, {DORIS: ["red", "green", "yellow"]}, display=["orange", "orange", "purple", "red"])
    assert GAME.default_order(state, DORIS) == {"exchange": "green", "take": "deck"}
    state["discard"] += state["secret"]["deck"]
    state["secret"]["deck"] = []
    assert GAME.default_order(state, DORIS) == {"exchange": "green", "take": "orange"}
    state["discard"] += state["display"]
    state["display"] = []
    assert GAME.default_order(state, DORIS) == {"pass": True}
    assert {"pass": True} in choices(state)
    with pytest.raises(IllegalOrder):
        GAME.default_order(state, ALEX)


# fortifications ---------------------------------------------------------------------------------


def test_no_fortifications_without_the_variant():
    state = new_game()
    set_cards(state, {DORIS: ["red", "red", "green"]})
    assert not [c for c in choices(state) if "fortification" in c.get("pieces", [])]


def test_fortified_house_goes_on_one_empty_space():
    state = new_game(forts=True)
    put_houses(state, {"wei-1": ALEX})
    set_cards(state, {DORIS: ["red", "red", "green"]})
    wei = {tuple(c["pieces"]) for c in choices(state) if c.get("region") == "wei"}
    assert ("fortification", "house") in wei
    assert ("fortification",) not in wei  # it could take its house now, so it must
    state, events = act(state, "play red red to Wei: fortification, house", "space wei-4")
    assert state["forts"] == {"wei-4": DORIS} and state["houses"]["wei-4"] == DORIS
    assert state["supply"][DORIS]["fortifications"] == 0
    assert not [c for c in choices(state) if "fortification" in c.get("pieces", [])]


def test_lone_fortification_when_no_house_can_follow_and_a_later_player_claims_it():
    state = new_game(forts=True)
    set_cards(state, {DORIS: ["red", "green", "yellow"], ALEX: ["red", "red", "yellow"]})
    # Wei is empty: one piece only, so the fortification stays without a house.
    state, _ = act(state, "play red to wei: fortification", "space wei-5")
    state = finish_turn(state)
    assert state["forts"] == {"wei-5": DORIS} and "wei-5" not in state["houses"]
    assert state["current"] == ALEX
    state, _ = act(state, "play red red to wei: house, house", "space wei-5", "space wei-6")
    assert state["houses"]["wei-5"] == ALEX and state["forts"]["wei-5"] == DORIS


def fortified_lu(scoring: str) -> dict:
    """Alex has 2 houses in Lu, one on Chris's fortification, and a 4-house row through it."""
    state = new_game(forts=True, fortification_scoring=scoring)
    put_houses(state, {"lu-1": ALEX, "lu-2": ALEX, "lu-3": BARBARA}, forts={"lu-2": CHRIS})
    put_houses(state, {"wei-4": ALEX, "wei-3": ALEX})  # the row wei-3 wei-4 lu-1 lu-2
    return state


def test_fortifications_are_neutral_in_scoring_by_default():
    # "Importante: las fortificaciones son neutrales. Por lo tanto, un jugador siempre debe jugar
    # una casa en la fortificación en el mismo turno." (Juego con fortificaciones)
    assert GAME.info.resolve_options({"fortifications": True})["fortification_scoring"] == "neutral"
    state = fortified_lu("neutral")
    assert region_points(state, board_of(state), "lu") == {ALEX: 3, BARBARA: 2}
    assert road_points(state, board_of(state), ALEX)[0] == 4


def test_the_double_option_doubles_region_and_road_scores_as_data_says():
    from adjudicator.games.china.components import COMPONENTS
    assert COMPONENTS["fortification_effect"]["region_points_multiplier"] == 2
    state = fortified_lu("double")
    assert region_points(state, board_of(state), "lu") == {ALEX: 6, BARBARA: 2}
    assert road_points(state, board_of(state), ALEX)[0] == 2 * 4


def test_rules_version_1_states_always_doubled():
    """A version 1 state (it names no version and has no scoring option) keeps its double."""
    state = fortified_lu("neutral")
    del state["rules_version"], state["options"]["fortification_scoring"]
    assert region_points(state, board_of(state), "lu") == {ALEX: 6, BARBARA: 2}
    assert road_points(state, board_of(state), ALEX)[0] == 2 * 4


def test_the_scoring_option_takes_only_its_two_values():
    with pytest.raises(IllegalOrder, match="fortification_scoring must be one of: neutral, double"):
        GAME.info.resolve_options({"fortifications": True, "fortification_scoring": "triple"})
