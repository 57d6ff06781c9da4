"""Players through the web: the sign-in link's pages (the same answer for every address; expired,
reused and tampered links refused with a clear page), the home with only the player's own seats
and its calendar feed, the lobby, and a tournament's sign-up and seating."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import Game, OutboxMessage
from tests.support.play import new_game
from tests.web.forms import forms_of

CSRF = re.compile(r'name="csrf_token" value="[^"]*"')


def _ask(client, address: str):
    form = next(f for f in forms_of(client.get("/signin").get_data(as_text=True)) if "email" in f.fields)
    return form.submit(client, "/signin", email=address)


def _link(address: str) -> str:
    with store.transaction(write=False) as s:
        row = s.exec(select(OutboxMessage).where(OutboxMessage.to == address, OutboxMessage.kind == "signin")
                     .order_by(OutboxMessage.id.desc())).first()  # type: ignore[union-attr]
    return re.search(r"http://pbem.test(/signin/[^>\s]+)>", row.body).group(1)


def sign_in(client, address: str) -> None:
    _ask(client, address)
    link = _link(address.lower())
    form = forms_of(client.get(link).get_data(as_text=True))[-1]
    resp = form.submit(client, link)
    assert resp.status_code == 303 and resp.headers["Location"].endswith("/me")


def test_the_link_page_answers_the_same_for_known_and_unknown_addresses(client):
    new_game(seats=2)  # p1@example.org and p2@example.org hold seats
    known = _ask(client, "p1@example.org")
    unknown = _ask(client, "nobody@example.org")
    assert known.status_code == unknown.status_code == 200
    assert CSRF.sub("", known.get_data(as_text=True)) == CSRF.sub("", unknown.get_data(as_text=True))
    assert "sign-in link is on its way" in known.get_data(as_text=True)
    # past the bound the page still says the same, and no more mail goes out
    for _ in range(5):
        again = _ask(client, "p1@example.org")
        assert CSRF.sub("", again.get_data(as_text=True)) == CSRF.sub("", known.get_data(as_text=True))
    with store.transaction(write=False) as s:
        assert len(s.exec(select(OutboxMessage).where(OutboxMessage.to == "p1@example.org",
                                                      OutboxMessage.kind == "signin")).all()) == 3
    # a form without its CSRF token does nothing
    assert client.post("/signin", data={"email": "p2@example.org"}).status_code == 400


def test_refused_links_get_a_clear_page(client, monkeypatch):
    _ask(client, "ann@example.org")
    link = _link("ann@example.org")
    tampered = link[:-2] + ("xy" if not link.endswith("xy") else "zz")
    for url in (tampered, "/signin/garbage"):
        resp = client.get(url)
        assert resp.status_code == 403 and "is not valid (changed or cut short)" in resp.get_data(as_text=True)
    form = forms_of(client.get(link).get_data(as_text=True))[-1]
    assert form.submit(client, link).status_code == 303
    # sign-in renews the session
    fresh = forms_of(client.get("/signin").get_data(as_text=True))[-1].fields["csrf_token"]
    for resp in (client.get(link), form.submit(client, link, csrf_token=fresh)):
        assert resp.status_code == 403 and "was used already" in resp.get_data(as_text=True)

    _ask(client, "bob@example.org")
    late = _link("bob@example.org")
    from adjudicator.service.people import signin

    real_now = service.utcnow
    monkeypatch.setattr(signin, "utcnow", lambda: real_now() + timedelta(hours=1))
    resp = client.get(late)
    assert resp.status_code == 403 and "has expired" in resp.get_data(as_text=True)


def test_the_home_lists_only_the_players_own_seats_with_their_deadlines(client):
    game = new_game(seats=3)
    assert client.get("/me").status_code == 303  # not signed in: to the sign-in page
    sign_in(client, "P2@example.org")
    html = client.get("/me").get_data(as_text=True)
    assert html.count("/play/") == 1 and "p2" in html
    assert "p1@example.org" not in html and "p3@example.org" not in html
    seat_link = re.search(r'href="(/play/[^"]+)"', html).group(1)
    assert seat_link.startswith(f"/play/{game.game_id}/p2/") and game.tokens["p2"] not in seat_link
    assert client.get(seat_link).status_code == 200  # the home's own link opens the seat page
    assert client.get(f"/play/{game.game_id}/p2/{game.tokens['p2']}").status_code == 200  # and the old one still
    assert client.get(seat_link.replace("/p2/", "/p1/")).status_code == 403  # not another seat's
    with store.transaction(write=False) as s:
        due = s.exec(select(Game).where(Game.public_id == game.game_id)).one().due_at
    assert service.format_deadline(due, "UTC") in html
    # the player's zone
    form = next(f for f in forms_of(html) if "timezone" in f.selects)
    form.submit(client, "/me", timezone="Europe/Madrid", name="Pat")
    html = client.get("/me").get_data(as_text=True)
    assert service.format_deadline(due, "Europe/Madrid") in html and "Pat" in html
    ics_url = re.search(r'href="(/me/[^"]+/deadlines.ics)"', html).group(1)
    ics = client.get(ics_url).get_data(as_text=True)
    assert f"UID:deadline-{game.game_id}-p2@pbem" in ics and ics.count("BEGIN:VEVENT") == 1
    assert due.strftime("%Y%m%dT%H%M%S") in ics
    assert client.get(ics_url.replace("/me/", "/me/x")).status_code == 403
    assert "Your move:" in html and "Round 1: bid 0-3" in html
    game.submit("p2", "bid 1")
    assert "Your sealed order is in" in client.get("/me").get_data(as_text=True)
    player_link = re.search(r'href="(/player/[^"]+)"', html).group(1)  # the public page of the same player
    assert game.game_id in client.get(player_link).get_data(as_text=True)


def test_a_signed_in_player_takes_a_lobby_seat_and_signs_up_for_a_tournament(client):
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, title="Open duel")
        cup = service.create_director(s, "Cup")
    assert client.post(f"/admin/{created.game_id}/wrong/lobby").status_code == 400  # no CSRF token
    lobby = client.get("/lobby").get_data(as_text=True)
    assert "Open duel" not in lobby
    with store.transaction() as s:
        service.open_in_lobby(s, created.game_id, created.admin_token)
        service.set_signup(s, cup.director_id, cup.token, True)
    lobby = client.get("/lobby").get_data(as_text=True)
    assert "Open duel" in lobby and "Cup" in lobby and "Take seat" not in lobby  # only when signed in
    assert "72 hours a move · language English" in lobby and "Rounds: 3" in lobby
    sign_in(client, "ann@example.org")
    lobby = client.get("/lobby").get_data(as_text=True)
    take = next(f for f in forms_of(lobby) if f.action.endswith("/p1"))
    resp = take.submit(client, "/lobby")
    assert resp.status_code == 303 and f"/play/{created.game_id}/p1/" in resp.headers["Location"]
    again = next(f for f in forms_of(client.get("/lobby").get_data(as_text=True)) if f.action.endswith("/p2"))
    assert "already" in again.submit(client, "/lobby", follow=True).get_data(as_text=True)
    signup = next(f for f in forms_of(client.get("/lobby").get_data(as_text=True)) if "signup" in f.action)
    signup.submit(client, "/lobby")
    home = client.get("/me").get_data(as_text=True)
    assert "Open duel" in home and "signed up, waiting to be seated" in home


def test_the_players_pages_speak_spanish(client):
    assert "Envíame un enlace de entrada" in client.get("/signin?lang=es").get_data(as_text=True)
    refused = client.get("/signin/garbage?lang=es").get_data(as_text=True)
    assert "Este enlace de entrada no es válido" in refused
    lobby = client.get("/lobby?lang=es").get_data(as_text=True)
    assert "Partidas abiertas" in lobby and "Torneos con inscripción abierta" in lobby


def test_a_signed_in_player_joins_by_invite_under_the_verified_address(client):
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, title="Invited duel")
    invite = f"/join/{created.game_id}/p1/{created.invites['p1']}"
    assert 'value="ann@example.org"' not in client.get(invite).get_data(as_text=True)  # not signed in yet
    sign_in(client, "Ann@Example.org")
    home_form = next(f for f in forms_of(client.get("/me").get_data(as_text=True)) if "timezone" in f.selects)
    home_form.submit(client, "/me", timezone="Europe/Madrid", name="Ann")
    page = client.get(invite).get_data(as_text=True)
    assert 'value="ann@example.org"' in page and 'value="Ann"' in page and 'value="Europe/Madrid"' in page
    assert "your verified address ann@example.org is filled in" in page
    resp = next(f for f in forms_of(page) if "entropy" in f.fields).submit(client, invite)
    assert resp.status_code == 303 and f"/play/{created.game_id}/p1/" in resp.headers["Location"]
    with store.transaction(write=False) as s:
        seat = service.public_game(s, created.game_id).seats[0]
    assert seat.display_name == "Ann"
    home = client.get("/me").get_data(as_text=True)
    assert "Invited duel" in home and f"/play/{created.game_id}/p1/" in home  # the seat is on the home


def test_link_requests_are_bounded_per_client_and_the_page_says_the_same(client, monkeypatch):
    from adjudicator.service.people import signin

    monkeypatch.setattr(signin, "LINKS_PER_CLIENT_HOUR", 2)
    pages = [CSRF.sub("", _ask(client, f"c{n}@example.org").get_data(as_text=True)) for n in range(4)]
    assert len(set(pages)) == 1 and "sign-in link is on its way" in pages[0]
    with store.transaction(write=False) as s:
        mailed = {r.to for r in s.exec(select(OutboxMessage).where(OutboxMessage.kind == "signin"))}
    assert mailed == {"c0@example.org", "c1@example.org"}
    other = client.application.test_client()  # another client's requests are not held back
    other.environ_base["REMOTE_ADDR"] = "192.0.2.7"
    assert _ask(other, "c3@example.org").status_code == 200 and len(_mailed_links_to("c3@example.org")) == 1


def _mailed_links_to(address: str) -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.to == address, OutboxMessage.kind == "signin")))


@pytest.mark.parametrize("hops", [0, 1])
def test_behind_a_proxy_the_bound_is_per_forwarded_client_and_a_forged_header_is_ignored(app, monkeypatch, hops):
    """Behind a reverse proxy every request comes from the proxy's address: with PBEM_PROXY_HOPS the
    client's own (X-Forwarded-For) counts, so one client cannot use up everyone's sign-in requests;
    without it the header is ignored, so a client cannot pick a new address per request."""
    from adjudicator.service.people import signin
    from web import create_app

    monkeypatch.setattr(signin, "LINKS_PER_CLIENT_HOUR", 1)
    proxied = create_app({**app.config, "PBEM_PROXY_HOPS": hops})
    first, second = proxied.test_client(), proxied.test_client()
    for client, address in ((first, "198.51.100.4"), (second, "203.0.113.9")):
        client.environ_base.update(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR=address)
    _ask(first, "d0@example.org")
    _ask(second, "d1@example.org")
    mailed = {r.to for r in _signin_rows()}
    assert mailed == ({"d0@example.org", "d1@example.org"} if hops else {"d0@example.org"})


def _signin_rows() -> list[OutboxMessage]:
    with store.transaction(write=False) as s:
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.kind == "signin")))


def test_a_home_without_a_zone_of_its_own_shows_deadlines_in_the_zone_given_at_the_seat(client):
    """Issue 25: a New York seat whose player set no zone on the home is not shown UTC."""
    from adjudicator.store import Seat

    game = new_game(seats=2)
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == game.game_id)).one()
        row = s.exec(select(Seat).where(Seat.game_id == g.id, Seat.seat == "p2")).one()
        row.timezone = "America/New_York"
        s.add(row)
        due = g.due_at
    sign_in(client, "p2@example.org")
    html = client.get("/me").get_data(as_text=True)
    assert service.format_deadline(due, "America/New_York") in html
    assert "Deadlines in your time zone (America/New_York)" in html
