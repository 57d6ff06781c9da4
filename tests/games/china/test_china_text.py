"""The order grammar, rendering and the board file validator."""

from __future__ import annotations

import copy
import random

import pytest

from adjudicator.engine import IllegalOrder, apply_checked
from adjudicator.games.china import GAME, validate_board
from adjudicator.games.china.boardfile import read_board_data

from .helpers import ALEX, DORIS, new_game, put_houses, set_cards


def prompt_of(state):
    return GAME.prompts(state)[state["current"]]


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_choice_round_trips_through_its_text(players):
    rnd = random.Random(players)
    state = new_game(players, forts=True, seed=f"grammar-{players}")
    seen = set()
    while GAME.prompts(state):
        prompt = prompt_of(state)
        for choice in prompt.choices:
            assert GAME.parse_order(GAME.format_order(choice), prompt) == choice
        seen.add(prompt.kind)
        state = apply_checked(GAME, state, {prompt.seat: rnd.choice(prompt.choices)}).state
    assert seen >= {"turn", "draw"}


def test_the_issue_example_and_forgiving_spellings():
    state = new_game()
    put_houses(state, {"wei-1": ALEX})
    set_cards(state, {DORIS: ["green", "red", "red"]})
    prompt = prompt_of(state)
    wanted = {"play": ["red", "red"], "region": "wei", "pieces": ["house", "house"]}
    for text in ["play red red to Wei: house, house", "PLAY  Red,Red TO wei : houses house",
                 "play 2 red to we: 2 houses", "r r in WEI - h h", "play red and red to Wei: house and house"]:
        assert GAME.parse_order(text, prompt) == wanted, text
    assert GAME.parse_order("play r r to wei: house, emissary", prompt) == {
        "play": ["red", "red"], "region": "wei", "pieces": ["emissary", "house"]}
    assert GAME.parse_order("exchange red for the deck top", prompt) == {"exchange": "red", "take": "deck"}
    face_up = state["display"][0]
    assert GAME.parse_order(f"swap g {face_up}", prompt) == {"exchange": "green", "take": face_up}


def test_region_names_prefixes_and_apostrophes():
    state = new_game()
    put_houses(state, {"qin-1": ALEX})
    set_cards(state, {DORIS: ["yellow", "yellow", "red"]})
    prompt = prompt_of(state)
    wanted = {"play": ["yellow"], "region": "qin", "pieces": ["house"]}
    for text in ["play yellow to Ch'in: house", "play y to chin: h", "play yellow to QIN: house",
                 "play yellow to Ch’in: house", "play yellow to chi: house"]:
        assert GAME.parse_order(text, prompt) == wanted, text
    with pytest.raises(IllegalOrder, match="could be"):
        GAME.parse_order("play yellow to ch: house", prompt)


def test_space_and_draw_orders():
    state = new_game()
    put_houses(state, {"wei-1": ALEX})
    set_cards(state, {DORIS: ["red", "red", "green"]}, display=["orange", "orange", "purple", "yellow"])
    state = apply_checked(GAME, state, {DORIS: GAME.parse_order("play red red to wei: house house",
                                                               prompt_of(state))}).state
    prompt = prompt_of(state)
    assert prompt.kind == "space"
    for text in ["space wei-3", "3", "wei 3", "house at Wei-3", "at 3"]:
        assert GAME.parse_order(text, prompt) == {"space": "wei-3"}, text
    with pytest.raises(IllegalOrder, match="wei-2"):
        GAME.parse_order("space 1", prompt)
    state = apply_checked(GAME, state, {DORIS: {"space": "wei-3"}}).state
    state = apply_checked(GAME, state, {DORIS: {"space": "wei-4"}}).state
    prompt = prompt_of(state)
    assert prompt.kind == "draw"
    assert GAME.parse_order("draw deck", prompt) == {"draw": "deck"}
    assert GAME.parse_order("deck", prompt) == {"draw": "deck"}
    assert GAME.parse_order("take the face-up purple", prompt) == {"draw": "purple"}
    assert GAME.parse_order("draw violet", prompt) == {"draw": "purple"}


def test_errors_say_what_to_write():
    state = new_game()
    set_cards(state, {DORIS: ["red", "red", "green"]})
    prompt = prompt_of(state)
    with pytest.raises(IllegalOrder, match="play red red to Wei: house, house"):
        GAME.parse_order("build me a palace", prompt)
    with pytest.raises(IllegalOrder, match="not legal now"):
        GAME.parse_order("play purple to chu: house", prompt)  # no purple card in hand
    with pytest.raises(IllegalOrder, match="not legal now"):
        GAME.parse_order("play red red to wei: house, house", prompt)  # Wei is empty: one piece
    with pytest.raises(IllegalOrder, match="not a region"):
        GAME.parse_order("play red to beijing: house", prompt)
    with pytest.raises(IllegalOrder):
        GAME.parse_order("pass", prompt)  # exchanging is possible, so passing is not


def test_render_view_and_events_are_markdown_without_secrets():
    state = new_game(forts=True)
    set_cards(state, {DORIS: ["red", "red", "green"], ALEX: ["purple", "purple", "yellow"]})
    step = apply_checked(GAME, state, {DORIS: {"exchange": "green", "take": "deck"}})
    public = [GAME.render_event(e) for e in step.events if e["audience"] is None]
    assert public == ["**blue** exchanges green for the deck."]
    secret = [e for e in step.events if e["audience"]]
    assert secret and secret[0]["audience"] == [DORIS] and "You drew" in GAME.render_event(secret[0])
    text = GAME.render_view(GAME.view(step.state, ALEX), ALEX)
    assert "stand-in" in text and "Your hand: purple, purple, yellow." in text
    assert "Your hand" not in GAME.render_view(GAME.view(step.state, None), None)
    assert "play red red to Wei: house, house" in GAME.grammar_help()


# board files ------------------------------------------------------------------------------------


@pytest.mark.parametrize("side", ["3-4p", "4-5p"])
def test_built_in_boards_are_valid_and_marked_stand_in(side):
    data = read_board_data(side)
    assert validate_board(data) == []
    assert data["stand_in"] is True and "STAND-IN" in data["WARNING"] and data["provenance"]
    assert len(data["alliances"]) == 15 and len(data["regions"]) == 9


def broken(change) -> list[str]:
    data = copy.deepcopy(read_board_data("3-4p"))
    change(data)
    return validate_board(data)


def test_validator_finds_problems():
    def same_colour_neighbours(d):
        d["regions"][1]["colour"] = "yellow"  # Zhao next to Ch'in, both yellow
    assert any("same colour" in p for p in broken(same_colour_neighbours))

    def road_without_alliance(d):
        d["roads"].append(["qin-1", "chu-1"])
    assert any("share no alliance" in p for p in broken(road_without_alliance))

    def road_to_nowhere(d):
        d["roads"].append(["qin-1", "nowhere-9"])
    assert any("no house space called nowhere-9" in p for p in broken(road_to_nowhere))

    def alliance_gap(d):
        d["alliances"][0]["number"] = 99
    assert any("alliance numbers" in p for p in broken(alliance_gap))

    def alliance_unknown(d):
        d["alliances"][0]["regions"] = ["qin", "atlantis"]
    assert any("two different region ids" in p for p in broken(alliance_unknown))

    def no_provenance(d):
        del d["provenance"], d["stand_in"]
    assert len(broken(no_provenance)) == 2

    def space_count(d):
        d["regions"][0]["house_space_count"] = 9
    assert any("house_space_count" in p for p in broken(space_count))

    assert validate_board([]) == ["a board file must be a JSON object"]
