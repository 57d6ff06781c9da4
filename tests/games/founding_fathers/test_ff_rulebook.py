"""Founding Fathers rules of the rulebook that had no exact test of their own
(docs/games/founding-fathers-rules.md lists them)."""

from __future__ import annotations

import pytest

from adjudicator.engine import copy_json, scripted_state
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.effects import raise_tension
from adjudicator.games.founding_fathers.election import eligible, has_room, install
from adjudicator.games.founding_fathers.flowbase import FLOW
from adjudicator.games.founding_fathers.issues import settle_tax
from adjudicator.games.founding_fathers.people import draft_order, income
from adjudicator.games.founding_fathers.state import (
    TENSION_WAR,
    D,
    ability,
    congress_votes,
    eligible_appointees,
    leader,
    number,
    owned,
    party,
)
from adjudicator.games.founding_fathers.turn import finish, victim
from tests.games.founding_fathers.helpers import act, fresh


@pytest.mark.parametrize("roll, rank", [(1, 0), (3, 0), (4, 1), (5, 1), (6, 2)])
def test_hand_of_time_die_picks_the_oldest_second_or_third_oldest(roll: int, rank: int) -> None:
    # "1-3: El estadista activo más viejo muere. 4-5: El segundo ... 6: El tercer estadista más viejo"
    state = fresh()
    by_age = sorted(state["statesmen"], key=lambda s: number(state, s))
    assert victim(state, roll) == by_age[rank]


def test_income_one_influence_each_and_one_on_each_party_leader() -> None:
    # "Cada jugador recibe 1 Punto de Influencia. Los líderes del Partido reciben cada uno 1 Punto
    # de Influencia que colocan sobre sus cartas."
    state = fresh()
    before = copy_json(state)
    income(state, [])
    assert all(state["factions"][s]["influence"] == before["factions"][s]["influence"] + 1 for s in state["seats"])
    for side in ("L", "C"):
        sid = leader(state, side)
        assert sid is not None
        gained = state["statesmen"][sid]["influence"] - before["statesmen"][sid]["influence"]
        assert gained >= 1  # 1 as leader, more if his card has an income ability


def test_draft_order_fewest_points_then_fewest_votes() -> None:
    # "Al Jugador que tenga menos cantidad de puntos de victoria sumados a sus cubos de
    # popularidad. Si hay empate, al jugador que tenga menos votos en el Congreso."
    state = fresh()
    for seat in state["seats"]:
        state["factions"][seat]["vp"] = 0
        for sid in owned(state, seat):
            state["statesmen"][sid]["cubes"] = 0
    state["factions"][state["seats"][0]]["vp"] = 5  # the most points: drafts last
    order = draft_order(state)
    assert order[-1] == state["seats"][0]
    rest = order[:-1]
    assert [congress_votes(state, s) for s in rest] == sorted(congress_votes(state, s) for s in rest)


def test_civil_war_scores_subtract_congress_votes_and_influence() -> None:
    # "Si el juego termina debido al colapso monetario o a la guerra civil, cada jugador debe
    # restar el número del congreso más los puntos de influencia"
    state = fresh()
    state["ending"] = "civil-war"
    for seat in state["seats"]:
        state["factions"][seat]["vp"] = 20
        for sid in owned(state, seat):
            state["statesmen"][sid]["cubes"] = 0
            state["statesmen"][sid]["influence"] = 0
    finish(state, [])
    for seat in state["seats"]:
        expected = 20 - congress_votes(state, seat) - state["factions"][seat]["influence"]
        assert state["result"]["scores"][seat] == expected
    assert state["result"]["reason"] == "civil-war"


def test_a_twice_elected_president_may_not_run_again() -> None:
    # "A excepción de un presidente dos veces elegido (dos peones de Elegido en la carta), todos
    # los estadistas son elegibles para convertirse en presidente."
    state = fresh()
    state["statesmen"]["george-washington"]["elected"] = 1
    assert eligible(state, "george-washington")
    state["statesmen"]["george-washington"]["elected"] = 2
    assert not eligible(state, "george-washington")


def test_tension_reaching_civil_war_ends_the_game() -> None:
    # The tension track runs Peace, 1, 2, 3, 4, Civil War: the civil war ends the game at once.
    state = fresh()
    state["tension"] = TENSION_WAR - 1
    events: list = []
    raise_tension(state, 1, events)
    assert state["ending"] == "civil-war" and "civil-war" in [e["kind"] for e in events]
    raise_tension(state, 1, events)
    assert state["tension"] == TENSION_WAR  # the track has no space beyond the civil war


def _round_for(state: dict, seat: str) -> dict:
    """The Round with `seat` to act, nothing done yet this turn."""
    state["people"] = {"drafters": [], "done": {s: [] for s in state["seats"]}, "auction": None}
    state["flow"] = [{"node": "people", "args": {"stage": "auction"}},
                     {"node": "round", "args": {"order": [seat], "k": 0, "extra": False}}]
    return state


@pytest.mark.parametrize("die, boxes", [(1, 0), (2, 0), (3, 1), (5, 1), (6, 2)])
def test_whip_up_support_moves_support_by_the_die(die: int, boxes: int) -> None:
    # "1-2: sin cambios 3-5: una casilla 6: dos casillas", towards the statesman's party, for 1 IP.
    state = _round_for(fresh(), "red")
    state["support"] = 0
    state["secret"]["rng"] = scripted_state([die - 1])
    influence = state["factions"]["red"]["influence"]
    state = act(state, "red", "whip george-washington")  # a Conservative
    assert party(state, "george-washington") == "C"
    assert state["support"] == -boxes  # the track counts positive towards the Liberals
    assert state["factions"]["red"]["influence"] == influence - 1


