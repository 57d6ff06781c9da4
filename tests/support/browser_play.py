"""Playing whole games through the web pages in a real browser (Playwright + Debian's chromium).

The steps a person takes: create a game on /new, open each invite link and join, then on each
seat's secret page pick a legal order from the form (or type it into the command box) until the
public page says the game is finished.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from datetime import timedelta

from sqlmodel import select

from adjudicator import store
from adjudicator.store import Game


def create_game(
    page, base: str, game: str, seats: int, title: str, options: dict[str, str] | None = None
) -> list[str]:
    """Create a game through /new, picking each option in `options` by its shown label; return
    the invite links."""
    page.goto(f"{base}/")
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.click("text=New game")
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.click(f"a[href*='game={game}']")
    page.wait_for_selector("input[name=title]")  # the form of this game, not the page before it
    if page.locator("select[name=seats]").count():
        page.select_option("select[name=seats]", str(seats))
    page.fill("input[name=title]", title)
    for name, label in (options or {}).items():
        page.select_option(f"select[name=opt-{name}]", label=label)
    with page.expect_navigation(wait_until="domcontentloaded"):  # a loaded machine is slow to answer
        page.click("button:has-text('Create the game')")
    page.wait_for_selector("a[href*='/join/']", state="attached")
    invites = [a.get_attribute("href") for a in page.locator("a[href*='/join/']").all()]
    assert len(invites) == seats, page.content()[-2000:]
    return [link if link.startswith("http") else base + link for link in invites]


def join_all(page, invites: list[str]) -> tuple[str, dict[str, str]]:
    """Each player joins (adding entropy); returns the game id and each seat's secret page."""
    seat_urls: dict[str, str] = {}
    for number, invite in enumerate(invites):
        page.goto(invite)
        page.fill("input[name=name]", f"Player {number + 1}")
        page.fill("input[name=entropy]", f"dice {number}")
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click("button:has-text('Join')")
        match = re.search(r"/play/([^/]+)/([^/]+)/", page.url)
        assert match, page.url
        seat_urls[match.group(2)] = page.url
    return match.group(1), seat_urls


def public_status(page, base: str, game_id: str) -> tuple[str, list[str]]:
    page.goto(f"{base}/game/{game_id}", wait_until="domcontentloaded")
    status = page.locator(".headline .tag").nth(1).inner_text().strip()
    found = page.locator("text=Waiting for:")
    if status != "running" or found.count() == 0:
        return status, []
    names = found.locator("strong").inner_text()
    return status, [n.strip() for n in names.split(",") if n.strip()]


def record_length(game_id: str) -> int:
    with store.transaction(write=False) as s:
        return s.exec(select(Game).where(Game.public_id == game_id)).one().record_length


def expire_deadline_now(game_id: str) -> None:
    """Time passes: the game's due time moves into the past (what a week of silence does)."""
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        g.due_at = g.due_at - timedelta(days=30)
        s.add(g)


# One round trip to the browser per page instead of one per question: the page's decision form,
# whether this seat's sealed order is already in, and what the server said about the last order.
_READ_SEAT_PAGE = """() => {
  const select = document.querySelector('select[name=order]');
  const step = document.querySelector('select[name=pick]');
  const text = document.body.innerText;
  const error = document.querySelector('.error-text');
  return {
    options: select ? [...select.options].filter(o => o.value).map(o => [o.value, o.textContent.trim()]) : [],
    steps: step ? [...step.options].map(o => o.value).filter(v => v) : [],
    step_buttons: [...document.querySelectorAll('.composer-buttons button[name=pick]')].map(b => b.value),
    markers: [...document.querySelectorAll('.placement-form input[name=marker]:not([disabled])')].map(b => b.value),
    areas: [...document.querySelectorAll('.placement-form button[name=area]')].map(b => b.value),
    scripted: document.documentElement.classList.contains('script'),
    sealed_in: text.includes('Your sealed order'),
    crashed: text.includes('Internal Server Error') || text.includes('went wrong'),
    refused: text.includes('Nothing was applied'),
    error: error ? error.innerText : '',
  };
}"""


def read_seat_page(page) -> dict:
    return page.evaluate(_READ_SEAT_PAGE)


def play_seat(page, url: str, rnd: random.Random, limit: int = 50) -> int:
    """Answer this seat's prompts until it has none (or its sealed order is in); return how many."""
    page.goto(url, wait_until="domcontentloaded")
    done = 0
    while done < limit:
        seen = read_seat_page(page)
        if seen["crashed"]:
            raise AssertionError(page.content()[-2000:])
        if seen["refused"]:
            # the worker revealed the group meanwhile: the prompt moved on, so that order was not
            # applied; look again
            assert "old page" in seen["error"], seen["error"]
            done -= 1
            page.goto(url, wait_until="domcontentloaded")
            continue
        if seen["step_buttons"] and not seen["sealed_in"]:  # a step of few parts: one button each
            with page.expect_navigation(wait_until="domcontentloaded"):
                page.click(f".composer-buttons button[value='{rnd.choice(seen['step_buttons'])}']")
            continue
        if seen["steps"] and not seen["sealed_in"]:
            # a long decision: the composer narrows it a part at a time (a pick submits itself
            # when scripts run; without them the Next button does)
            with page.expect_navigation(wait_until="domcontentloaded"):
                page.select_option("select[name=pick]", rnd.choice(seen["steps"]))
                if not seen["scripted"]:
                    page.click(".composer button")
            continue
        if seen["areas"] and not seen["sealed_in"]:  # Doge's placement: tick markers, press an area
            boxes = page.locator(".placement-form input[name=marker]:not([disabled])")
            for index in rnd.sample(range(len(seen["markers"])), rnd.randint(1, min(4, len(seen["markers"])))):
                boxes.nth(index).check()
            with page.expect_navigation(wait_until="domcontentloaded"):
                page.click(f".placement-form button[value='{rnd.choice(seen['areas'])}']")
            done += 1
            continue
        if not seen["options"] or seen["sealed_in"]:
            break  # nothing to decide, or this seat's sealed order is in and awaits the others
        value, label = rnd.choice(seen["options"])
        with page.expect_navigation(wait_until="domcontentloaded"):  # post, redirect, the page again
            if rnd.random() < 0.25:
                page.fill("textarea[name=commands]", label)
                page.click(".command-form button")
            else:
                page.select_option("select[name=order]", value)
                page.click(".order-form button")
        done += 1
    return done


def play_to_end(
    page,
    base: str,
    game_id: str,
    seat_urls: dict[str, str],
    rnd: random.Random,
    *,
    step_limit: int = 4000,
    interlude: Callable[[], bool] | None = None,
) -> int:
    """Visit the seats in turn, answering every open prompt, until the game is finished.

    `interlude` runs before each round of visits and returns True once it has done its job."""
    steps = 0
    pending = interlude
    while steps < step_limit:
        if pending is not None and pending():
            pending = None
        progressed = sum(play_seat(page, seat_urls[seat], rnd) for seat in sorted(seat_urls))
        steps += progressed
        if not progressed:
            status, _ = public_status(page, base, game_id)
            if status == "finished":
                return steps
            time.sleep(0.2)  # a complete sealed group: the worker is revealing it
    raise AssertionError(f"no end after {steps} orders")
