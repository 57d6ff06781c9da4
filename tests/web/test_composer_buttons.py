"""A composer step with few parts is one button each (one click, scripts or not), and few long
parts that split into few parts again are offered a level deeper at once: issue 25's target of at
most 3 interactions per decision (a part, an order in the list, send)."""

from __future__ import annotations

from web.composer import SHORT_LIST, STEP_BUTTONS, compose

OFFICES = ["secretary-of-state", "secretary-of-war", "chief-justice", "special-envoy", "general", "treasury"]
AGENDA = [(str(i), f"appoint {office} person-{n}") for i, (office, n) in
          enumerate((o, n) for o in OFFICES for n in range(14))] + [("d", "draw"), ("t", "trade")]


def test_few_long_parts_are_split_a_level_deeper_at_once():
    assert len(AGENDA) > SHORT_LIST
    composer = compose(AGENDA)
    labels = [step.label for step in composer.steps]
    assert labels == [f"appoint {office}" for office in OFFICES] + ["draw", "trade"]
    assert len(labels) <= STEP_BUTTONS
    picked = compose(AGENDA, "appoint special-envoy")
    assert picked.picked == ["appoint", "special-envoy"] and len(picked.final) == 14


def test_parts_that_would_be_too_many_buttons_stay_one_level():
    many = [(f"{v}{n}", f"campaign state-{n} {v}") for n in range(30) for v in (1, 2, 3)] + [("a", "advertise")]
    composer = compose(many)
    assert [step.label for step in composer.steps] == ["campaign", "advertise"]
    assert [step.label for step in compose(many, "campaign").steps][:2] == ["state-0", "state-1"]
