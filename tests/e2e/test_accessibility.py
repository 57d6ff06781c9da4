"""Every page type passes axe-core (the accessibility engine, run in Debian's chromium) with no
serious or critical violation: the game list, the create form and its result, the join form, a
seat page of each game (with the order composer where the decision is long), the press page, the
public page, the log, the moderator page, a director's page and a tournament's standings, and the
players' pages: sign-in (asking, confirming, a refused link), the signed-in home, the lobby; the
rules pages (issue 25); and the pages a Spanish-speaking player sees most, in Spanish."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import OutboxMessage
from tests.support import seat_games
from tests.support.browser import chromium_or_skip, web_server
from tests.support.databases import sqlite_database

pytestmark = [pytest.mark.browser, pytest.mark.slow]
GAMES = [("doge", 3), ("china", 3), ("1960", 2), ("founding-fathers", 3)]
SPANISH = ("seat doge", "seat china", "seat 1960", "seat 1960 composing", "seat founding-fathers", "public doge", "log",
           "press and settings", "rules 1960", "home")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> Iterator[tuple[object, dict[str, str]]]:
    """A browser page and the URL of every page type, on a server with one game of each title."""
    chromium = chromium_or_skip()
    from playwright.sync_api import sync_playwright

    tmp = tmp_path_factory.mktemp("axe")
    with sqlite_database(tmp) as db:
        store.configure(db.url)
        store.init_db()
        urls: dict[str, str] = {"games": "/", "new game": "/new?game=doge", "new tournament": "/director/new"}
        with store.transaction() as s:
            director = service.create_director(s, "Club")
        urls["director"] = f"/director/{director.director_id}/{director.token}"
        urls["standings"] = f"/tournament/{director.director_id}"
        for game, seats in GAMES:
            with store.transaction() as s:
                created = service.create_game(s, game=game, seats=seats, title=f"Axe {game}",
                                              director=(director.director_id, director.token))
            invites = sorted(created.invites.items())
            tokens = {}
            for seat, invite in invites:
                with store.transaction() as s:
                    tokens[seat] = service.join_game(s, created.game_id, seat, invite, seat.title(),
                                                     email=f"{seat}@example.org").seat_token
            first = sorted(tokens)[0]
            urls[f"seat {game}"] = f"/play/{created.game_id}/{first}/{tokens[first]}"
            if game in ("china", "1960"):  # the composer's board links and 1960's campaign plan rows
                urls[f"seat {game} composing"] = _composing(created.game_id, tokens)
            urls[f"public {game}"] = f"/game/{created.game_id}"
            if game == "doge":
                urls["press and settings"] = urls["seat doge"] + "/mail"
                urls["log"] = f"/game/{created.game_id}/log"
                home_address = f"{first}@example.org"  # the signed-in player's home lists this seat
                urls["moderator"] = f"/admin/{created.game_id}/{created.admin_token}"
        # issue 25's direct manipulation, in English and Spanish: Doge's markers to tick and the drawn
        # Venice whose areas are links, China's house spaces as links
        urls["seat doge placing (es)"] = urls["seat doge"] + "?lang=es"
        china = seat_games.start("china", 3, "Axe China spaces")
        seat = seat_games.advance(china, random.Random(3), 60, lambda seat, page: page.prompt["kind"] == "space")
        assert seat is not None, "no China space decision within 60 orders"
        urls["seat china choosing a space"] = china.path(seat)
        urls["seat china choosing a space (es)"] = china.path(seat) + "?lang=es"
        with store.transaction() as s:  # a game still waiting for its players: the join form
            waiting = service.create_game(s, game="1960", seats=2, title="Axe pending")
        seat, invite = sorted(waiting.invites.items())[0]
        urls["join"] = f"/join/{waiting.game_id}/{seat}/{invite}"
        urls |= _player_pages(waiting, director, home_address)
        urls |= {"rules": "/rules", "rules 1960": "/rules/1960"}  # issue 25: the rules at hand
        # the same pages in Spanish (the home last: the browser is signed in by then)
        urls |= {f"{name} (es)": urls[name] + ("&" if "?" in urls[name] else "?") + "lang=es"
                 for name in SPANISH}
        env = {k: v for k, v in os.environ.items() if k not in ("PBEM_EAGER", "SMTP_HOST")}
        env.update({"DATABASE_URL": db.url, "PBEM_VAR_DIR": str(tmp / "var")})
        try:
            with web_server(env, tmp, tmp / "web.log") as base, sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
                try:
                    context = browser.new_context(bypass_csp=True)  # so that axe itself can be injected
                    yield context.new_page(), {name: base + url for name, url in urls.items()}
                finally:
                    browser.close()
        finally:
            store.configure(None)


def _player_pages(open_game, director, address: str) -> dict[str, str]:
    """The sign-in pages, the lobby (an open game, a tournament taking sign-ups) and the home;
    "sign in" is a link the test uses before the home is checked."""
    with store.transaction() as s:
        service.open_in_lobby(s, open_game.game_id, open_game.admin_token)
        service.set_signup(s, director.director_id, director.token, True)
    links = []
    for _ in range(2):
        with store.transaction() as s:
            service.request_sign_in(s, address)
            body = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "signin")
                          .order_by(OutboxMessage.id.desc())).first().body  # type: ignore[union-attr]
        links.append(re.search(r"(/signin/[^>\s]+)>", body).group(1))
    return {"sign-in": "/signin", "sign-in link": links[0], "refused sign-in link": links[0][:-4],
            "lobby": "/lobby", "sign in": links[1], "home": "/me"}


def _composing(game_id: str, tokens: dict[str, str]) -> str:
    """The page of the seat to move, in 1960 after Kennedy played his best card for CP (the plan)."""
    def open_prompts() -> dict[str, object]:
        found = {}
        for seat, token in tokens.items():
            with store.transaction(write=False) as s:
                page = service.seat_state(s, game_id, seat, token)
            if page.prompt is not None:
                found[seat] = page
        return found

    def submit(seat: str, text: str, page) -> None:
        with store.transaction() as s:
            service.submit(s, game_id, seat, tokens[seat], text, page.prompt_token)

    pages = open_prompts()
    if "kennedy" in tokens:
        first = next(seat for seat, page in pages.items() if page.prompt["kind"] == "first")
        submit(first, "first kennedy", pages[first])
        kennedy = open_prompts()["kennedy"]
        cp = [c for c in kennedy.choices if c.endswith(" cp")]
        submit("kennedy", cp[0], kennedy)
        pages = open_prompts()
    [(seat, _)] = pages.items()
    return f"/play/{game_id}/{seat}/{tokens[seat]}"


def _axe_source() -> str:
    try:
        import axe_playwright_python
    except ImportError:
        pytest.skip("axe-playwright-python is not installed (pip install -e '.[test]')")
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text()


def test_no_serious_or_critical_accessibility_violation_on_any_page_type(pages) -> None:
    page, urls = pages
    axe = _axe_source()
    found: list[str] = []
    for name, url in urls.items():
        response = page.goto(url, wait_until="domcontentloaded")
        if name == "refused sign-in link":
            assert response is not None and response.status == 403
        else:
            assert response is not None and response.ok, f"{name}: HTTP {response and response.status}"
        if name == "sign in":  # the home needs a signed-in browser
            with page.expect_navigation(wait_until="domcontentloaded"):
                page.click("button:has-text('Sign me in')")
        page.evaluate(axe)
        result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        for violation in result["violations"]:
            if violation["impact"] in ("serious", "critical"):
                where = "; ".join(n["target"][0] if isinstance(n["target"][0], str) else str(n["target"])
                                  for n in violation["nodes"][:3])
                found.append(f"{name}: {violation['id']} ({violation['impact']}): {violation['help']} at {where}")
    assert not found, "\n".join(found)
