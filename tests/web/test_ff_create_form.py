"""The Founding Fathers create form lists the short-game option with its words (issue 14)."""

from __future__ import annotations

from adjudicator.engine import get_game, register
from adjudicator.games.founding_fathers import GAME
from tests.web.forms import text_of


def test_the_create_form_offers_the_short_game(client) -> None:
    try:
        get_game("founding-fathers")
    except Exception:  # noqa: BLE001 - not in the catalogue of this build: register it here
        register(GAME)
    html = client.get("/new?game=founding-fathers").get_data(as_text=True)
    assert 'type="checkbox" name="opt-short_game"' in html  # an on/off option is a box to tick
    text = text_of(html)
    assert "Short game" in text and "short_game" not in text  # named in words
    assert "Short game: the standard game ends with era A" in text
