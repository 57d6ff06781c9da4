"""Placement rounds, voting-order cards, year end and the end of the game."""

from __future__ import annotations

import pytest

from adjudicator.engine import IllegalOrder, canonical_json, defaults_for, scripted_state
from adjudicator.games.doge import GAME
from adjudicator.games.doge.data import AREAS
from adjudicator.games.doge.flowbase import FLOW
from adjudicator.games.doge.placement import marker_sets
from adjudicator.games.doge.scoring import end_check, qualifies
from tests.games.doge.helpers import board, fresh, kinds, play, waiting


def test_setup() -> None:
    state = fresh(3)
    assert GAME.seat_names(3, {}) == ["red", "blue", "green"]
    assert state["rounds"] == 4 and fresh(4)["rounds"] == 3
    assert sorted(state["voting"]["current"]) == sorted(AREAS)
    assert sorted(state["secret"]["hidden"]) == sorted(AREAS)
    assert state["voting"]["next"] == [] and state["voting"]["used"] == []
    prompts = GAME.prompts(state)
    assert set(prompts) == {"red", "blue", "green"}
    assert {p.group for p in prompts.values()} == {"year-1-round-1"}
    assert all(p.sealed and p.kind == "placement" for p in prompts.values())
    assert len(prompts["red"].choices) == 7 * 39
    assert GAME.outcome(state) is None
    with pytest.raises(IllegalOrder):
        GAME.setup("x", ["red", "blue"], {})


def test_same_seed_same_game() -> None:
    a, b = fresh(4, "seed-1"), fresh(4, "seed-1")
    assert canonical_json(a) == canonical_json(b)
    assert canonical_json(a) != canonical_json(fresh(4, "seed-2"))


def test_marker_sets() -> None:
    sets = marker_sets((3, 3, 2, 2, 1, 1, 0))
    assert len(sets) == 39 and (3, 1) in sets and (1, 3) not in sets and (3, 3, 3) not in sets
    assert marker_sets((2, 0)) == ((0,), (2,), (2, 0))


def test_placement_round_reveals_cards_not_values() -> None:
    state = fresh(4)
    orders = {
        "red": {"card": "san-marco", "markers": [3, 1]},
        "blue": {"card": "quarantia", "markers": [0]},
        "green": {"card": "san-marco", "markers": [3, 3, 2, 2]},
        "yellow": {"card": "castello", "markers": [2]},
    }
    state, events = play(state, orders)
    public = [e for e in events if e["audience"] is None]
    assert kinds(public) == ["cards-revealed"]
    assert public[0]["data"]["plays"]["red"] == {"card": "san-marco", "count": 2}
    assert "markers" not in canonical_json(public).decode()
    private = [e for e in events if e["audience"] == ["red"]]
    assert private[0]["data"]["markers"] == [3, 1]
    assert state["ballots"]["san-marco"] == {"red": 2, "green": 4}
    assert state["private"]["red"]["markers"] == [3, 2, 2, 1, 0]
    assert state["private"]["red"]["ballots"] == {"san-marco": [3, 1]}
    prompts = GAME.prompts(state)
    assert {p.group for p in prompts.values()} == {"year-1-round-2"}
    assert not any(c["card"] == "san-marco" for c in prompts["red"].choices)
    # Defaults (aims.py): one highest marker on an unused district, each seat starting its turn
    # order at its own district (red at index 0 + year 1, blue at 1 * 6 // 4 + year 1).
    assert GAME.default_order(state, "red") == {"card": "castello", "markers": [3]}
    assert GAME.default_order(state, "blue") == {"card": "dorsoduro", "markers": [3]}


def test_sitting_out_when_out_of_markers() -> None:
    state = fresh(4)
    others = {s: {"card": "cannaregio", "markers": [0]} for s in ("blue", "green", "yellow")}
    state, _ = play(state, {"red": {"card": "castello", "markers": [3, 3, 2, 2]}, **others})
    others = {s: {"card": "castello", "markers": [1]} for s in ("blue", "green", "yellow")}
    state, _ = play(state, {"red": {"card": "dorsoduro", "markers": [1, 1, 0]}, **others})
    assert set(GAME.prompts(state)) == {"blue", "green", "yellow"}
    with pytest.raises(IllegalOrder):
        GAME.default_order(state, "red")
    others = {s: {"card": "dorsoduro", "markers": [1]} for s in ("blue", "green", "yellow")}
    state, events = play(state, others)
    assert "placement-ended" in kinds(events)
    assert state["election"] is not None or state["year"] == 2 or "election" in kinds(events)


def test_everyone_out_of_markers_ends_placement_early() -> None:
    state = fresh(3)
    for first, second in (([3, 3, 2, 2], [1, 1, 0]),):
        state, _ = play(state, {s: {"card": "castello", "markers": first} for s in ("red", "blue", "green")})
        state, events = play(state, {s: {"card": "san-polo", "markers": second} for s in ("red", "blue", "green")})
    assert "placement-ended" in kinds(events)  # after 2 of the 4 rounds


def test_voting_order_cards_flow_and_reshuffle() -> None:
    state = fresh(4)
    first_year = list(state["voting"]["current"])
    hidden = list(state["secret"]["hidden"])
    # Nothing else draws during a year, so script the year-end reshuffle now: Fisher-Yates on 7
    # cards takes 6 draws, and 0 every time swaps the front card to the back step by step.
    state["secret"]["rng"] = scripted_state([0, 0, 0, 0, 0, 0])
    turned: list[str] = []
    while state["year"] == 1:
        voting = state["voting"]
        assert len(voting["current"]) + len(voting["next"]) == 7  # the next 7 are always known
        assert voting["used"] + voting["current"] == first_year
        assert voting["next"] == hidden[: len(voting["next"])]
        state, events = play(state, defaults_for(GAME, state))
        turned += [e["data"]["turned"] for e in events if e["kind"] == "voting-card-turned"]
    assert turned == hidden
    assert state["voting"]["current"] == hidden
    assert state["voting"]["next"] == [] and state["voting"]["used"] == []
    expected = list(first_year)
    for i in range(6, 0, -1):
        expected[i], expected[0] = expected[0], expected[i]
    assert state["secret"]["hidden"] == expected
    assert state["secret"]["rng"] == scripted_state([])


