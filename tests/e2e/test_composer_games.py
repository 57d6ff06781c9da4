"""Composing orders in a real browser (Debian's chromium), with scripts on and off, in at most
four interactions each: a 1960 campaign over three states (the plan rows, one state picked by a
click on the board), a China card play (a region clicked on the map narrows the list) and a
Founding Fathers congress vote (and an election cube placed by clicking its state, when the game
asks for one). An interaction is a click, a pick in a list, or a key press that submits.

The games are set up through the service (the pages only enter the counted decision); the
accepted lines are read back from the page's result box.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from adjudicator.engine import get_game
from adjudicator.engine.play import apply_checked
from adjudicator.games.nineteen_sixty.data import STATES
from adjudicator.record import derive_seed
from tests.support.seat_games import Site, Started, served
from tests.support.seat_games import start as start_game

pytestmark = [pytest.mark.browser, pytest.mark.slow]
VARIANTS = [(True, False), (False, False), (True, True), (False, True)]
IDS = ["list-with-js", "list-without-js", "board-with-js", "board-without-js"]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Iterator[Site]:
    with served(tmp_path_factory.mktemp("composer")) as running:
        yield running


def start(game: str, seats: int, entropy: Callable[[str], str] | None = None) -> Started:
    return start_game(game, seats, f"Composer {game}", entropy)


def moving_on(texts: list[str]) -> str:
    """The answer that moves a Founding Fathers game towards congress and the election: draw and
    assign issues, no trades, card plays, ignoring or deferring."""
    preferred = ([t for t in texts if t.startswith(("assign", "draw"))]
                 + [t for t in texts if not t.startswith(("trade", "play ", "ignore", "place defer", "delegate"))])
    return (preferred or texts)[0]


def entropy_reaching(game_id: str, seats: int, kind: str, steps: int) -> Callable[[str], str]:
    """The players' entropy for which answering with `moving_on` (the first seat by name first)
    reaches a decision of `kind` within `steps` answers and no sealed one: found with the pure
    engine from the server seed, as anyone can once the seed is revealed."""
    game = get_game(game_id)
    options = game.info.resolve_options({})
    names = game.seat_names(seats, options)

    def reaches(seed: str) -> bool:
        state = game.setup(seed, names, options).state
        for _ in range(steps):
            prompts = game.prompts(state)
            if any(p.kind == kind for p in prompts.values()):
                return True
            if not prompts or any(p.sealed for p in prompts.values()):
                return False
            seat = sorted(prompts)[0]
            texts = [game.format_order(c) for c in prompts[seat].choices]
            order = prompts[seat].choices[texts.index(moving_on(texts))]
            state = apply_checked(game, state, {seat: order}, prompts).state
        return False

    def search(server_seed: str) -> str:
        for n in range(500):
            if reaches(derive_seed(server_seed, [f"cube {n}"] * seats)):
                return f"cube {n}"
        raise AssertionError(f"no entropy reaches a {kind} decision")

    return search


def advance_until(started: Started, game_id: str, wanted: Callable[[str, object], bool],
                  steps: int = 60) -> str | None:
    """Answer open decisions with `moving_on`, the first seat by name first, until a seat's
    decision is `wanted`; return that seat, or None after `steps` answers."""
    game = get_game(game_id)
    for _ in range(steps):
        pages = started.prompts()
        for seat, page in pages.items():
            if wanted(seat, page):
                return seat
        seat, page = sorted(pages.items())[0]
        started.submit(seat, moving_on([game.format_order(c) for c in page.prompt["choices"]]))
    return None


class Counter:
    """Counts the player's interactions on a page."""

    def __init__(self, page) -> None:
        self.page, self.n = page, 0

    def click(self, selector: str, navigates: bool = True) -> None:
        self.n += 1
        if navigates:
            with self.page.expect_navigation(wait_until="domcontentloaded"):
                self.page.click(selector)
        else:
            self.page.click(selector)

    def select(self, locator, navigates: bool = False, **value: str) -> None:
        self.n += 1
        if navigates:
            with self.page.expect_navigation(wait_until="domcontentloaded"):
                locator.select_option(**value)
        else:
            locator.select_option(**value)


def applied(page) -> list[str]:
    return [li.inner_text().strip() for li in page.locator(".applied li").all()]


