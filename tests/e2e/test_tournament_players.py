"""A tournament with sign-up, end to end in a real browser: the director makes the tournament
and its four Doge games and opens sign-up; twelve players sign in by the link mailed to them, sign
up in the lobby; the server seats them; each opens their seat from their home and plays, then
one player of each game sends orders by e-mail instead (a reply to the seat's mail, through the
SMTP listener), the others use the seat page; then the director applies defaults until every game
is over. The standings and ratings must match the games' outcomes, and a player home's calendar
must list the current deadlines.

Processes and fixture: those of test_browser_games (the web app, a Celery worker with beat)."""

from __future__ import annotations

import random
import re
import smtplib
from datetime import UTC
from email.message import EmailMessage

from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.history.ratings import Rating, rate
from adjudicator.service.history.results import GameResult, SeatResult, placements
from adjudicator.store import Game, InboxMessage, OutboxMessage, PlayerRating
from tests.e2e.test_browser_games import Site, site  # noqa: F401  (the module's server fixture)
from tests.support.browser import free_port
from tests.support.browser_play import play_seat, record_length
from tests.support.processes import wait_for
from workers.smtp import start as start_smtp

GAMES, SEATS = 4, 3
PLAYERS = [f"player{n:02d}@example.org" for n in range(GAMES * SEATS)]


def _go(page, url: str) -> None:
    page.goto(url, wait_until="domcontentloaded")


def _click(page, selector: str) -> None:
    with page.expect_navigation(wait_until="domcontentloaded"):
        page.click(selector)


def _mailed_link(address: str, kind: str, pattern: str) -> str:
    with store.transaction(write=False) as s:
        row = s.exec(select(OutboxMessage).where(OutboxMessage.to == address, OutboxMessage.kind == kind)
                     .order_by(OutboxMessage.id.desc())).first()  # type: ignore[union-attr]
    assert row is not None, f"no {kind} mail to {address}"
    return re.search(pattern, row.body).group(1)


def _mails_to(address: str, after: int) -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.to == address, OutboxMessage.id > after)
                           .order_by(OutboxMessage.id)).all())  # type: ignore[union-attr]


_LEGAL = re.compile(r"Legal orders[^\n]*:\n\n")  # "Legal orders now:", or a short mail's "Legal orders (12 of N...):"


def _legal_orders(body: str) -> list[str]:
    """The orders a decision mail lists under its "Legal orders ...:" line (indented lines)."""
    out = []
    for line in _LEGAL.split(body, maxsplit=1)[1].splitlines():
        if not line.startswith("    ") or line.strip().startswith("..."):
            break
        out.append(line.strip())
    return out


def _play_by_mail(smtp: smtplib.SMTP, address: str, rnd: random.Random, limit: int) -> int:
    """As a player at their mail program: answer the newest mail that asks for a decision with one
    of the orders it lists, wait for the server's reply and check the order was applied."""
    answered, sent = 0, 0
    while sent < limit:
        asking = [m for m in _mails_to(address, answered) if m.kind in ("start", "turn", "reply")
                  and _LEGAL.search(m.body)]
        if not asking:
            break  # nothing asked of this seat now (its sealed order awaits the others)
        row = asking[-1]
        order = rnd.choice(_legal_orders(row.body))
        msg = EmailMessage()
        msg["From"], msg["To"] = address, row.headers["Reply-To"]
        msg["Subject"] = "Re: " + row.subject
        msg["In-Reply-To"] = msg["References"] = row.headers.get("Message-ID") or f"<pbem-{row.id}@x>"
        msg["Message-ID"] = f"<{address.split('@')[0]}-{row.id}@example.org>"
        msg.set_content(f"{order}\n\n> {row.body.splitlines()[0]}\n")
        smtp.send_message(msg)
        answered = row.id
        wait_for(lambda after=answered: any(m.kind == "reply" for m in _mails_to(address, after)),
                 f"the reply to {address}'s mailed order")
        reply = next(m for m in _mails_to(address, answered) if m.kind == "reply")
        assert "## Applied" in reply.body and order in reply.body.split("## Applied", 1)[1], reply.body
        answered = reply.id - 1  # the reply itself may ask for the next decision
        sent += 1
    return sent


