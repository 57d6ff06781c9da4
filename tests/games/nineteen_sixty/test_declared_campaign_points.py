"""A declaration of campaign points in a state under support checks is final for the play
(rules gmt-2017-3; docs/games/1960-rules.md, R-declare).

"Los jugadores que hagan campaña en un estado en el que se les requiera realizar comprobaciones de
apoyo primero deben declarar cuántos puntos de campaña se gastarán allí durante esa fase de
actividad. Luego, el jugador extrae la cantidad declarada de cubos de acuerdo con el proceso de
Verificación de soporte." (B1, Aumento del apoyo estatal) and, for events, "Al igual que con las
campañas, los jugadores que deseen agregar múltiples apoyos estatales a un estado en el que se
requieran cheques de apoyo, primero deben declarar cuántos apoyos se agregarán allí antes de robar
el número declarado de cubos." (Obtener el apoyo del estado)
"""

from __future__ import annotations

import pytest

from adjudicator.engine import IllegalOrder, copy_json, seed_state
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.versions import RULES_VERSION

from .helpers import act, clear_board, cubes, give, script, start, waiting

KENNEDY_CUBE, NIXON_CUBE = 0, 23  # scripted bag draws from 12 + 12 cubes


def nixon_carries_wyoming(nixon_cubes: int = 4) -> dict:
    """Kennedy (token in Colorado, West) has played Gallup Poll (3 CP) for campaigning; Nixon
    carries Wyoming."""
    s = clear_board(start())
    s["states"]["WY"]["nixon"] = nixon_cubes
    s["supply"]["nixon"] -= nixon_cubes
    s["tokens"]["kennedy"] = "CO"
    s = give(s, "kennedy", 3)
    return act(s, "kennedy", {"play": 3, "as": "cp"})


def test_new_games_play_by_the_version_that_names_itself():
    assert GAME.info.rules_version == RULES_VERSION == "gmt-2017-3"
    assert start()["rules_version"] == RULES_VERSION


def test_no_second_declaration_in_a_state_still_under_checks():
    s = act(script(nixon_carries_wyoming(5), NIXON_CUBE), "kennedy", {"campaign": "WY", "n": 1})
    assert cubes(s, "WY") == {"kennedy": 0, "nixon": 5}  # the one check failed; Nixon still carries
    prompt = waiting(s)["kennedy"]
    assert [c for c in prompt.choices if c.get("campaign") == "WY"] == []
    assert prompt.allows({"campaign": "ID", "n": 2}) and prompt.allows({"done": True})
    assert "what you declared in WY is final for this play" in prompt.text
    with pytest.raises(IllegalOrder, match="is not legal now"):
        GAME.parse_order("campaign WY 1", prompt)


def test_a_successful_check_does_not_reopen_the_state_while_checks_still_apply():
    s = act(script(nixon_carries_wyoming(5), KENNEDY_CUBE), "kennedy", {"campaign": "WY", "n": 1})
    assert cubes(s, "WY") == {"kennedy": 0, "nixon": 4}  # one Nixon cube removed; he still carries
    assert not waiting(s)["kennedy"].allows({"campaign": "WY", "n": 1})


def test_where_checks_no_longer_apply_a_second_campaign_is_fine():
    s = act(script(nixon_carries_wyoming(4), KENNEDY_CUBE), "kennedy", {"campaign": "WY", "n": 1})
    assert cubes(s, "WY") == {"kennedy": 0, "nixon": 3}  # the carry is broken: no checks any more
    assert "final" not in waiting(s)["kennedy"].text
    s = act(s, "kennedy", {"campaign": "WY", "n": 2})  # placed without a draw
    assert cubes(s, "WY") == {"kennedy": 0, "nixon": 1}


def test_a_state_campaigned_in_without_checks_stays_open():
    s = act(nixon_carries_wyoming(), "kennedy", {"campaign": "ID", "n": 1})
    s = act(s, "kennedy", {"campaign": "ID", "n": 1})
    assert cubes(s, "ID") == {"kennedy": 2, "nixon": 0}


def test_the_opponents_token_keeps_the_declaration_final():
    s = clear_board(start())
    s["tokens"]["nixon"] = "OH"
    s["tokens"]["kennedy"] = "IL"
    s = act(give(s, "kennedy", 3), "kennedy", {"play": 3, "as": "cp"})
    s = act(script(s, KENNEDY_CUBE), "kennedy", {"campaign": "OH", "n": 1})
    assert cubes(s, "OH") == {"kennedy": 1, "nixon": 0}
    assert not waiting(s)["kennedy"].allows({"campaign": "OH", "n": 1})


def test_the_declaration_is_per_play():
    """The next play is a new declaration: the rule binds one activity phase's campaign."""
    s = act(script(nixon_carries_wyoming(5), NIXON_CUBE), "kennedy", {"campaign": "WY", "n": 1})
    s = act(s, "kennedy", {"done": True})
    s["secret"]["rng"] = seed_state("next")  # the script is spent: Nixon's play draws at random
    while "kennedy" not in waiting(s) or waiting(s)["kennedy"].kind != "play":
        seat = sorted(waiting(s))[0]  # Nixon's trigger decision and his play, by the defaults
        s = act(s, seat, GAME.default_order(s, seat))
    assert s["tokens"]["kennedy"] == "WY" and s["states"]["WY"]["nixon"] >= 4  # still under checks
    s = act(give(s, "kennedy", 3), "kennedy", {"play": 3, "as": "cp"})
    assert waiting(s)["kennedy"].allows({"campaign": "WY", "n": 1})


def test_gmt_2017_2_states_may_still_declare_again():
    """A state that names no version (records of gmt-2017-1 and -2) keeps the old behaviour."""
    s = nixon_carries_wyoming(5)
    del s["rules_version"]
    s = act(script(s, NIXON_CUBE), "kennedy", {"campaign": "WY", "n": 1})
    assert waiting(s)["kennedy"].allows({"campaign": "WY", "n": 1})
    assert "final" not in waiting(s)["kennedy"].text


def event_in_new_england(nixon_cubes: int) -> dict:
    """Kennedy plays card 6 as its event: 5 support, at most 2 per state, in six New England and
    New York states; Nixon carries New York."""
    s = clear_board(start())
    s["states"]["NY"]["nixon"] = nixon_cubes
    s["supply"]["nixon"] -= nixon_cubes
    s = act(give(s, "kennedy", 6), "kennedy", {"play": 6, "as": "event"})
    assert waiting(s)["kennedy"].kind == "support"
    return s


def test_an_event_placement_is_a_final_declaration_too():
    s = act(script(event_in_new_england(5), NIXON_CUBE), "kennedy", {"support": "NY", "n": 1})
    prompt = waiting(s)["kennedy"]
    assert [c for c in prompt.choices if c["support"] == "NY"] == []
    assert prompt.allows({"support": "MA", "n": 2})


def test_an_event_placement_where_the_carry_broke_may_go_on():
    s = act(script(event_in_new_england(4), KENNEDY_CUBE), "kennedy", {"support": "NY", "n": 1})
    assert cubes(s, "NY") == {"kennedy": 0, "nixon": 3}
    assert waiting(s)["kennedy"].allows({"support": "NY", "n": 1})


def test_the_old_event_placement_allowed_a_second_declaration():
    s = copy_json(event_in_new_england(5))
    del s["rules_version"]
    s = act(script(s, NIXON_CUBE), "kennedy", {"support": "NY", "n": 1})
    assert waiting(s)["kennedy"].allows({"support": "NY", "n": 1})
