"""`order_problem`: a standing order line is refused at entry only when it is no China order at all.

Issue 10: "A line that cannot be an order of this game at all is refused at entry with the game's
usual help." It must never refuse a line that `parse_order` reads for some decision."""

from __future__ import annotations

from collections import Counter

import pytest

from adjudicator.games.china import GAME
from adjudicator.games.china.grammar import region_names
from tests.support.order_lines import collect, refused


def _variants(text: str, order: dict) -> list[str]:
    out = []
    if "play" in order:
        cards = " ".join(f"{n} {c}" for c, n in Counter(order["play"]).items())
        pieces = " and ".join(f"{n} {p}s" for p, n in Counter(order["pieces"]).items())
        name = region_names().get(order["region"], order["region"])
        out += [f"{cards} in {order['region']}: {pieces}", text.replace("play ", "", 1),
                f"play {cards} to {name[:4]} with {pieces}"]
    if "exchange" in order:
        out += [f"swap {order['exchange']} for {order['take']}", f"discard {order['exchange'][:3]} and draw the deck"
                if order["take"] == "deck" else f"trade {order['exchange']} take {order['take']}"]
    if "pass" in order:
        out += ["pass turn"]
    if "space" in order:
        region, _, number = order["space"].rpartition("-")
        out += [number, f"place {order['space']}", f"house at {region_names().get(region, region)} {number}"]
    if "draw" in order:
        out += [order["draw"], f"take {order['draw']}", f"draw the {order['draw'][:3]}"]
        out += ["draw", "top of deck"] if order["draw"] == "deck" else []
    return out


@pytest.fixture(scope="module")
def lines():
    return collect("china", [f"order-problem-{n}" for n in range(4)], _variants)


def test_every_legal_choice_met_in_random_games_is_not_refused(lines) -> None:
    assert lines.kinds >= {"turn", "space", "draw"}, lines.kinds
    refused_lines = {t: GAME.order_problem(t) for t in lines.canonical if GAME.order_problem(t)}
    assert not refused_lines


def test_forgiving_variants_that_parse_are_not_refused(lines) -> None:
    assert len(lines.variants) > 50  # counts, region ids and prefixes, bare numbers, synonyms: read
    refused_lines = {t: GAME.order_problem(t) for t in lines.variants if GAME.order_problem(t)}
    assert not refused_lines


@pytest.mark.parametrize("text", ["play 2 red to ch'in: 2 houses", "exchange violet for deck", "3", "draw",
                                  "space somewhere", "green", "play red to Nowhere: house"])
def test_documented_and_installed_board_forms_are_accepted(text: str) -> None:
    # an installed board may name its regions and spaces freely, so those are not judged here
    assert GAME.order_problem(text) is None


def test_lines_that_are_no_order_are_refused_with_what_orders_look_like() -> None:
    for line, problem in refused(GAME).items():
        assert problem, line
    assert "exchange red for deck" in (GAME.order_problem("hello") or "")
    assert GAME.order_problem("play 23 cp")  # another game's order
    assert GAME.order_problem("exchange blue for deck")  # no blue cards
    assert GAME.order_problem("play red to wei: soldier")  # no such piece