def test_a_speech_rolling_six_gains_a_popularity_cube() -> None:
    # A speech costs 1 IP and a die; a 6 (here at once, without extra influence) succeeds.
    state = _round_for(fresh(), "red")
    state["secret"]["rng"] = scripted_state([5])
    cubes = state["statesmen"]["george-washington"]["cubes"]
    state = act(state, "red", "speech george-washington")
    assert state["statesmen"]["george-washington"]["cubes"] == cubes + 1


@pytest.mark.parametrize("total, lost, tension", [(7, 0, 0), (8, 1, 0), (9, 1, 0), (10, 2, 0), (11, 3, 1)])
def test_tax_outrage_active_taxes_plus_outrage_plus_die(total: int, lost: int, tension: int) -> None:
    # Ultraje fiscal: active taxes (1, the new one) + the tax's outrage + a die; "1-7 sin efecto,
    # 8-9 pierden 1, 9-10 pierden 2, 11+ pierden 3, Tensión +1" (reading: 9 loses 1, 10 loses 2).
    state = fresh()
    pres = state["offices"]["president"]
    state["statesmen"][pres]["cubes"] = 5
    die = total - 1 - D(state).taxes["stamp-tax"]["outrage"]
    assert 1 <= die <= 6
    state["secret"]["rng"] = scripted_state([die - 1])
    events: list = []
    settle_tax(state, {"card": "stamp-tax", "outcome": "resolved", "do": "pass", "officers": []}, events)
    assert [e["data"]["total"] for e in events if e["kind"] == "tax-outrage"] == [total]
    assert state["taxes"]["active"] == ["stamp-tax"]
    assert state["statesmen"][pres]["cubes"] == 5 - lost
    assert state["tension"] == tension


def test_a_candidate_never_puts_two_cubes_in_one_state() -> None:
    # "Un candidato no puede colocar dos de sus cubos en el mismo Estado, aunque haya dos vacantes."
    state = fresh(5)
    cast = {"james-madison": "blue", "aaron-burr": "blue", "alexander-hamilton": "red", "john-marshall": "green"}
    state["statesmen"] = {sid: {"owner": seat, "cubes": 5 if sid in ("james-madison", "alexander-hamilton") else 0,
                                "bonus": 0, "influence": 0, "elected": 0} for sid, seat in cast.items()}
    state["offices"] = dict.fromkeys(state["offices"])
    state["support"] = 2  # towards the Liberals: Madison places first
    FLOW.start(state, "election", stage="start")
    FLOW.settle(state, [])
    state = act(state, "red", "mate Marshall")
    state = act(state, "blue", "mate Burr")
    state = act(state, "blue", "place VA")  # Madison at home
    state = act(state, "blue", "place NY")  # Burr; Hamilton's and Marshall's home cubes follow unasked
    assert state["election"]["placed"]["john-marshall"] == ["VA"]
    state["election"]["cubes"]["VA"] = ["james-madison"]  # one of Virginia's two places free again
    assert has_room(state, "VA", "alexander-hamilton") and not has_room(state, "VA", "james-madison")
    offered = {c["state"] for c in GAME.prompts(state)["blue"].choices if "state" in c}
    assert offered and "VA" not in offered


def test_installation_vacates_other_offices_and_the_outgoing_president_retires() -> None:
    # "Si un candidato ganador tiene un Departamento distinto ... deberá renunciar al mismo";
    # "si un Presidente en funciones no es reelegido, sus cubos de Popularidad son anotados, su
    # carta es retirada del juego".
    state = fresh(5)
    state["offices"]["secretary-of-the-treasury"] = "alexander-hamilton"
    washington = state["statesmen"]["george-washington"]
    washington["cubes"] = 4
    owner = washington["owner"]
    points = state["factions"][owner]["vp"]
    install(state, "thomas-jefferson", "alexander-hamilton", [])
    assert state["offices"]["president"] == "thomas-jefferson"
    assert state["offices"]["vice-president"] == "alexander-hamilton"
    assert state["offices"]["secretary-of-the-treasury"] is None
    assert "george-washington" not in state["statesmen"] and state["gone"]["george-washington"] == "retired"
    assert state["factions"][owner]["vp"] == points + 4
    assert state["statesmen"]["thomas-jefferson"]["elected"] == 1


def test_the_general_needs_military_ability_and_is_replaced_only_by_a_more_able_one() -> None:
    # "La designación a este Departamento requiere que el estadista tenga capacidad militar";
    # "sólo puede ser designado como General cuando el departamento esté vacante, el nuevo
    # candidato tenga mayor habilidad o el titular vigente no sea del partido del Presidente".
    state = fresh(5)
    vacant = eligible_appointees(state, "general")
    assert vacant and all(D(state).statesmen[s]["military"] for s in vacant)
    pres_party = party(state, state["offices"]["president"])
    same_party = [s for s in vacant if party(state, s) == pres_party]
    holder = min(same_party, key=lambda s: (ability(state, s), s))  # the least able of his party
    state["offices"]["general"] = holder
    replacing = eligible_appointees(state, "general")
    assert replacing, "a more able military statesman is free"
    assert all(ability(state, s) > ability(state, holder) for s in replacing)
    assert set(replacing) < set(vacant)  # the equally able ones may no longer replace him
