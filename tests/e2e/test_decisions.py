"""Decisions without traps, in a real browser (Debian's chromium), scripts on and off (issue 25):
no order list opens on an order the player did not choose; a player takes back an own step, and
is told why not after a draw or after the other seat's move; a refused plan changes nothing, and
its preview says what it would do; each seat page reaches its board within two phone screens
(390 × 844 px; the figures are printed).

The games are set up through the service (tests/e2e/test_composer_games.py), the pages only
enter the decision tested."""

from __future__ import annotations

import re

import pytest
from sqlmodel import select

from adjudicator import store
from adjudicator.engine import get_game
from adjudicator.store.models import Game
from tests.e2e.test_composer_games import Site, Started, site, start  # noqa: F401 - the shared fixture

pytestmark = [pytest.mark.browser, pytest.mark.slow]
SCRIPTS = pytest.mark.parametrize("scripts", [True, False], ids=["with-js", "without-js"])
GAME = get_game("1960")
PHONE = {"width": 390, "height": 844}


def _record(started: Started) -> tuple[int, str]:
    with store.transaction(write=False) as s:
        g = s.exec(select(Game).where(Game.public_id == started.game_id)).one()
        return g.record_length, g.state_hash


def kennedy_spending(cp: int) -> Started:
    """A 1960 game at Kennedy's CP step: he plays his best card (at least `cp` CP) for CP first."""
    started = start("1960", 2)
    [chooser] = [seat for seat, page in started.prompts().items() if page.prompt["kind"] == "first"]
    started.submit(chooser, "first kennedy")
    labels = [GAME.order_label(c) for c in started.prompts()["kennedy"].prompt["choices"]]
    plays = [(int(m.group(2)), m.group(1)) for label in labels
             if (m := re.match(r"(play \d+ cp) — .* \((\d) CP\b", label))]
    best, text = max(plays)
    assert best >= cp, labels
    started.submit("kennedy", text)
    return started


def _open(at: Site, started: Started, seat: str, scripts: bool, **viewport: int):
    context = at.browser.new_context(java_script_enabled=scripts, **({"viewport": viewport} if viewport else {}))
    page = context.new_page()
    page.goto(started.url(at, seat), wait_until="domcontentloaded")
    return context, page


def _send_commands(page, text: str) -> None:
    page.fill("textarea[name=commands]", text)
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.click(".command-form button")


# ------------------------------------------------------------------------------------ no trap

@SCRIPTS
def test_no_order_list_opens_on_an_order_the_player_did_not_choose(site: Site, scripts: bool) -> None:  # noqa: F811
    """1960's card list (which opened on `play 14 cp preempt`), a China play and Founding Fathers'
    agenda: each opens on "choose an order…"; sending that changes nothing."""
    one = start("1960", 2)
    [chooser] = one.prompts()
    one.submit(chooser, "first kennedy")
    games = [(one, "kennedy"),
             *((g, next(iter(g.prompts()))) for g in (start("china", 3), start("founding-fathers", 3)))]
    for started, seat in games:
        context, page = _open(site, started, seat, scripts)
        try:
            chosen = page.eval_on_selector("select[name=order]", "s => [s.value, s.options[s.selectedIndex].text]")
            assert chosen == ["", "choose an order…"], (started.game_id, chosen)
            assert page.eval_on_selector_all("select[name=order] option[selected]:not([disabled])",
                                             "os => os.length") == 0
            # a browser checks the required list; a form sent anyway is refused by the server
            assert not page.eval_on_selector("form.order-form", "f => f.checkValidity()")
            before = _record(started)
            page.eval_on_selector("form.order-form", "f => { f.noValidate = true; }") if scripts else None
            if scripts:
                with page.expect_navigation(wait_until="domcontentloaded"):
                    page.click(".order-form button")
                assert "Choose an order in the list first: nothing was sent." in page.inner_text("#result")
            assert _record(started) == before
        finally:
            context.close()
    # the 1960 card list says each card's CP, event side and debate issue in the option itself
    context, page = _open(site, one, "kennedy", scripts)
    try:
        labels = page.eval_on_selector_all("select[name=order] option:not([disabled])", "os => os.map(o => o.text)")
        assert labels and all(re.search(r"\(\d CP · (Kennedy|Nixon|Kennedy\+Nixon)( · [A-Z][a-z]+( Rights)?)?\)", label)
                              for label in labels if label.startswith("play ") and "candidate" not in label), labels
        hand = page.inner_text("#orders .hand-at-decision")  # the hand is inside the decision, not below the board
        assert "Your hand" in hand and re.search(r"\d CP · event: \w+", hand), hand
    finally:
        context.close()


