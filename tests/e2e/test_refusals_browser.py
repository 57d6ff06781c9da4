"""A refused order in a real browser (Debian's chromium), scripts on and off, for each title
(issue 25 item 3): the refusal says why, offers the closest legal orders ("Did you mean"), shows
no raw Markdown backtick, and does not list the legal orders a second time (the order form below
lists them). The games are set up through the service; the page only sends the bad line."""

from __future__ import annotations

import re

import pytest

from adjudicator.engine import get_game
from tests.e2e.test_composer_games import Site, Started, site, start  # noqa: F401  (the module's fixture)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _bad_line(game_id: str, started: Started) -> tuple[str, str, str, str]:
    """(seat, the line, a phrase of its reason, the first suggestion expected) for a fresh game."""
    game = get_game(game_id)
    pages = started.prompts()
    if game_id == "1960":
        chooser = next(iter(pages))
        started.submit(chooser, "first kennedy")
        hand = [c["play"] for c in started.prompts()["kennedy"].prompt["choices"]
                if isinstance(c.get("play"), int) and c.get("as") == "cp" and not c.get("preempt")]
        card = max(hand)
        other = next(n for n in (card + 1, card - 1, card + 2) if n not in hand and 1 <= n <= 97)
        return "kennedy", f"play {other} cp", f"card {other} is not in your hand", f"play {card} cp"
    if game_id == "doge":
        return "red", "place castello 3 3 3", "those markers are used up", "place castello 3 3"
    if game_id == "china":  # a colour the hand lacks: the exchanges of the colours it holds come closest
        seat, page = next(iter(pages.items()))
        held = {c["exchange"] for c in page.prompt["choices"] if "exchange" in c}
        colour = next(c for c in ("green", "orange", "purple", "red", "yellow") if c not in held)
        return seat, f"exchange {colour} for deck", f"you hold no {colour} card to exchange", "exchange "
    seat, page = sorted(pages.items())[0]  # a typo of the shortest legal order: the grammar's refusal
    shortest = min((game.format_order(c) for c in page.prompt["choices"]), key=len)
    return seat, shortest + shortest[-1], "is not a legal", shortest


@pytest.mark.parametrize("scripts", [True, False], ids=["with-js", "without-js"])
@pytest.mark.parametrize(("game_id", "seats"), [("1960", 2), ("doge", 3), ("china", 3), ("founding-fathers", 3)])
def test_a_refusal_says_why_and_what_was_meant(site: Site, game_id: str, seats: int, scripts: bool) -> None:  # noqa: F811
    started = start(game_id, seats)
    seat, line, reason, meant = _bad_line(game_id, started)
    context = site.browser.new_context(java_script_enabled=scripts)
    page = context.new_page()
    try:
        page.goto(started.url(site, seat), wait_until="domcontentloaded")
        page.fill(".command-form textarea[name=commands]", line)
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click(".command-form button")
        box = page.locator("#result")
        text = box.inner_text()
        assert "Not accepted" in text and reason in text, text
        assert "`" not in text  # rendered Markdown: the line is in <code>, never between backticks
        assert box.locator(".error-text code").first.inner_text() == line
        assert "Legal choices now" not in text  # the form below lists them, once
        suggestions = [li.inner_text() for li in box.locator(".suggestions li").all()]
        if meant:
            assert suggestions and suggestions[0].startswith(meant), suggestions
        # the legal orders, in the form
        assert page.locator("select[name=order], .composer, .placement-form").count() >= 1
        assert re.search(r"Nothing was applied", text)
    finally:
        context.close()
