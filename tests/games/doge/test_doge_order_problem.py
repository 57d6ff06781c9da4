"""`order_problem`: a standing order line is refused at entry only when it is no Doge order at all.

Issue 10: "A line that cannot be an order of this game at all is refused at entry with the game's
usual help." It must never refuse a line that `parse_order` reads for some decision."""

from __future__ import annotations

import pytest

from adjudicator.games.doge import GAME
from tests.support.order_lines import collect, refused


def _variants(text: str, order: dict) -> list[str]:
    words = text.split()
    out = [" ".join(words[1:])]  # the documented bare forms: `san-marco 3 1`, `dorsoduro`, `castello to san-marco`
    if "card" in order:
        out += [text.replace("place ", "play ", 1), text.replace("-", " ")]
    if "take" in order:
        out += [f"take {order['take'][:4]}", f"send advisor to {order['take']}"]
    if "move" in order and order.get("move"):
        out += [text.replace(" to ", " -> "), text.replace(" to ", " > ")]
    if "pass" in order:
        out += ["no move", "stay", "none"]
    if "build" in order:
        out += ["yes", "y", "build it"] if order["build"] else ["no", "decline", "don't build"]
    return out


@pytest.fixture(scope="module")
def lines():
    return collect("doge", [f"order-problem-{n}" for n in range(3)], _variants)


def test_every_legal_choice_met_in_random_games_is_not_refused(lines) -> None:
    assert lines.kinds >= {"placement", "district-advisor", "build", "place-houses"}, lines.kinds
    refused_lines = {t: GAME.order_problem(t) for t in lines.canonical if GAME.order_problem(t)}
    assert not refused_lines


def test_forgiving_variants_that_parse_are_not_refused(lines) -> None:
    assert len(lines.variants) > 50  # bare placements, synonyms, other case: the variants must be read
    refused_lines = {t: GAME.order_problem(t) for t in lines.variants if GAME.order_problem(t)}
    assert not refused_lines


@pytest.mark.parametrize("text", ["San Marco 3 1", "dors", "abstain", "stay", "yes", "castello > san polo"])
def test_documented_short_forms_are_accepted(text: str) -> None:
    assert GAME.order_problem(text) is None


def test_lines_that_are_no_order_are_refused_with_what_orders_look_like() -> None:
    for line, problem in refused(GAME).items():
        assert problem and "place san-marco 3 1" in problem, line
    assert GAME.order_problem("play 23 cp")  # another game's order
