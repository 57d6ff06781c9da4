"""Issue 28: while a worker thinks out the substitute's move, the seat page and the public page
say so (and the live version changes when the move is made, so open pages refresh)."""

from __future__ import annotations

from adjudicator import service, store
from tests.web.forms import text_of


def test_the_pages_say_the_substitute_is_thinking_until_its_move_is_made(app, client) -> None:
    with store.transaction() as s:  # its tasks are not run yet: the worker has not played
        practice = service.create_practice_game(s, "toy", 3, "p2", "Ana", options={"rounds": 2})
    seat_url = f"/play/{practice.game_id}/p2/{practice.seat_token}"
    page = text_of(client.get(seat_url).get_data(as_text=True))
    assert "The substitute is thinking for p1, p3 ; its move follows in a moment." in page
    public = text_of(client.get(f"/game/{practice.game_id}").get_data(as_text=True))
    assert "The substitute is thinking for p1, p3" in public
    before = client.get(f"{seat_url}/version").get_data(as_text=True)
    service.run_substitutes(practice.tasks)
    assert "The substitute is thinking" not in text_of(client.get(seat_url).get_data(as_text=True))
    assert client.get(f"{seat_url}/version").get_data(as_text=True) != before
