"""Your own time: a seat picks its time zone when it joins (the browser's is offered), and its page
shows deadlines in it, with the game's time beside them."""

from __future__ import annotations

from tests.web.conftest import create_game, join
from tests.web.forms import forms_of, text_of


def test_a_seat_sees_deadlines_in_its_own_zone_with_the_games_beside(client):
    _, admin, invites = create_game(client, seats=2, timezone="Europe/Madrid", **{"opt-rounds": "2"})
    invite_page = client.get(invites[0]).get_data(as_text=True)
    assert 'name="timezone"' in invite_page and "data-browser-timezone" in invite_page
    assert "the game's, Europe/Madrid" in text_of(invite_page)
    ada = join(client, invites[0], "Ada", timezone="America/Mexico_City")
    bob = join(client, invites[1], "Bob")  # no zone given: the game's
    ada_text, bob_text = text_of(ada.page()), text_of(bob.page())
    assert "CST (game time" in ada_text and "CET)" in ada_text  # Mexico City, then Madrid (November)
    assert "game time" not in bob_text and "CET" in bob_text


def test_an_unknown_zone_is_refused_in_words_and_nothing_is_joined(client):
    _, _admin, invites = create_game(client, seats=2, **{"opt-rounds": "2"})
    html = client.get(invites[0]).get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    resp = form.submit(client, invites[0], name="Ada", timezone="Mars/Olympus")
    assert resp.status_code == 400
    assert "unknown time zone 'Mars/Olympus'" in text_of(resp.get_data(as_text=True))
    assert client.get(invites[0]).status_code == 200  # the invitation is still unused
