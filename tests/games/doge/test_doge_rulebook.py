"""Doge rules of the rulebook that had no test of their own (docs/games/doge-rules.md lists them).

Each test builds an exact state, plays one step and checks the exact outcome the rulebook states.
"""

from __future__ import annotations

import pytest

from adjudicator.engine import defaults_for
from adjudicator.games.doge import GAME
from adjudicator.games.doge.data import ADVISORS, AREAS, DISTRICTS, HOUSES, MARKERS, PALACES, RINGS
from tests.games.doge.helpers import board, election, fresh, play


def test_component_totals_match_the_rulebook_for_four_colours() -> None:
    # "60 casas, 32 palacios, 9 asesores, 28 marcadores de papeleta, 24 anillos de control,
    # 28 cartas de jugador, 14 tarjetas de orden de votación" - the four colours' share each.
    assert (4 * HOUSES, 4 * PALACES, len(ADVISORS), 4 * len(MARKERS), 4 * RINGS) == (60, 32, 9, 28, 24)
    assert 4 * len(AREAS) == 28 and 2 * len(AREAS) == 14


def test_three_players_leave_the_fourth_colour_in_the_box() -> None:
    state = fresh(3)
    assert sorted(state["supply"]) == ["blue", "green", "red"]
    assert all(cards == [] for cards in state["cards_used"].values())


def test_a_used_card_cannot_be_played_again_in_the_year() -> None:
    # "un jugador no puede colocar más marcadores de papeleta en áreas que ya ha usado este año"
    state = fresh(4)
    state, _ = play(state, {s: {"card": "castello", "markers": [1]} for s in state["seats"]})
    assert not any(c["card"] == "castello" for c in GAME.prompts(state)["red"].choices)


def test_one_to_four_markers_per_card_never_five() -> None:
    state = fresh(4)
    sizes = {len(c["markers"]) for c in GAME.prompts(state)["red"].choices}
    assert sizes == {1, 2, 3, 4}


def test_leftover_markers_are_lost_for_the_year_and_all_seven_come_back() -> None:
    # "Si a un jugador le quedan marcadores ... no puede usarlos en el resto de este año"; they
    # come back with the new year (every marker is in the supply at a year's start).
    state = fresh(4)
    while state["year"] == 1:
        state, _ = play(state, defaults_for(GAME, state))
    assert all(state["private"][s]["markers"] == sorted(MARKERS, reverse=True) for s in state["seats"])
    assert all(state["private"][s]["ballots"] == {} for s in state["seats"])


def test_an_advisor_never_stands_in_its_home_area_but_may_stay_where_it_is() -> None:
    # "No puede elegir el área de residencia del asesor, pero puede elegir cualquier otra área,
    # incluida la zona donde está parado el asesor"
    state = board(advisors={"adv-castello": ("blue", "dorsoduro")})
    state, _ = election(state, "castello", {"red": [3]})
    takes = {c["take"] for c in GAME.prompts(state)["red"].choices if "take" in c}
    assert takes == set(AREAS) - {"castello"}
    state, _ = play(state, {"red": {"take": "dorsoduro"}})
    assert state["advisors"]["adv-castello"] == {"home": "castello", "at": "dorsoduro", "owner": "red"}
    assert state["supply"]["blue"]["rings"] == RINGS  # blue's ring went back to blue


def test_district_abstention_moves_only_into_or_out_of_that_district() -> None:
    # "trasladar 1 de sus casas del distrito de origen del asesor a cualquier otro distrito, o
    # trasladar 1 de sus casas de cualquier otro distrito al distrito de origen del asesor"
    state = board(houses={"castello": {"red": 1}, "san-polo": {"red": 1}})
    state, _ = election(state, "castello", {"red": [3]})
    moves = {tuple(c["move"]) for c in GAME.prompts(state)["red"].choices if "move" in c}
    expected = {("castello", d) for d in DISTRICTS if d != "castello"} | {("san-polo", "castello")}
    assert moves == expected


def test_quarantia_advisors_stand_only_in_districts() -> None:
    # "toma el control de uno de los asesores neutrales de Cuarentena y lo coloca en el distrito
    # de su elección" - a district, never the Quarantia itself.
    state = board()
    state, _ = election(state, "quarantia", {"red": [3], "blue": [1]})
    takes = {c["take"] for c in GAME.prompts(state)["red"].choices if "take" in c}
    assert takes == set(DISTRICTS)


@pytest.mark.parametrize("players, rounds", [(3, 4), (4, 3)])
def test_placement_rounds_by_player_count(players: int, rounds: int) -> None:
    # "4 veces en un juego de 3 jugadores y 3 veces en un juego de 4 jugadores"
    state = fresh(players)
    played = 0
    while state["flow"][-1]["node"] == "placement":
        state, _ = play(state, defaults_for(GAME, state))
        played += 1
    assert played == rounds and all(len(state["cards_used"][s]) == rounds for s in state["seats"])


def test_advisors_start_neutral_beside_the_board() -> None:
    # "Coloque los asesores en los espacios del lado derecho del tablero": no area, no owner.
    state = fresh(4)
    assert all(info["at"] is None and info["owner"] is None for info in state["advisors"].values())
    assert all(state["supply"][s]["rings"] == RINGS for s in state["seats"])