def _make_tournament(page, base: str) -> tuple[str, str]:
    _go(page, f"{base}/director/new")
    page.fill("input[name=name]", "Spring Doge Cup")
    _click(page, "button:has-text('Make my director link')")
    _click(page, "a:has-text('Open it and create the first game')")
    dashboard = page.url
    for number in range(GAMES):
        _go(page, dashboard)
        _click(page, "section.card a[href*='game=doge']")
        page.wait_for_selector("input[name=title]")
        page.select_option("select[name=seats]", str(SEATS))
        page.fill("input[name=title]", f"Cup game {number + 1}")
        _click(page, "button:has-text('Create the game')")
    _go(page, dashboard)
    _click(page, "#signup button:has-text('Open sign-up')")
    assert "Sign-up is open" in page.content()
    director_id, token = re.search(r"/director/([^/]+)/([^/#?]+)", dashboard).groups()
    return director_id, token


def _sign_in_and_sign_up(browser, base: str, address: str, name: str):
    """A player's own browser: the link from the mail signs it in; then the lobby's sign-up."""
    page = browser.new_context().new_page()
    _go(page, f"{base}/signin")
    page.fill("input[name=email]", address)
    _click(page, "button:has-text('Mail me a sign-in link')")
    assert "on its way" in page.content()
    _go(page, _mailed_link(address, "signin", r"<(http[^>]+/signin/[^>]+)>"))
    _click(page, "button:has-text('Sign me in')")
    assert page.url.endswith("/me"), page.url
    page.fill("input[name=name]", name)
    _click(page, "button:has-text('Save')")
    _go(page, f"{base}/lobby")
    _click(page, "button:has-text('Sign up for Spring Doge Cup')")
    assert "signed up, waiting to be seated" in page.content()
    return page


def _home_seat(page, base: str) -> tuple[str, str]:
    _go(page, f"{base}/me")
    link = page.locator("table.home-seats a[href*='/play/']").first.get_attribute("href")
    game_id = re.search(r"/play/([^/]+)/", link).group(1)
    return game_id, base + link


def _finish_with_defaults(page, base: str, game_id: str, token: str) -> None:
    admin = f"{base}/admin/{game_id}/{token}"
    for _ in range(400):
        with store.transaction(write=False) as s:
            if s.exec(select(Game).where(Game.public_id == game_id)).one().status == "finished":
                return
        before = record_length(game_id)
        _go(page, admin)
        if page.locator("button:has-text('Apply default orders now')").count() == 0:
            continue  # finished meanwhile
        _click(page, "button:has-text('Apply default orders now')")
        wait_for(lambda before=before: record_length(game_id) > before, "the defaults to be applied")
    raise AssertionError(f"{game_id} did not end")


def _expected(games: list[str]) -> tuple[dict[str, tuple[int, float]], dict[str, float]]:
    """Wins and points (win 1, a shared win 1/2) and ratings, recomputed from each game's public
    outcome (the public page), in the order the games finished."""
    table: dict[str, tuple[int, float]] = {}
    ratings: dict[str, Rating] = {}
    with store.transaction(write=False) as s:
        finished = sorted(games, key=lambda g: s.exec(select(Game).where(Game.public_id == g)).one().updated_at)
        pages = [service.public_game(s, game_id) for game_id in finished]
    for public in pages:
        winners = set(public.outcome["winners"])
        names = {info.seat: info.display_name for info in public.seats}
        for seat, name in names.items():
            wins, points = table.get(name, (0, 0.0))
            won = seat in winners
            table[name] = (wins + won, points + ((1.0 if len(winners) == 1 else 0.5) if won else 0.0))
        result = GameResult(public.game_id, "doge", "", "finished",
                            tuple(SeatResult(seat, name, name) for seat, name in names.items()),
                            tuple(winners), dict(public.outcome["scores"]))
        ratings.update(rate(ratings, {names[seat]: place for seat, place in placements(result).items()}))
    return table, {name: r.ordinal for name, r in ratings.items()}


