"""An installed board is a choice on the new-game form, and a game created with it shows it."""

from __future__ import annotations

import re
import secrets

from adjudicator import service, store
from adjudicator.games.china.boardfile import read_board_data
from tests.web.conftest import create_game, join
from tests.web.forms import text_of


def test_the_form_offers_an_installed_board_and_the_game_draws_it(app, client):
    name = f"printed-{secrets.token_hex(3)}"
    side = read_board_data("3-4p")
    side["stand_in"] = False
    side["side_label"] = "the printed 3-4 player side"
    with app.app_context(), store.transaction() as s:
        pin = service.install_content(s, "china", "board", name, {"3-4p": side}).pin
    html = client.get("/new?game=china").get_data(as_text=True)
    select = re.search(r'<select name="opt-board">(.*?)</select>', html, re.S).group(1)
    assert re.findall(r">([^<]+)</option>", select) == ["stand-in", name]

    _, _admin, invites = create_game(client, "china", 3, **{"opt-board": f'"{name}"'})
    players = [join(client, url, f"P{i}") for i, url in enumerate(invites)]
    page = players[0].page()
    assert "the printed 3-4 player side" in page
    assert "Stand-in board." not in page  # the transcribed board is not labelled as invented
    game_id = invites[0].split("/")[2]
    public = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert f"Board {name} (version {pin.split('@')[1][:8]})" in public  # which board, exactly
    assert "Fortifications off" in public
