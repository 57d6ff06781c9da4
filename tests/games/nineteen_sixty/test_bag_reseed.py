"""Reseeding the Political Capital bag the moment it runs out (issue 14).

"Si la Bolsa de Capital Política se agota en cubos en cualquier momento antes de la fase de
Estrategia de Campaña el Día de las Elecciones al final del juego, se debe volver a sembrar con
doce cubos de cada jugador." and, at the strategy step: "Nota: Si la bolsa de capital político se
queda sin cubos en este punto, no se vuelve a llenar."
"""

from __future__ import annotations

from adjudicator.engine import apply_checked
from adjudicator.games.nineteen_sixty import GAME
from adjudicator.games.nineteen_sixty.board import initiative_check, support_check
from adjudicator.games.nineteen_sixty.data import CARDS, SEATS
from adjudicator.games.nineteen_sixty.flowbase import FLOW

from .helpers import act, clear_board, cubes, give, script, start

K, X = SEATS  # kennedy, nixon


def _bag(state: dict, kennedy: int, nixon: int) -> dict:
    """Set the bag, the difference going to (or coming from) the supplies so cubes are conserved."""
    for seat, n in ((K, kennedy), (X, nixon)):
        state["supply"][seat] += state["bag"][seat] - n
        state["bag"][seat] = n
    return state


def test_the_check_that_takes_the_last_cube_reseeds_the_bag_at_once() -> None:
    s = script(_bag(start(), 1, 0), 0)
    supply = dict(s["supply"])
    events: list = []
    assert support_check(s, K, "states", "NY", events)
    assert s["bag"] == {K: 12, X: 12}  # reseeded now, not at the next draw
    assert s["supply"] == {K: supply[K] - 12, X: supply[X] - 12}
    assert [e["kind"] for e in events] == ["reseed", "check", "cube"]  # reseeded inside the draw
    assert GAME.invariants(s) == []


def test_a_bag_emptied_before_the_rest_cubes_go_in_is_still_reseeded() -> None:
    # The end of a turn puts the rest cubes in: the reseed has already happened, so the bag
    # holds 12 + 12 plus the rest cubes (before the fix: the rest cubes alone).
    s = script(_bag(start(), 0, 1), 0)
    s["rest"] = {K: 2, X: 3}
    s["supply"][K] -= 2
    s["supply"][X] -= 3
    assert not support_check(s, K, "states", "NY", [])  # Nixon's last cube
    FLOW.nodes["strategy"].finish(s, [])
    assert s["bag"] == {K: 14, X: 15}
    assert GAME.invariants(s) == []


def test_an_initiative_check_that_empties_the_bag_on_election_day_leaves_the_strategy_checks_a_bag() -> None:
    s = clear_board(start())
    s["momentum"] = {K: 0, X: 0}  # no media or issue cubes and no momentum: no bonus cubes
    s = _bag(s, 2, 0)
    card = next(c for c in sorted(CARDS) if c in s["secret"]["deck"] and CARDS[c].state)
    s["secret"]["deck"].remove(card)
    s["private"][K]["strategy"] = [card]
    s["private"][X]["strategy"] = []
    s = script(s, 0, 0, 0, 5, 21)  # initiative K K (the last two cubes), then K K N from 12 + 12
    events: list = []
    FLOW.nodes["election"].advance(s, {}, events)
    kinds = [e["kind"] for e in events]
    assert kinds.index("initiative") > kinds.index("reseed")
    assert "bag_empty" not in kinds
    assert s["initiative"] == K and s["reseed"] is False
    assert cubes(s, CARDS[card].state) == {K: 2, X: 0}
    assert s["bag"] == {K: 10, X: 11}


def test_after_the_strategy_step_began_an_empty_bag_stays_empty() -> None:
    s = script(_bag(start(), 1, 0), 0)
    s["reseed"] = False
    events: list = []
    assert support_check(s, K, "states", "NY", events)
    assert s["bag"] == {K: 0, X: 0}
    assert not support_check(s, K, "states", "NY", events)
    assert [e["kind"] for e in events][-2:] == ["bag_empty", "check"]


def test_an_initiative_check_during_the_turns_reseeds_as_it_empties_the_bag() -> None:
    s = script(_bag(start(), 1, 1), 0, 0, 0)  # K, then N empties the bag: reseed, then K
    events: list = []
    assert initiative_check(s, events) == K
    assert [e["kind"] for e in events] == ["reseed", "initiative"]
    assert s["bag"] == {K: 11, X: 12}
    assert GAME.invariants(s) == []


def _campaign_with_one_cube_left() -> dict:
    """Kennedy campaigns in Wyoming (Nixon carries it: checks) with 1 Kennedy cube left in the bag;
    the state names no rules version, as those of gmt-2017-1 and gmt-2017-2 did."""
    s = clear_board(start())
    s["states"]["WY"][X] = 5
    s["supply"][X] -= 5
    s["tokens"][K] = "CO"
    s = act(give(s, K, 3), K, {"play": 3, "as": "cp"})
    s = script(_bag(s, 1, 0), 0)
    del s["rules_version"]
    return s


def test_a_gmt_2017_1_record_reseeds_only_at_the_next_draw() -> None:
    """Records of gmt-2017-1 replay by that version's bag (versions.py): its states do not name
    the version, so the game bound to it (`for_rules`) names it to the rules during each step."""
    s = _campaign_with_one_cube_left()
    old = apply_checked(GAME.for_rules("gmt-2017-1"), s, {K: {"campaign": "WY", "n": 1}}).state
    assert old["bag"] == {K: 0, X: 0} and "rules_version" not in old
    later = apply_checked(GAME.for_rules("gmt-2017-2"), s, {K: {"campaign": "WY", "n": 1}}).state
    assert later["bag"] == {K: 12, X: 12} and "rules_version" not in later
    assert GAME.invariants(old) == [] and GAME.invariants(later) == []