# ------------------------------------------------------------------------------------ undo

@SCRIPTS
def test_an_own_step_is_taken_back_and_the_log_shows_it(site: Site, scripts: bool) -> None:  # noqa: F811
    started = kennedy_spending(2)
    context, page = _open(site, started, "kennedy", scripts)
    try:
        budget = page.inner_text("#orders .tag.budget")
        assert re.fullmatch(r"\d CP to spend", budget), budget
        _send_commands(page, "campaign New York 1")
        assert re.fullmatch(r"\d CP left", page.inner_text("#orders .tag.budget"))
        assert page.inner_text("#undo code") == "campaign New York 1"
        length, _ = _record(started)
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click("#undo button")
        assert "Taken back: campaign New York 1" in page.inner_text("#result")
        assert page.inner_text("#orders .tag.budget") == budget  # the CP are back
        assert _record(started)[0] == length + 1  # a rollback note; nothing deleted
        assert "kennedy took back their last 1 step(s)" in page.inner_text("main")
    finally:
        context.close()


@SCRIPTS
def test_an_undo_is_refused_after_a_draw_and_after_the_other_seats_move(site: Site, scripts: bool) -> None:  # noqa: F811
    started = kennedy_spending(2)
    context, page = _open(site, started, "kennedy", scripts)
    try:
        _send_commands(page, "advertise")  # support checks: cubes drawn from the bag
        assert page.locator("#undo button").count() == 0
        assert ("Undo: your last step revealed or drew something hidden (a card, a die, the bag), so it stands."
                in page.inner_text("#undo"))
    finally:
        context.close()

    started = kennedy_spending(2)
    context, page = _open(site, started, "kennedy", scripts)
    try:
        _send_commands(page, "campaign New York 1\ndone")  # the move passes to Nixon
        assert page.inner_text("#undo code") == "done"
        nixon = started.prompts()["nixon"].prompt
        started.submit("nixon", GAME.format_order(nixon["choices"][0]))  # Nixon acts meanwhile
        before = _record(started)
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click("#undo button")  # the page still offers it: it was loaded before Nixon's move
        result = page.inner_text("#result")
        assert "cannot be taken back: nixon acted after your last step, so it stands" in result
        assert "Nothing was taken back." in result and _record(started) == before
    finally:
        context.close()


# ------------------------------------------------------------------------------------ plans

@SCRIPTS
def test_a_refused_plan_changes_nothing_and_its_preview_says_so(site: Site, scripts: bool) -> None:  # noqa: F811
    """The issue's case: rows NY, PA, OH where Ohio does not fit (Midwest: 1 CP of travel more)."""
    started = kennedy_spending(3)
    context, page = _open(site, started, "kennedy", scripts)
    try:
        cp = int(page.inner_text("#orders .tag.budget").split()[0])
        rows, counts = page.locator(".plan-form select[name=target]"), page.locator(".plan-form select[name=count]")
        plan = [("New York", cp - 1), ("Pennsylvania", 1), ("Ohio", 1)]
        for i, (state, n) in enumerate(plan):
            rows.nth(i).select_option(state)
            counts.nth(i).select_option(str(n))
        before = _record(started)
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click(".plan-form button[name=preview]")
        assert page.locator("#preview").count(), page.inner_text("main")[:3000]
        preview = page.inner_text("#preview")
        assert "Preview: nothing has been sent yet" in preview and "`campaign Ohio 1`" in preview
        assert "would be refused whole" in preview
        assert [rows.nth(i).input_value() for i in range(3)] == [p[0] for p in plan]  # the rows are kept
        assert counts.nth(0).input_value() == str(cp - 1)
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click(".plan-form button:not([name=preview])")
        result = page.inner_text("#result")
        assert "no line of the plan was applied" in result and "Nothing was applied." in result
        assert _record(started) == before  # neither New York nor Pennsylvania

        rows.nth(2).select_option("")  # without Ohio: the preview lists the rows and the CP left
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click(".plan-form button[name=preview]")
        preview = page.inner_text("#preview")
        assert f"campaign New York {cp - 1} → 1 CP left" in preview
        assert "campaign Pennsylvania 1 → nothing left to spend: the action ends" in preview
        assert _record(started) == before
        with page.expect_navigation(wait_until="domcontentloaded"):
            page.click(".plan-form button:not([name=preview])")
        assert [li.inner_text().strip() for li in page.locator(".applied li").all()] == [
            f"campaign New York {cp - 1}", "campaign Pennsylvania 1"]
    finally:
        context.close()