@pytest.mark.parametrize(
    "counts, expected",
    [
        ({"cannaregio": 1, "castello": 1, "dorsoduro": 1, "san-marco": 1, "san-polo": 1, "santa-croce": 1}, True),
        ({"cannaregio": 3, "castello": 1, "dorsoduro": 1, "san-marco": 1, "san-polo": 1}, True),
        ({"cannaregio": 2, "castello": 2, "dorsoduro": 1, "san-marco": 1, "san-polo": 0}, False),
        ({"cannaregio": 3, "castello": 2, "dorsoduro": 1, "san-marco": 1}, False),
        ({"cannaregio": 3, "castello": 3, "dorsoduro": 1, "san-marco": 1}, True),
        ({"cannaregio": 4, "castello": 3, "dorsoduro": 1}, False),
        ({"cannaregio": 2, "castello": 2, "dorsoduro": 2, "san-marco": 2, "san-polo": 0}, True),
    ],
)
def test_end_conditions(counts: dict[str, int], expected: bool) -> None:
    state = board(palaces={d: ["red"] * n for d, n in counts.items() if n})
    assert qualifies(state, "red") is expected
    result = end_check(state)
    assert (result is not None and result["reason"] == "doge") is expected


@pytest.mark.parametrize(
    "red, blue, red_houses, blue_houses, winners",
    [
        (6, 6, 3, 2, ["red"]),
        (6, 7, 9, 0, ["blue"]),
        (6, 6, 2, 2, ["red", "blue"]),
    ],
)
def test_end_tie_breaks(red: int, blue: int, red_houses: int, blue_houses: int, winners: list[str]) -> None:
    districts = ["cannaregio", "castello", "dorsoduro", "san-marco", "san-polo", "santa-croce"]
    palaces = {d: ["red", "blue"] for d in districts}
    if blue == 7:
        palaces["cannaregio"].append("blue")
    houses = {"castello": {"red": red_houses, "blue": blue_houses}}
    state = board(palaces=palaces, houses=houses, players=3)
    result = end_check(state)
    assert result["qualifiers"] == ["red", "blue"] and result["winners"] == winners
    state["result"] = result
    outcome = GAME.outcome(state)
    assert outcome.winners == winners and outcome.scores == {"red": red, "blue": blue, "green": 0}


def test_game_ends_only_at_year_end() -> None:
    districts = ["cannaregio", "castello", "dorsoduro", "san-marco", "san-polo", "santa-croce"]
    state = board(palaces={d: ["red"] for d in districts})
    assert GAME.prompts(state) and GAME.outcome(state) is None  # mid-year: the game goes on
    state["flow"] = [{"node": "year-end", "args": {}}]
    events: list = []
    FLOW.settle(state, events)
    assert GAME.prompts(state) == {}
    outcome = GAME.outcome(state)
    assert outcome.winners == ["red"] and outcome.scores["red"] == 6
    assert kinds(events) == ["year-ended", "game-ended"]
    with pytest.raises(IllegalOrder):
        GAME.apply(state, {"red": {"build": True}})


def test_year_limit_safety_end_when_the_option_is_set() -> None:
    state = board(palaces={"castello": ["blue"]}, houses={"castello": {"red": 2}})
    state["options"]["max_years"] = 30
    state["year"] = 30
    state["flow"] = [{"node": "year-end", "args": {}}]
    FLOW.settle(state, [])
    assert state["result"]["reason"] == "year-limit" and state["result"]["winners"] == ["blue"]
    assert "safety" in GAME.outcome(state).summary


def test_no_year_limit_by_default() -> None:
    # The rulebook ends the game only with a Doge ("El juego termina cuando al menos un jugador
    # tiene ..."); the year limit is an option that is off unless the creator sets it.
    state = board(palaces={"castello": ["blue"]}, houses={"castello": {"red": 2}})
    assert state["options"] == {"max_years": 0}
    state["year"] = 500
    state["flow"] = [{"node": "year-end", "args": {}}]
    FLOW.settle(state, [])
    assert state["result"] is None and state["year"] == 501


def test_dead_board_without_qualifier() -> None:
    # Every space full, nobody meets a condition (4 players, palace spread kept to 3 districts each).
    owners = {
        "cannaregio": ["red", "red", "red", "blue", "blue"],
        "castello": ["red", "red", "red", "blue", "blue"],
        "dorsoduro": ["red", "red", "blue", "blue", "blue"],
        "san-marco": ["green", "green", "green", "yellow", "yellow"],
        "san-polo": ["green", "green", "green", "yellow", "yellow"],
        "santa-croce": ["green", "green", "yellow", "yellow", "yellow"],
    }
    state = board(palaces=owners, houses={"castello": {"green": 1}})
    assert not any(qualifies(state, s) for s in state["seats"])
    state["flow"] = [{"node": "year-end", "args": {}}]
    FLOW.settle(state, [])
    assert state["result"]["reason"] == "no-palace-possible"
    assert state["result"]["winners"] == ["green"]  # 8 palaces like red, but one house more


def test_waiting_helper_matches_prompts() -> None:
    state = fresh(3)
    assert waiting(state) == {s: "placement" for s in ("red", "blue", "green")}
