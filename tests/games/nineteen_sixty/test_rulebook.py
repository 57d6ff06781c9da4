"""1960 rules of the rulebook that had no exact test of their own (docs/games/1960-rules.md)."""

from __future__ import annotations

from adjudicator.engine import copy_json
from adjudicator.games.nineteen_sixty.data import ISSUES, REGIONS, SEATS, STATES
from adjudicator.games.nineteen_sixty.flowbase import FLOW
from adjudicator.games.nineteen_sixty.turn import hand_size

from .helpers import start


def _election_day(state: dict) -> dict:
    """The state at the start of turn 9 with empty strategy piles and no Election Day events."""
    state = copy_json(state)
    state["turn"] = 9
    for seat in SEATS:
        state["private"][seat]["strategy"] = []
    state["boxes"]["election_day"] = []
    state["flow"] = [{"node": "election", "args": {}}]
    return state


def test_election_day_bonus_cubes_media_twice_issues_and_two_per_momentum() -> None:
    # "agrega una cantidad de cubos de su suministro ... igual a la cantidad de cubos de soporte de
    # medios que tiene en el tablero, luego quita todos sus cubos de soporte de medios y ... de
    # problemas ... y los deposita en la bolsa"; "Coloca dos cubos en la bolsa ... por cada
    # marcador de impulso". (The Chinese summary drops the media bonus and the momentum exchange.)
    state = _election_day(start())
    for region in REGIONS:
        state["media"][region] = {"kennedy": 0, "nixon": 0}
    for issue in ISSUES:
        state["issues"][issue] = {"kennedy": 0, "nixon": 0}
    state["media"][REGIONS[0]]["kennedy"] = 3
    state["issues"][ISSUES[0]]["nixon"] = 2
    state["momentum"] = {"kennedy": 1, "nixon": 2}
    bag = dict(state["bag"])
    events: list = []
    FLOW.settle(state, events)
    bonus = next(e["data"]["bag"] for e in events if e["kind"] == "bonus")
    assert bonus == {"kennedy": bag["kennedy"] + 3 + 3 + 2, "nixon": bag["nixon"] + 2 + 4}
    assert all(state["media"][r] == {"kennedy": 0, "nixon": 0} for r in REGIONS)
    assert state["momentum"] == {"kennedy": 0, "nixon": 0}


def test_empty_states_go_to_the_endorsement_holder_else_to_their_lean() -> None:
    # "Si alguno de los jugadores tiene un marcador de respaldo en la región de ese estado, ese
    # jugador gana el estado ... Si ninguno ... va al jugador indicado por el borde de ese estado"
    state = _election_day(start())
    for abbr in state["states"]:
        state["states"][abbr] = {"kennedy": 0, "nixon": 0}
    region = STATES["CA"].region
    for r in REGIONS:
        state["endorse"][r] = {"kennedy": 0, "nixon": 0}
    state["endorse"][region]["kennedy"] = 1
    state["flow"] = [{"node": "tally", "args": {}}]
    FLOW.settle(state, [])
    for abbr, info in STATES.items():
        expected = "kennedy" if info.region == region else info.lean
        assert state["states"][abbr][expected] == 1, abbr


def test_hands_of_six_before_the_debates_and_seven_after() -> None:
    # "En los primeros cinco turnos ... seis cartas; en los dos últimos turnos ... siete"
    assert [hand_size(turn) for turn in (1, 2, 3, 4, 5, 7, 8)] == [6] * 5 + [7] * 2
    state = start()  # turn 1, first activity phase, before any card is played
    assert {s: len(state["private"][s]["hand"]) for s in SEATS} == {"kennedy": 6, "nixon": 6}