def test_a_tournament_with_sign_up_is_seated_played_and_scored(site: Site) -> None:  # noqa: F811
    page, rnd = site.page, random.Random(13)
    browser = page.context.browser
    director_id, token = _make_tournament(page, site.base)

    players = {address: _sign_in_and_sign_up(browser, site.base, address, f"Player {n + 1}")
               for n, address in enumerate(PLAYERS)}
    _go(page, f"{site.base}/director/{director_id}/{token}")
    assert f"{len(PLAYERS)} players signed up" in page.content()
    page.select_option("select[name=method]", "random")
    _click(page, "button:has-text('Seat players')")

    seats: dict[str, tuple[str, str]] = {}
    for address, player_page in players.items():
        game_id, url = _home_seat(player_page, site.base)
        seats[address] = (game_id, url)
        assert f"/play/{game_id}/" in _mailed_link(address, "seated", r"<(http[^>]+)>")  # and by mail
    games = sorted({g for g, _ in seats.values()})
    assert len(games) == GAMES and all(sum(g == x for x, _ in seats.values()) == SEATS for g in games)

    # the home's calendar lists the seat's current deadline
    address = PLAYERS[0]
    home = players[address]
    _go(home, f"{site.base}/me")
    ics_url = home.locator("a[href$='deadlines.ics']").get_attribute("href")
    ics = home.request.get(site.base + ics_url).text()
    with store.transaction(write=False) as s:
        due = s.exec(select(Game).where(Game.public_id == seats[address][0])).one().due_at
    assert f"DTSTART:{due.astimezone(UTC).strftime('%Y%m%dT%H%M%S')}Z" in ics, ics
    assert service.format_deadline(due, "UTC") in home.content()  # the home says by when, in the player's zone

    # one player of each game plays by mail; the others play what is open to them from the seat page
    # their home links to
    by_mail = {min(a for a, (g, _) in seats.items() if g == game) for game in games}
    port = free_port()
    listener = start_smtp("127.0.0.1", port, app=site.worker.app)
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=30) as smtp:
            mailed = {address: _play_by_mail(smtp, address, rnd, limit=2) for address in sorted(by_mail)}
    finally:
        listener.stop()
    assert all(mailed.values()), mailed  # every mail player had a decision to send and it was applied
    with store.transaction(write=False) as s:
        inbox = s.exec(select(InboxMessage)).all()
    assert len(inbox) == sum(mailed.values()) and all(m.status == "done" for m in inbox)
    for address, (_, url) in seats.items():
        if address not in by_mail:
            play_seat(players[address], url, rnd, limit=2)
    for game_id in games:
        _finish_with_defaults(page, site.base, game_id, token)

    # the public standings match the games' outcomes
    doc = page.request.get(f"{site.base}/tournament/{director_id}/standings.json").json()
    assert len(doc["standings"]) == len(PLAYERS) and all(g["status"] == "finished" for g in doc["games"])
    assert all(g["winners"] for g in doc["games"])
    expected, ratings = _expected(games)
    for row in doc["standings"]:
        assert row["played"] == row["finished"] == 1, row
        assert (row["wins"], row["points"]) == expected[row["name"]], row
        assert abs(row["rating"] - ratings[row["name"]]) < 0.01, (row, ratings[row["name"]])
    with store.transaction(write=False) as s:
        assert len(s.exec(select(PlayerRating).where(PlayerRating.game_type == "doge")).all()) == len(PLAYERS)
    _go(page, f"{site.base}/tournament/{director_id}")
    assert "Player 1" in page.content()
