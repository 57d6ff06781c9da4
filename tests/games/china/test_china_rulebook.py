"""China rules of the rulebook that had no test of their own (docs/games/china-rules.md lists them)."""

from __future__ import annotations

from adjudicator.games.china import GAME

from .helpers import ALEX, DORIS, act, choices, kind, new_game, put_houses, set_cards


def test_a_turn_places_in_one_region_only() -> None:
    # "Un jugador solo puede colocar piezas en una sola región en su turno."
    state = new_game()
    put_houses(state, {"wei-1": ALEX, "qi-1": ALEX})
    state["current"] = DORIS
    set_cards(state, {DORIS: ["red", "yellow", "yellow"]})
    plays = [c for c in choices(state) if "play" in c]
    assert plays and all(isinstance(c["region"], str) for c in plays)
    assert all(len(c["pieces"]) <= 2 for c in plays)  # the 3-2-1 rule: at most 2 pieces


def test_a_house_space_holds_one_house() -> None:
    # "Un espacio de casa no puede contener más de 1 casa."
    state = new_game()
    put_houses(state, {"wei-1": ALEX})
    state["current"] = DORIS
    set_cards(state, {DORIS: ["red", "red", "yellow"]})
    state, _ = act(state, "play red to wei: house")
    assert kind(state) == "space"
    spaces = {c["space"] for c in GAME.prompts(state)[DORIS].choices}
    assert "wei-1" not in spaces and "wei-2" in spaces


def test_the_start_player_holds_the_emperor_and_play_goes_round_in_seat_order() -> None:
    # "Ese jugador recibe el marcador Emperador ... El juego continúa en el orden de las agujas del reloj."
    state = new_game()
    assert state["current"] == state["seats"][0]
    set_cards(state, {state["seats"][0]: ["red", "green", "yellow"]})
    state, _ = act(state, "exchange red for deck")
    assert state["current"] == state["seats"][1]
