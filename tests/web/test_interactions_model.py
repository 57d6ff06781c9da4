"""Interactions per decision for every decision kind of the four games (issue 25: at most 3), from
the page's own parts rather than a browser: random games of each title meet every kind, and for a
sample of each decision's orders this counts what the seat page asks of a player to send it, with
scripts on and off. tests/e2e/test_interactions.py measures the same in a real browser for the
kinds its shorter games meet.

What the page asks: a composer part is one interaction (a button, or a pick that sends itself with
scripts; without scripts a list pick and Next are two, unless the board offers that part as a
link: one click); the list of orders left is a pick and Send (two); a `plan` row is its target,
its count when not 1, and Send. Doge's placement is its set of markers picked in the form's list
(or, for one marker, its tick) and the area's button: 2, if the form's list holds that set; else
one tick per marker and the button.
"""

from __future__ import annotations

import json
import random
import re
from collections import defaultdict
from typing import Any
from urllib.parse import unquote_plus, urlencode

import pytest

from adjudicator.engine import get_game
from tests.support.play import random_game
from web.boards import board_html
from web.composer import compose, naming, words
from web.doge_placement import placement_form
from web.seat import _board_links, _choices

MOST = 3
GAMES = ["doge", "china", "1960", "founding-fathers"]
PROMPTS_PER_KIND = 12
ORDERS_PER_PROMPT = 6


def _by_board(app: Any, game_id: str, view: dict[str, Any], seat: str, composer: Any,
              choices: list[tuple[str, str]]) -> str:
    with app.test_request_context("/"):
        links = _board_links(game_id, seat, "t", composer, choices)
        return str(board_html(game_id, view, seat, links) or "")


def _leads_to(step: Any, ws: list[str]) -> bool:
    parts = step.value.split()
    return parts[:-1] == ws if step.exact else ws[:len(parts)] == parts


def _cost(app: Any, game_id: str, view: dict[str, Any], seat: str, choices: list[tuple[str, str]],
          label: str, plans: tuple[str, ...], scripts: bool) -> int:
    composer = compose(choices, plan_verbs=plans)
    ws = words(label)
    if composer.plan is not None and ws[0] == composer.plan.verb and ws[-1].isdigit():
        return 2 + (ws[-1] != "1")
    n, where = 0, ""
    for _ in range(8):
        if not composer.steps:
            return n + 2
        step = next(s for s in composer.steps if _leads_to(s, ws))
        pick = step.value
        if scripts or composer.buttons:
            n += 1
        else:  # without scripts a click on the board may pick the part, or narrow to what it names
            board = _by_board(app, game_id, view, seat, composer, choices).replace("&amp;", "&")
            named = [w for w in map(unquote_plus, re.findall(r"[?&]where=([^#&\"]+)", board))
                     if naming([("", label)], w)]
            if urlencode({"pick": step.value}) in board:
                n += 1
            elif named:
                n, pick, where = n + 1, "", named[0]
            else:
                n += 2
        composer = compose(choices, pick, where, plan_verbs=plans)
    raise AssertionError(f"the composer never reached {label!r}")


def _decisions(game_id: str):
    """(kind, seat, view, choices) of decisions met in random games, a few per kind."""
    game = get_game(game_id)
    met: dict[str, int] = defaultdict(int)
    pick = random.Random(game_id)
    for seed in range(6):
        for state, _, prompts in random_game(game_id, seed, "clicks", 1500):
            for seat, prompt in prompts.items():
                if met[prompt.kind] < PROMPTS_PER_KIND and pick.random() < 0.3:
                    met[prompt.kind] += 1
                    as_page = {"choices": prompt.choices, "kind": prompt.kind}
                    yield prompt.kind, seat, game.view(state, seat), _choices(game, as_page)


def prompt_choices(choices: list[tuple[str, str]]) -> list[Any]:
    """The prompt's choices back from the form's (canonical JSON, label) pairs."""
    return [json.loads(value) for value, _ in choices]


@pytest.mark.parametrize("game_id", GAMES)
def test_every_decision_kind_takes_at_most_three_interactions(app, game_id: str) -> None:
    game = get_game(game_id)
    plans = tuple(getattr(game, "plan_orders", ()))
    worst: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    rnd = random.Random(25)
    for kind, seat, view, choices in _decisions(game_id):
        if game_id == "doge" and kind == "placement":  # the form: the set (or a tick per marker), the area's button
            with app.test_request_context("/"):
                form = placement_form(game_id, {"kind": kind, "choices": prompt_choices(choices)}, view, seat)
            listed = {s.value for _group, sets in form.sets for s in sets}
            for _, label in choices:
                markers = words(label)[2:]
                cost = 1 + min(len(markers), 1 if " ".join(markers) in listed else len(markers))
                row = worst[f"placement, {len(markers)} marker(s)"]
                row[:] = [max(row[0], cost), max(row[1], cost)]
            continue
        for _, label in rnd.sample(choices, min(ORDERS_PER_PROMPT, len(choices))):
            for column, scripts in enumerate((True, False)):
                worst[kind][column] = max(worst[kind][column],
                                          _cost(app, game_id, view, seat, choices, label, plans, scripts))
    print(f"\n{game_id}: most interactions per decision, by kind (scripts on, off)")
    for kind, (on, off) in sorted(worst.items()):
        print(f"  {kind:<32} {on} {off}")
    over = {kind: costs for kind, costs in worst.items() if max(costs) > MOST}
    assert not over, f"{game_id}: more than {MOST} interactions: {over}"
