"""Issue 14: the houses an election brings are a right (winner, tied winners, runners-up), and
the deadline defaults aim at a Doge."""

from __future__ import annotations

from adjudicator.engine import Prompt, apply_checked
from adjudicator.games.doge import GAME
from adjudicator.games.doge.aims import district_winner_move, helpful_move, wants_palace
from adjudicator.games.doge.grammar import format_order, parse_order
from tests.games.doge.helpers import board, election, kinds, play, take_houses, waiting


def test_the_district_winner_may_decline_his_two_houses() -> None:
    # Rulebook, district elections: "Luego puede colocar 2 casas de su suministro en este
    # distrito" - he *may* place them; the runner-up then decides on his own 1.
    state = board()
    state, _ = election(state, "castello", {"red": [3], "blue": [1]})
    choices = GAME.prompts(state)["red"].choices
    assert {"take": "quarantia"} in choices and {"take": "quarantia", "houses": False} in choices
    assert {"abstain": True, "houses": False} in choices
    state, events = take_houses(*play(state, {"red": {"take": "quarantia", "houses": False}}))
    assert state["districts"]["castello"]["houses"] == {"blue": 1}
    assert state["supply"]["red"]["houses"] == 15
    assert [e["data"] for e in events if e["kind"] == "houses-declined"] == [
        {"seat": "red", "area": "castello", "count": 2}]
    assert state["advisors"]["adv-castello"] == {"home": "castello", "at": "quarantia", "owner": "red"}


def test_declining_houses_after_an_abstention_keeps_the_move() -> None:
    state = board(houses={"san-marco": {"red": 2}})
    state, _ = election(state, "castello", {"red": [3]})
    order = {"abstain": True, "move": ["san-marco", "castello"], "houses": False}
    state, events = play(state, {"red": order})
    assert state["districts"]["castello"]["houses"] == {"red": 1}
    assert state["districts"]["san-marco"]["houses"] == {"red": 1}
    assert "houses-declined" in kinds(events)
    assert [e for e in events if e["kind"] == "houses-placed" and e["data"]["seat"] == "red"] == []


def test_the_runner_up_may_decline_his_house() -> None:
    # "El subcampeón ahora puede colocar 1 casa de su reserva en este distrito": a right, asked
    # after the winner's decision, open (he alone decides), placing by default.
    state = board()
    state, _ = election(state, "castello", {"red": [3], "blue": [1]})
    state, _ = play(state, {"red": {"take": "quarantia"}})
    prompt = GAME.prompts(state)["blue"]
    assert (prompt.kind, prompt.sealed, prompt.choices) == ("place-houses", False,
                                                            [{"houses": True}, {"houses": False}])
    assert GAME.default_order(state, "blue") == {"houses": True}
    state, events = play(state, {"blue": {"houses": False}})
    assert state["districts"]["castello"]["houses"] == {"red": 2}
    assert state["supply"]["blue"]["houses"] == 15
    assert [e["data"] for e in events if e["kind"] == "houses-declined"] == [
        {"seat": "blue", "area": "castello", "count": 1}]
    assert waiting(state) != {"blue": "place-houses"}


def test_players_tied_for_first_each_decide_on_their_two_houses_together() -> None:
    # "Cada uno de los jugadores empatados puede colocar 2 casas de sus suministros en el
    # distrito": each tied winner decides, in one sealed group (they place at the same time).
    state = board(houses={"dorsoduro": {"red": 1, "blue": 1}})
    state, _ = election(state, "dorsoduro", {"red": [3], "blue": [2, 1], "green": [1]})
    prompts = GAME.prompts(state)
    assert {s: p.kind for s, p in prompts.items()} == {"red": "place-houses", "blue": "place-houses"}
    assert all(p.sealed for p in prompts.values()) and len({p.group for p in prompts.values()}) == 1
    state, events = play(state, {"red": {"houses": True}, "blue": {"houses": False}})
    assert state["districts"]["dorsoduro"]["houses"] == {"red": 3, "blue": 1}
    assert waiting(state) == {"red": "build"}  # only the placer's 3 houses bring a palace offer
    assert [e["data"]["seat"] for e in events if e["kind"] == "houses-declined"] == ["blue"]


def test_players_tied_for_second_each_decide_on_their_house() -> None:
    # "Si hay un solo ganador, pero dos o más jugadores empatan en el segundo lugar, cada jugador
    # empatado puede colocar 1 casa de su reserva en el distrito."
    state = board()
    state, _ = election(state, "santa-croce", {"red": [3], "blue": [1], "green": [1]})
    state, _ = play(state, {"red": {"abstain": True}})
    prompts = GAME.prompts(state)
    assert set(prompts) == {"blue", "green"} and all(p.sealed for p in prompts.values())
    state, events = play(state, {"blue": {"houses": False}, "green": {"houses": True}})
    assert state["districts"]["santa-croce"]["houses"] == {"red": 2, "green": 1}


