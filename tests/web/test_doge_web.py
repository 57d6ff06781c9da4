"""Doge on the web: the HTML board never crashes and never shows what the view hides, and a
game can be created, joined and played through the forms."""

from __future__ import annotations

import random

import pytest
from markupsafe import Markup

from adjudicator.engine import apply_checked, get_game
from tests.web.conftest import create_game, join
from tests.web.forms import forms_of, text_of
from web.boards import board_html

pytest.importorskip("adjudicator.games.doge")


def _random_states(seed: int, limit: int = 400):
    game = get_game("doge")
    rnd = random.Random(seed)
    seats = game.seat_names(3 + seed % 2, {})
    state = game.setup(f"web-{seed}", seats, {}).state
    yield state
    for _ in range(limit):
        prompts = game.prompts(state)
        if not prompts:
            return
        seat = rnd.choice(sorted(prompts))
        prompt = prompts[seat]
        members = [s for s, p in prompts.items() if p.sealed and p.group == prompt.group] or [seat]
        orders = {s: rnd.choice(prompts[s].choices) for s in members}
        state = apply_checked(game, state, orders).state
        yield state


@pytest.mark.parametrize("seed", range(4))
def test_doge_board_draws_every_view_of_random_games(app, seed):
    game = get_game("doge")
    with app.app_context():
        for state in _random_states(seed):
            for seat in [None, *state["seats"]]:
                view = game.view(state, seat)
                html = board_html("doge", view, seat)
                assert isinstance(html, Markup) and 'class="doge"' in html
                if seat is None:
                    assert "Yours" not in html  # no seat's marker values on the public board
                # every palace on the board is drawn as a built space
                built = sum(len(d["palaces"]) for d in view["districts"].values())
                assert html.count('class="space built') == built


def test_doge_board_survives_broken_views(app):
    broken = [{}, {"districts": None}, {"districts": {"x": {"palaces": ["red"] * 9, "houses": {"red": 2}}}},
              {"advisors": {"adv-x": "oops"}, "voting": {"current": "abc"}, "seats": ["<i>x</i>"],
               "ballots": {"quarantia": {"<i>x</i>": 2}}},
              {"supply": {"red": None}, "seats": ["red", 3], "private": {"red": {"ballots": {"x": [3]}}}}]
    with app.app_context():
        for view in broken:
            html = board_html("doge", view, "red")
            assert html is not None and "<i>x" not in html


def test_board_errors_fall_back_to_markdown_and_are_logged(app, caplog):
    from web import boards

    def broken(view, seat):
        raise RuntimeError("boom")

    boards._BOARDS["toy"] = broken
    try:
        app.config["PBEM_BOARD_STRICT"] = False
        with app.app_context():
            assert board_html("toy", {"x": 1}, None) is None
        assert "could not be drawn" in caplog.text
        app.config["PBEM_BOARD_STRICT"] = True
        with app.app_context(), pytest.raises(RuntimeError):
            board_html("toy", {"x": 1}, None)
    finally:
        boards._BOARDS.pop("toy", None)


def test_doge_game_through_the_web(client):
    _, admin, invites = create_game(client, game="doge", seats=3)
    assert [u.split("/")[3] for u in invites] == ["red", "blue", "green"]
    players = [join(client, u, n) for u, n in zip(invites, ["Ann", "Ben", "Cy"], strict=True)]
    game_id = admin.split("/")[2]
    red, blue, green = players

    html = red.page()
    assert 'class="doge"' in html and "Cannaregio" in html and "Quarantia" in html
    # the placement is the seven markers to tick and the area's button (not 273 pairs to choose from)
    assert red.order_form(html) is None
    [form] = [f for f in forms_of(html) if "placement" in f.fields]
    assert form.method == "post" and "csrf_token" in form.fields and "prompt_token" in form.fields
    assert html.count('name="marker"') == 7 and html.count('name="area"') == 7
    assert "place cannaregio 3 2 1 1" not in html
    resp = red.place("san-marco", 1, 3)
    text = text_of(resp.get_data(as_text=True))
    assert "Sealed order received: place san-marco 3 1" in text
    # the public page shows the commitment but not red's marker values
    public = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert "place san-marco 3 1" not in public
    assert "Waiting for: blue, green" in text_of(public)

    assert blue.command("place castello 2 2").status_code == 200
    assert green.command("place dorsoduro 1").status_code == 200
    # revealed: face-down marker counts are public, values stay with their owner
    public = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert "Year 1, round 1 cards revealed" in public
    red_page = red.page()
    assert "Yours" in red_page
    blue_text = text_of(blue.page())
    assert "Yours 3 1" not in blue_text
