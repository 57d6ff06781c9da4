"""`order_problem`: a standing order line is refused at entry only when it is no 1960 order at all.

Issue 10: "A line that cannot be an order of this game at all is refused at entry with the game's
usual help." It must never refuse a line that `parse_order` reads for some decision."""

from __future__ import annotations

import pytest

from adjudicator.games.nineteen_sixty import GAME
from tests.support.order_lines import collect, refused

ISSUE_SHORT = {"Economy": "econ", "Civil Rights": "cr", "Defense": "defence"}
SEAT_SHORT = {"kennedy": "jfk", "nixon": "n"}


def _variants(text: str, order: dict) -> list[str]:
    out = [text.replace(" ", ", ", 1), text + "."]
    for key in ("campaign", "support", "remove", "travel", "state"):
        if key in order:  # postal codes; a count of 1 may be left out
            n = f" {order['n']}" if "n" in order else ""
            out += [f"{key} {order[key]}{n}", f"{key} {order[key].lower()}"]
    if isinstance(order.get("play"), int):
        out += [text.replace("play ", "play #").replace(" cp", " ops")]
    if "advertise" in order:
        out += ["advertising"]
    if "done" in order:
        out += ["stop", "end"]
    for key in ("first", "side"):
        if key in order:
            out += [f"{key} {SEAT_SHORT[order[key]]}"]
    if "position" in order:
        out += [f"position {ISSUE_SHORT[order['position']]} {order['n']}"]
    if "issue" in order:
        out += [f"issue {ISSUE_SHORT[order['issue']]}"]
    if order.get("shift") == 0 or order.get("strategy") == []:
        out += [text.split()[0]]
    return out


@pytest.fixture(scope="module")
def lines():
    return collect("1960", [f"order-problem-{n}" for n in range(2)], _variants)


def test_every_legal_choice_met_in_random_games_is_not_refused(lines) -> None:
    assert len(lines.kinds) >= 6, lines.kinds
    refused_lines = {t: GAME.order_problem(t) for t in lines.canonical if GAME.order_problem(t)}
    assert not refused_lines


def test_forgiving_variants_that_parse_are_not_refused(lines) -> None:
    assert len(lines.variants) > 50  # postal codes, short issue names, synonyms, '#', commas: read
    refused_lines = {t: GAME.order_problem(t) for t in lines.variants if GAME.order_problem(t)}
    assert not refused_lines


@pytest.mark.parametrize("text", ["play #23 CP preempt", "campaign NY 2", "advertising", "no trigger",
                                  "track defense, economy, civil rights", "play 39 cp discard 12"])
def test_documented_forms_are_accepted(text: str) -> None:
    assert GAME.order_problem(text) is None


def test_lines_that_are_no_order_are_refused_with_what_orders_look_like() -> None:
    for line, problem in refused(GAME).items():
        assert problem, line
    assert "campaign" in (GAME.order_problem("hello") or "")
    assert "no state called" in (GAME.order_problem("campaign atlantis 2") or "")
    assert GAME.order_problem("place san-marco 3 1")  # another game's order
