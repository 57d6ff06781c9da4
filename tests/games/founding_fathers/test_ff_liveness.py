"""Founding Fathers must end when nobody orders: the deadline defaults found looping (issue 14)."""

from __future__ import annotations

from adjudicator.engine import apply_checked
from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.offices import fillable_vacancies
from tests.games.founding_fathers.helpers import fresh, waiting


def _desk_after_four_issues() -> dict:
    """Washington (Conservative) at his agenda, all four issues drawn, the cabinet full with one
    Liberal (Burr), the General a Liberal (Jefferson), the Chief Justice's office vacant and only
    Liberals (Franklin, Henry) without an office."""
    state = fresh(3)
    state["issues"]["drawn"] = 4
    state["offices"].update({
        "secretary-of-state": "aaron-burr", "secretary-of-the-treasury": "alexander-hamilton",
        "secretary-of-war": "john-jay", "special-envoy": "fisher-ames",
        "general": "thomas-jefferson", "chief-justice": None,
    })
    return state


def test_the_default_agenda_fills_the_vacancy_and_ends_the_issues() -> None:
    # "Además, debe nombrar a los responsables de los departamentos de General y Presidente del
    # tribunal supremo (Chief Justice), en caso de quedar vacantes. Al igual que ocurre con otros
    # departamentos, estos nombramientos no necesitan hacerse inmediatamente, pero deben
    # resolverse al final de las cuestiones."
    # "Un estadista sólo puede ser designado como General cuando el departamento esté vacante, el
    # nuevo candidato tenga mayor habilidad o el titular vigente no sea del partido del Presidente."
    state = _desk_after_four_issues()
    prompt = GAME.prompts(state)["red"]
    assert prompt.kind == "agenda"
    assert {"act": "end"} not in prompt.choices  # the vacancy must be resolved first
    assert fillable_vacancies(state) == ["chief-justice"]
    # the Liberal General may be replaced (and his replacement in turn by Jefferson, who is abler):
    # the loop the old default walked, +1 popularity on every swap
    assert {"act": "appoint", "office": "general", "statesman": "benjamin-franklin"} in prompt.choices

    default = GAME.default_order(state, "red")
    assert default["act"] == "appoint" and default["office"] == "chief-justice"
    state = apply_checked(GAME, state, {"red": default}).state
    assert state["offices"]["general"] == "thomas-jefferson"  # the sitting General stays
    assert state["offices"]["chief-justice"] == default["statesman"]
    assert GAME.default_order(state, "red") == {"act": "end"}
    state = apply_checked(GAME, state, {"red": {"act": "end"}}).state
    assert waiting(state).get("red") != "agenda"
    assert state["phase"] != "issues"



def test_under_reduced_negotiation_a_judicial_review_issue_goes_on_without_a_chief_justice() -> None:
    """Found by `pbem liveness founding-fathers --full` (issue 30): the President is asked for a
    Chief Justice before a judicial-review issue, but under reduced negotiation he appoints none
    ("the players draft the vacant offices; the President appoints none") and the committee
    leaves an office that only a holder moving could fill; the issue had no choice at all, and its
    deadline default crashed. Now it goes on without one, as when nobody is eligible."""
    from adjudicator.games.founding_fathers.offices import committee_due
    from adjudicator.games.founding_fathers.state import eligible_appointees

    state = _desk_after_four_issues()
    state["options"]["reduced_negotiation"] = True
    for sid in ("benjamin-franklin", "patrick-henry"):  # nobody without an office is left
        del state["statesmen"][sid]
    state["term"]["vacated"] = ["chief-justice"]  # a holder could move there
    state["flags"].append("judicial-review")
    state["issues"]["drawn"] = 0
    state["secret"]["issues"].remove("create-national-bank")
    state["secret"]["issues"].insert(0, "create-national-bank")  # judicial review applies to it
    assert not committee_due(state) and fillable_vacancies(state) == []
    assert eligible_appointees(state, "chief-justice")  # only holders, whom only the President could move
    state = apply_checked(GAME, state, {"red": GAME.parse_order("draw", GAME.prompts(state)["red"])}).state
    prompt = GAME.prompts(state)["red"]
    assert prompt.kind == "issue" and {"act": "ignore"} in prompt.choices
    assert {"act": "assign", "option": "resolve"} in prompt.choices
    assert GAME.default_order(state, "red") == {"act": "ignore"}
