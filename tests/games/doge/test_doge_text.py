"""The order grammar, the renderers and the views."""

from __future__ import annotations

import random

import pytest

from adjudicator.engine import IllegalOrder, Prompt, apply_checked, canonical_json
from adjudicator.games.doge import GAME
from tests.games.doge.helpers import board, election, fresh, play


def placement_prompt() -> Prompt:
    return GAME.prompts(fresh(4))["red"]


@pytest.mark.parametrize(
    "text",
    [
        "place san-marco 3 1",
        "place san marco 3 1",
        "San Marco 3 1",
        "  PLACE   San-Marco   1 3 ",
        "place san m 3,1",
        "san-marco 31",
        "play san marco with 3+1",
        "place sanmarco: 3 1",
    ],
)
def test_placement_spellings(text: str) -> None:
    assert GAME.parse_order(text, placement_prompt()) == {"card": "san-marco", "markers": [3, 1]}


@pytest.mark.parametrize(
    "text, needle",
    [
        ("place venice 3", "not an area"),
        ("place san 3", "could mean"),
        ("place castello", "which markers"),
        ("place castello 3 3 3", "not a legal placement"),
        ("place castello 3 2 1 1 0", "not a legal placement"),
        ("place castello 5", "not a legal placement"),
        ("place castello three", "which markers"),
    ],
)
def test_placement_errors_help(text: str, needle: str) -> None:
    with pytest.raises(IllegalOrder) as err:
        GAME.parse_order(text, placement_prompt())
    message = str(err.value)
    assert needle in message and "for example: place " in message


def test_other_kinds_parse() -> None:
    state = board(houses={"castello": {"red": 1}, "san-marco": {"red": 2}})
    state, _ = election(state, "castello", {"red": [3]})
    prompt = GAME.prompts(state)["red"]
    assert GAME.parse_order("take Santa Croce", prompt) == {"take": "santa-croce"}
    assert GAME.parse_order("advisor to quar", prompt) == {"take": "quarantia"}
    assert GAME.parse_order("abstain", prompt) == {"abstain": True}
    expected = {"abstain": True, "move": ["castello", "san-marco"]}
    assert GAME.parse_order("abstain and move castello to san marco", prompt) == expected
    assert GAME.parse_order("Abstain move from castello -> san-marco", prompt) == expected
    assert GAME.parse_order("abstain castello san marco", prompt) == expected
    with pytest.raises(IllegalOrder, match="not a legal"):
        GAME.parse_order("take castello", prompt)
    with pytest.raises(IllegalOrder, match="for example"):
        GAME.parse_order("abstain move dorsoduro to cannaregio", prompt)
    state, _ = play(state, {"red": {"abstain": True, "move": ["castello", "san-marco"]}})
    build = GAME.prompts(state)["red"]
    assert build.kind == "build"
    assert GAME.parse_order("Build", build) == {"build": True}
    assert GAME.parse_order("no", build) == {"build": False}
    assert GAME.parse_order("do not build", build) == {"build": False}


def test_house_move_parse() -> None:
    state = board(houses={"castello": {"red": 2}})
    state, _ = election(state, "quarantia", {"red": [3], "blue": [3]})
    prompt = GAME.prompts(state)["red"]
    assert prompt.kind == "house-move"
    assert GAME.parse_order("pass", prompt) == {"pass": True}
    assert GAME.parse_order("move castello to santa croce", prompt) == {"move": ["castello", "santa-croce"]}
    with pytest.raises(IllegalOrder):
        GAME.parse_order("move dorsoduro to castello", prompt)


def random_prompts(games: int, seed: int):
    """Yield (state, prompt) pairs met along random games."""
    rnd = random.Random(seed)
    for g in range(games):
        state = GAME.setup(f"text-{seed}-{g}", ["red", "blue", "green", "yellow"][: rnd.choice([3, 4])], {}).state
        while prompts := GAME.prompts(state):
            seat = rnd.choice(sorted(prompts))
            yield state, prompts[seat]
            prompt = prompts[seat]
            if prompt.sealed:
                orders = {s: rnd.choice(p.choices) for s, p in prompts.items() if p.group == prompt.group}
            else:
                orders = {seat: rnd.choice(prompt.choices)}
            state = apply_checked(GAME, state, orders).state


def test_round_trip_every_choice() -> None:
    seen: set[str] = set()
    for count, (_, prompt) in enumerate(random_prompts(4, 7)):
        if prompt.kind == "placement" and count % 10:
            continue  # placement prompts are large; every tenth is enough
        seen.add(prompt.kind)
        for choice in prompt.choices:
            text = GAME.format_order(choice)
            assert GAME.parse_order(text, prompt) == choice, text
            assert GAME.parse_order(text.upper().replace("-", " "), prompt) == choice, text
    assert seen >= {"placement", "district-advisor", "quarantia-advisor", "build", "place-houses"}


def test_views_never_leak_marker_values() -> None:
    for state, prompt in random_prompts(3, 11):
        for viewer in [None, *state["seats"]]:
            view = GAME.view(state, viewer)
            assert "secret" not in view
            assert set(view["private"]) == ({viewer} if viewer else set())
            assert set(view) - {"private"} == set(state) - {"secret", "private"}
            text = GAME.render_view(view, viewer)
            assert "Doge - year" in text
            if viewer:
                assert f"Your markers ({viewer})" in text
        # the public part of the state never carries marker values
        assert "markers" not in canonical_json(state["ballots"]).decode()
        if prompt.kind != "placement":
            break


def test_public_events_hide_values_until_the_vote() -> None:
    rnd = random.Random(3)
    state = GAME.setup("events", ["red", "blue", "green"], {}).state
    revealed: set[str] = set()
    while prompts := GAME.prompts(state):
        seat = sorted(prompts)[0]
        prompt = prompts[seat]
        group = [s for s, p in prompts.items() if p.sealed and p.group == prompt.group] or [seat]
        step = apply_checked(GAME, state, {s: rnd.choice(prompts[s].choices) for s in group})
        for ev in step.events:
            assert GAME.render_event(ev)
            if ev["audience"] is None and ev["kind"] != "election":
                assert "markers" not in ev["data"] or ev["kind"] == "game-started"
            if ev["kind"] == "election":
                revealed.add(ev["data"]["area"])
        state = step.state
        if state["year"] > 2:
            break
    assert revealed


def test_grammar_help_and_renderers() -> None:
    assert "place san marco 3 1" in GAME.grammar_help()
    state = fresh(4)
    text = GAME.render_view(GAME.view(state, "red"), "red")
    assert "Your markers (red)" in text and "3 3 2 2 1 1 0" in text
    assert "Your markers" not in GAME.render_view(GAME.view(state, None), None)
