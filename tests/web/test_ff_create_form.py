"""The Founding Fathers create form lists the short-game option with its words (issue 14)."""

from __future__ import annotations

from adjudicator.engine import get_game, register
from adjudicator.games.founding_fathers import GAME
from tests.web.forms import forms_of, text_of


def test_the_create_form_offers_the_short_game(client) -> None:
    try:
        get_game("founding-fathers")
    except Exception:  # noqa: BLE001 - not in the catalogue of this build: register it here
        register(GAME)
    html = client.get("/new?game=founding-fathers").get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    assert "opt-short_game" in form.fields
    text = text_of(html)
    assert "short_game" in text
    assert "Short game: the standard game ends with era A" in text