# ------------------------------------------------------------------------------------ the hand at hand

def _hand_names(game: str, view: dict) -> list[str]:
    """What the seat page must name for each card of the seat's own hand (from its own view)."""
    hand = view["private"][next(iter(view["private"]))]["hand"]
    if game == "china":  # colours: how many of each
        return [f"{colour} × {hand.count(colour)}" for colour in sorted(set(hand))]
    from adjudicator.games.founding_fathers.data import deck

    return [deck(view.get("deck") or "standard").name(card) for card in hand]


@SCRIPTS
def test_china_and_founding_fathers_show_the_seats_own_hand_right_below_the_decision(site: Site,  # noqa: F811
                                                                                     scripts: bool) -> None:
    """On a phone, each seat with a decision sees its own hand (China: each colour held, how many and
    where it plays; Founding Fathers: each card's numbers) inside the decision, right below the
    order form and without a hover, and the board draws no hand; a seat waiting sees its hand below
    the board. The offsets are printed."""
    figures = []
    for game in ("china", "founding-fathers"):
        started = start(game, 3)
        for seat in sorted(started.tokens):
            state = started.page(seat)
            context, page = _open(site, started, seat, scripts, **PHONE)
            try:
                names = _hand_names(game, state.view)
                assert "your hand" not in page.inner_text(".board-section .board").lower()
                if state.prompt is None or state.receipt is not None:
                    below = page.inner_text(".board-section .hand-below-board")
                    assert "your hand" in below.lower() and all(name in below for name in names), (game, seat, below)
                    continue
                hand = page.locator("#orders .hand-at-decision")
                assert hand.is_visible(), (game, seat)
                text = hand.inner_text()
                assert "your hand" in text.lower() and names and all(name in text for name in names), (game, seat, text)
                if game == "founding-fathers":  # a card's numbers, written out (a statesman's or an action's)
                    assert hand.locator("li").count() == len(names)
                    assert re.search(r"ability \d|Play (in|during)", text), text
                send = page.locator("#orders form.order-form, #orders .composer, #orders .composer-buttons").first
                gap = hand.bounding_box()["y"] - (send.bounding_box()["y"] + send.bounding_box()["height"])
                top = hand.bounding_box()["y"]
                figures.append(f"{game} {seat}: hand at {int(top)} px, {int(gap)} px below the order form")
                assert 0 <= gap <= 40 and top + 100 <= 2 * PHONE["height"], (game, seat, gap, top)
            finally:
                context.close()
    print("\nthe hand beside the decision (phone 390 x 844):", "; ".join(figures))
    assert figures


# ------------------------------------------------------------------------------------ page length

def test_each_seat_page_reaches_its_board_within_two_phone_screens(site: Site) -> None:  # noqa: F811
    games = {"1960 CP step": kennedy_spending(2), "1960 card": start("1960", 2)}
    games["1960 card"].submit(next(iter(games["1960 card"].prompts())), "first kennedy")  # the hand beside the list
    for game, seats in (("doge", 3), ("china", 3), ("founding-fathers", 3)):
        games[game] = start(game, seats)
    heights = {}
    for game, started in games.items():
        seat = sorted(started.prompts())[0]
        context, page = _open(site, started, seat, True, **PHONE)
        try:
            page.wait_for_load_state("load")  # measured with the stylesheets in (see test_interactions)
            top = page.eval_on_selector(".board-section", "e => e.getBoundingClientRect().top + window.scrollY")
            wide = page.evaluate("() => document.documentElement.scrollWidth")
        finally:
            context.close()
        heights[game] = top
        assert wide <= PHONE["width"], (game, wide)
    print("\nboard starts at (px, phone 390 x 844; two screens = 1688):",
          ", ".join(f"{game} {int(top)}" for game, top in heights.items()))
    assert all(top <= 2 * PHONE["height"] for top in heights.values()), heights