def test_a_placer_without_houses_in_supply_is_not_asked_and_loses_the_placement() -> None:
    # "Cuando un jugador tiene la oportunidad de colocar una casa pero no tiene más casas en su
    # oferta, debe abstenerse de colocar la casa y, por lo tanto, pierde la oportunidad."
    state = board(supply_houses={"blue": 0})
    state, _ = election(state, "castello", {"red": [3], "blue": [1]})
    state, events = play(state, {"red": {"take": "quarantia"}})
    assert "blue" not in GAME.prompts(state)
    assert {"seat": "blue", "area": "castello", "count": 0, "lost": 1} in [
        e["data"] for e in events if e["kind"] == "houses-placed"]


def test_a_rules_version_2_game_places_the_runner_ups_houses_unasked() -> None:
    # Games and records of version 2 keep their prompts: the runner-up was never asked there.
    state = board()
    state["rules_version"] = "2"
    state, _ = election(state, "castello", {"red": [3], "blue": [1]})
    state, events = play(state, {"red": {"take": "quarantia"}})
    assert "place-houses" not in waiting(state).values()
    assert state["districts"]["castello"]["houses"] == {"red": 2, "blue": 1}


def test_the_place_houses_grammar_round_trips() -> None:
    state = board()
    state, _ = election(state, "castello", {"red": [3], "blue": [1]})
    state, _ = play(state, {"red": {"take": "quarantia"}})
    prompt: Prompt = GAME.prompts(state)["blue"]
    for order in prompt.choices:
        assert parse_order(format_order(order), prompt) == order
    assert parse_order("Place houses", prompt) == {"houses": True}
    assert parse_order("no house", prompt) == {"houses": False}
    assert parse_order("skip", prompt) == {"houses": False}


def test_placing_the_houses_is_the_default_and_the_plain_orders_keep_their_meaning() -> None:
    state = board()
    state, _ = election(state, "castello", {"red": [3]})
    assert GAME.default_order(state, "red").get("houses", True) is True
    state, _ = play(state, {"red": {"take": "quarantia"}})
    assert state["districts"]["castello"]["houses"] == {"red": 2}


def test_no_houses_is_not_offered_without_houses_in_supply() -> None:
    state = board(supply_houses={"red": 0})
    state, _ = election(state, "castello", {"red": [3]})
    assert not any(c.get("houses") is False for c in GAME.prompts(state)["red"].choices)


def test_the_no_houses_grammar_round_trips() -> None:
    state = board(houses={"san-marco": {"red": 2}})
    state, _ = election(state, "castello", {"red": [3]})
    prompt: Prompt = GAME.prompts(state)["red"]
    for order in prompt.choices:
        assert parse_order(format_order(order), prompt) == order
    assert parse_order("abstain, no houses", prompt) == {"abstain": True, "houses": False}
    assert parse_order("Take Dorsoduro without houses", prompt) == {"take": "dorsoduro", "houses": False}


def test_default_placement_aims_at_a_district_without_a_palace_with_the_highest_marker() -> None:
    # red already has palaces in every district but santa-croce: the default goes there, with a 3.
    palaces = {d: ["red"] for d in ["cannaregio", "castello", "dorsoduro", "san-marco", "san-polo"]}
    state = board(palaces=palaces)
    assert waiting(state)["red"] == "placement"
    assert GAME.default_order(state, "red") == {"card": "santa-croce", "markers": [3]}


def test_default_placement_on_a_district_it_needs_no_more_uses_the_lowest_marker_that_counts() -> None:
    palaces = {d: ["red"] for d in ["cannaregio", "castello", "dorsoduro", "san-marco", "san-polo", "santa-croce"]}
    state = board(palaces=palaces)
    # every district is done for red (it is Doge at the year end); the default keeps its strong markers
    assert GAME.default_order(state, "red")["markers"] == [1]


def test_default_abstention_brings_back_a_house_that_no_longer_helps() -> None:
    # red has a palace in san-marco and 2 houses left there; winning castello (no red palace) the
    # default abstains and moves one of them into castello.
    state = board(palaces={"san-marco": ["red"]}, houses={"san-marco": {"red": 2}})
    assert wants_palace(state, "red", "castello") and not wants_palace(state, "red", "san-marco")
    state, _ = election(state, "castello", {"red": [3]})
    assert GAME.default_order(state, "red") == {"abstain": True, "move": ["san-marco", "castello"]}
    step = apply_checked(GAME, state, {"red": GAME.default_order(state, "red")})
    assert step.state["districts"]["castello"]["houses"] == {"red": 3}  # 1 moved + 2 placed


def test_default_abstention_in_a_district_it_needs_no_more_moves_a_house_out() -> None:
    state = board(palaces={"castello": ["red"]}, houses={"castello": {"red": 1}, "dorsoduro": {"red": 2}})
    assert district_winner_move(state, "red", "castello") == ["castello", "dorsoduro"]


def test_no_helpful_move_without_a_spare_house() -> None:
    state = board(houses={"castello": {"red": 2}})
    assert helpful_move(state, "red", ["dorsoduro"]) is None
