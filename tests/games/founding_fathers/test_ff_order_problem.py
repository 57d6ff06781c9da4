"""`order_problem`: a standing order line is refused at entry only when it is no Founding Fathers order.

Issue 10: "A line that cannot be an order of this game at all is refused at entry with the game's
usual help." It must never refuse a line that `parse_order` reads for some decision: it reads a
line's words as a whole choice, as the start of one, or as one without its first word."""

from __future__ import annotations

import pytest

from adjudicator.games.founding_fathers import GAME
from adjudicator.games.founding_fathers.data import deck
from tests.support.order_lines import collect, refused

OFFICE_SHORT = {"secretary-of-state": "sos", "vice-president": "vp", "chief-justice": "cj",
                "secretary-of-the-treasury": "treasury", "special-envoy": "envoy"}


def _variants(text: str, order: dict) -> list[str]:
    words = text.split()
    out = [" ".join(words[1:]), " ".join(words[:1]), " ".join(words[:2]), f"please {text}"]
    d = deck()
    for word in words:
        if word in d.statesmen:  # a statesman by his printed name or his surname
            name = d.statesmen[word]["name"]
            out += [text.replace(word, name), text.replace(word, name.split()[-1])]
        if word in OFFICE_SHORT:
            out += [text.replace(word, OFFICE_SHORT[word]), text.replace(word, word.replace("-", " "))]
        if word.upper() in d.states:
            out += [text.replace(word, d.states[word.upper()]["name"])]
    if order.get("act") == "with":
        out += [f"trade with the {order['seat']}"]
    return out


@pytest.fixture(scope="module")
def lines():
    return collect("founding-fathers", [f"order-problem-{n}" for n in range(3)], _variants,
                   variant_choices=1, variant_rate=0.2)


def test_every_legal_choice_met_in_random_games_is_not_refused(lines) -> None:
    assert len(lines.kinds) >= 10, lines.kinds
    refused_lines = {t: GAME.order_problem(t) for t in lines.canonical if GAME.order_problem(t)}
    assert not refused_lines


def test_forgiving_variants_that_parse_are_not_refused(lines) -> None:
    assert len(lines.variants) > 50  # names, surnames, office short names, verbs left out: read
    refused_lines = {t: GAME.order_problem(t) for t in lines.variants if GAME.order_problem(t)}
    assert not refused_lines


@pytest.mark.parametrize("text", ["Vote YES buy 2", "appoint sos jefferson", "jefferson", "2", "for 1 cards",
                                  "trade with blue", "rule tension -1", "lift 1 0 0", "blue", "defer"])
def test_documented_and_short_forms_are_accepted(text: str) -> None:
    assert GAME.order_problem(text) is None


def test_lines_that_are_no_order_are_refused_with_what_orders_look_like() -> None:
    for line, problem in refused(GAME).items():
        assert problem, line
    assert "draw" in (GAME.order_problem("hello") or "")
    assert GAME.order_problem("campaign new york 2")  # another game's order