@pytest.mark.parametrize(("scripts", "by_board"), VARIANTS, ids=IDS)
def test_a_1960_campaign_over_three_states(site: Site, scripts: bool, by_board: bool) -> None:
    """Kennedy spends his card's CP campaigning in three states of his region (no travel): three
    rows of the plan (one filled by clicking New York on the board) and one send."""
    started = start("1960", 2)
    first = next(seat for seat, page in started.prompts().items() if page.prompt["kind"] == "first")
    started.submit(first, "first kennedy")
    game = get_game("1960")
    [kennedy] = started.prompts().values()
    plays = [game.order_label(c) for c in kennedy.prompt["choices"]]
    best = max((p for p in plays if re.match(r"play \d+ cp —", p)),
               key=lambda p: int(re.search(r"\((\d+) CP\b", p).group(1)))
    assert int(re.search(r"\((\d+) CP\b", best).group(1)) >= 3, plays
    started.submit("kennedy", best.split(" — ")[0])
    east = [STATES[a].name for a in ("NY", "PA", "NJ")]
    assert STATES["MA"].region == STATES["NY"].region == STATES["PA"].region == STATES["NJ"].region

    context = site.browser.new_context(java_script_enabled=scripts)
    seat = context.new_page()
    try:
        seat.goto(started.url(site, "kennedy"), wait_until="domcontentloaded")
        me = Counter(seat)
        rows = seat.locator(".plan-form select[name=target]")
        if by_board and scripts:  # the click fills the next empty row in place: rows picked stay
            me.select(rows.nth(0), value=east[1])
            me.click("a.ab.pick:text-is('NY')", navigates=False)
            assert [rows.nth(i).input_value() for i in range(2)] == [east[1], "New York"]
            east = [east[1], "New York", east[2]]
        elif by_board:  # the link reloads the page with New York in the first row
            me.click("a.ab.pick:text-is('NY')")
            assert rows.nth(0).input_value() == "New York"
            me.select(rows.nth(1), value=east[1])
        else:
            me.select(rows.nth(0), value="New York")
            me.select(rows.nth(1), value=east[1])
        me.select(rows.nth(2), value=east[2])
        me.click(".plan-form button")
        assert applied(seat) == [f"campaign {state} 1" for state in east], seat.inner_text("body")[:3000]
        assert me.n <= 4
    finally:
        context.close()


@pytest.mark.parametrize(("scripts", "by_board"), VARIANTS, ids=IDS)
def test_a_china_card_play(site: Site, scripts: bool, by_board: bool) -> None:
    """The seat to move plays cards to a region: by picking the play in the list, or by clicking
    the region on the map first (the list then holds only that region's orders)."""
    started = start("china", 3)
    [(mover, _)] = started.prompts().items()
    context = site.browser.new_context(java_script_enabled=scripts)
    seat = context.new_page()
    try:
        seat.goto(started.url(site, mover), wait_until="domcontentloaded")
        me = Counter(seat)
        if by_board:
            region = (seat.locator(".china-map a.pick .rname").first.text_content() or "").strip()
            me.click(f".china-map a.pick:has(.rname:text-is(\"{region}\"))")
            assert f"Orders naming {region}" in seat.inner_text("body")
        options = [o.inner_text().strip() for o in seat.locator("select[name=order] option:not([disabled])").all()]
        play = next(o for o in options if o.startswith("play "))
        if by_board:
            assert all(f"to {region}:" in o for o in options), options
        me.select(seat.locator("select[name=order]"), label=play)
        me.click(".order-form button")
        assert applied(seat) == [play], seat.inner_text("body")[:3000]
        assert me.n <= 4
    finally:
        context.close()


@pytest.mark.parametrize("scripts", [True, False], ids=["with-js", "without-js"])
def test_a_founding_fathers_congress_vote(site: Site, scripts: bool) -> None:
    """A seat asked to vote on an issue votes yes and buys one influence of votes."""
    started = start("founding-fathers", 3, entropy_reaching("founding-fathers", 3, "vote", 60))
    voter = advance_until(started, "founding-fathers", lambda seat, page: page.prompt["kind"] == "vote")
    assert voter is not None, "no congress vote within 60 decisions"
    context = site.browser.new_context(java_script_enabled=scripts)
    seat = context.new_page()
    try:
        seat.goto(started.url(site, voter), wait_until="domcontentloaded")
        me = Counter(seat)
        me.select(seat.locator("select[name=order]"), label="vote yes buy 1")
        me.click(".order-form button")
        assert applied(seat) == ["vote yes buy 1"], seat.inner_text("body")[:3000]
        assert me.n <= 4
    finally:
        context.close()


@pytest.mark.parametrize("scripts", [True, False], ids=["with-js", "without-js"])
def test_a_founding_fathers_election_cube_placed_by_clicking_its_state(site: Site, scripts: bool) -> None:
    """An election placement: the state is clicked on the map (the list then holds its orders)."""
    started = start("founding-fathers", 3, entropy_reaching("founding-fathers", 3, "place", 80))
    placer = advance_until(started, "founding-fathers", lambda seat, page: page.prompt["kind"] == "place", 80)
    assert placer is not None
    context = site.browser.new_context(java_script_enabled=scripts)
    seat = context.new_page()
    try:
        seat.goto(started.url(site, placer), wait_until="domcontentloaded")
        me = Counter(seat)
        state = (seat.locator(".ffmap a.pick .ab").first.text_content() or "").strip()
        me.click(f".ffmap a.pick:has(.ab:text-is(\"{state}\"))")
        options = [o.inner_text().strip() for o in seat.locator("select[name=order] option").all()]
        assert [o.split(" — ")[0] for o in options] == [f"place {state}"], options
        me.click(".order-form button")
        assert applied(seat) == [f"place {state}"], seat.inner_text("body")[:3000]
        assert me.n <= 4
    finally:
        context.close()
