"""A moderator rolls a game back in a real browser (issue 13): the rollback shows in the public log
with the undone entries marked, the game goes on, the moderator then declares its result, and the
exported record, undone entries included, passes `pbem verify` (changed bytes fail it)."""

from __future__ import annotations

import json
import random
import time

import pytest

from adjudicator.record import undone_indices
from tests.e2e.test_browser_games import Site, export_and_verify, site  # noqa: F401 - the shared fixture
from tests.support.browser_play import create_game, join_all, play_seat, record_length

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def _play_until(at: Site, game_id: str, seat_urls: dict[str, str], length: int, rnd: random.Random) -> None:
    for _round in range(200):
        if record_length(game_id) >= length:
            return
        for seat in sorted(seat_urls):
            play_seat(at.page, seat_urls[seat], rnd, limit=1)
        time.sleep(0.1)  # a complete sealed group: the worker reveals it
    raise AssertionError(f"the game did not reach {length} record entries")


def test_a_moderator_rolls_back_then_declares_the_result_and_the_record_verifies(site: Site) -> None:  # noqa: F811
    page, rnd = site.page, random.Random(13)
    invites = create_game(page, site.base, "china", 3, "Rollback China")
    admin = page.locator("a[href*='/admin/']").first.get_attribute("href")
    admin = admin if admin.startswith("http") else site.base + admin
    game_id, seat_urls = join_all(page, invites)
    _play_until(site, game_id, seat_urls, 6, rnd)
    undone = record_length(game_id) - 3

    page.goto(admin, wait_until="domcontentloaded")
    form = page.locator("form.tool-rollback")
    form.locator("input[name=to]").fill("2")
    form.locator("input[name=reason]").fill("a seat misread the board")
    assert not form.evaluate("f => f.checkValidity()")  # the browser asks for the confirmation box first
    form.locator("input[name=confirm]").check()
    with page.expect_navigation(wait_until="domcontentloaded"):
        form.locator("button").click()
    assert "The game was rolled back" in page.inner_text("body")

    page.goto(f"{site.base}/game/{game_id}/log", wait_until="domcontentloaded")
    log = page.inner_text("main")
    assert "rolled the game back to record entry 2" in log and "a seat misread the board" in log
    assert log.count("[undone by a rollback]") >= undone

    _play_until(site, game_id, seat_urls, record_length(game_id) + 2, rnd)  # the game goes on
    page.goto(admin, wait_until="domcontentloaded")
    form = page.locator("form.tool-declare")
    form.locator("input[name=winners]").first.check()
    form.locator("input[name=reason]").fill("time limit of the round reached")
    form.locator("input[name=confirm]").check()
    with page.expect_navigation(wait_until="domcontentloaded"):
        form.locator("button").click()
    assert "The game is over with the result you declared" in page.inner_text("body")

    doc = json.loads(export_and_verify(site, game_id))  # `pbem verify` passes on the whole record
    notes = [e["data"]["action"] for e in doc["entries"] if e["kind"] == "note"]
    assert "rollback" in notes and notes[-1] == "declare_result"
    # the undone entries are still in the record that verified (marked undone, not dropped)
    assert set(range(3, 3 + undone)) <= undone_indices(doc["entries"]), undone_indices(doc["entries"])
