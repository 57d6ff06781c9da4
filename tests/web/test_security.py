"""CSRF, secret links, headers, and what each page may show."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import create_game, join
from tests.web.forms import forms_of, text_of
from tests.web.secretgame import SECRET_MARKER, private_marker, register_secretive

BAD_LINK_WORDS = "This link is not valid"


def test_post_without_csrf_token_is_refused(client, toy_game):
    _, (ada, _), game_id = toy_game
    form = ada.order_form()
    data = {k: v for k, v in form.fields.items() if k != "csrf_token"}
    data["order"] = '{"bid":2}'
    resp = client.post(ada.url, data=data)
    assert resp.status_code == 400
    assert "security token" in text_of(resp.get_data(as_text=True))
    assert "Your sealed order so far" not in ada.page()  # nothing was applied
    # a wrong token is refused too, and so are the other forms
    data["csrf_token"] = "forged"
    assert client.post(ada.url, data=data).status_code == 400
    assert client.post("/new", data={"game": "toy", "seats": "2"}).status_code == 400


def test_every_post_form_carries_a_csrf_token(client, toy_game):
    admin, (ada, _), _ = toy_game
    pages = [client.get("/new?game=toy").get_data(as_text=True), ada.page(),
             client.get(admin).get_data(as_text=True)]
    forms = [f for html in pages for f in forms_of(html) if f.method == "post"]
    assert len(forms) >= 6
    assert all(f.fields.get("csrf_token") for f in forms)


@pytest.mark.parametrize("kind", ["play", "join", "admin"])
def test_bad_tokens_are_refused_without_revealing_anything(client, toy_game, kind):
    admin, (ada, _), game_id = toy_game
    if kind == "play":
        urls = [f"/play/{game_id}/p1/wrong-token", f"/play/{game_id}/p9/wrong-token",
                "/play/nosuchgame/p1/wrong-token"]
    elif kind == "join":
        urls = [f"/join/{game_id}/p1/wrong-token", f"/join/{game_id}/p9/wrong-token",
                "/join/nosuchgame/p1/wrong-token"]
    else:
        urls = [f"/admin/{game_id}/wrong-token", "/admin/nosuchgame/wrong-token"]
    bodies = []
    for url in urls:
        resp = client.get(url)
        assert resp.status_code in (403, 404)
        html = resp.get_data(as_text=True)
        text = text_of(html)
        assert BAD_LINK_WORDS in text
        for leak in ("Ada", "Bob", "bid", "Receipt", "csrf_token", "p1", "p9"):
            assert leak not in text, (url, leak)
        assert resp.headers["Referrer-Policy"] == "no-referrer"
        bodies.append(re.sub(r"Error \d+", "", text))
    assert len(set(bodies)) == 1  # the same words whatever was wrong
    # POSTs with a bad token are refused the same way (CSRF token present and valid)
    form = ada.order_form()
    bad = urls[0] if kind == "play" else f"/play/{game_id}/p1/wrong-token"
    resp = client.post(bad, data={**form.fields, "order": '{"bid":1}'})
    assert resp.status_code in (403, 404)
    assert BAD_LINK_WORDS in text_of(resp.get_data(as_text=True))


def test_replaced_seat_link_stops_working(client, toy_game):
    admin, (ada, _), _ = toy_game
    form = [f for f in forms_of(client.get(admin).get_data(as_text=True))
            if f.fields.get("action") == "replace"][0]
    resp = form.submit(client, admin, seat="p1")
    assert resp.status_code == 200
    assert client.get(ada.url).status_code == 403


def test_security_headers(client, toy_game):
    _, (ada, _), game_id = toy_game
    for url in ("/", f"/game/{game_id}", ada.url):
        resp = client.get(url)
        csp = resp.headers["Content-Security-Policy"]
        assert "default-src 'none'" in csp and "script-src 'self'" in csp and "unsafe" not in csp
        assert "frame-ancestors 'none'" in csp
        assert resp.headers["X-Content-Type-Options"] == "nosniff"
        assert resp.headers["Referrer-Policy"] == "no-referrer"
        html = resp.get_data(as_text=True)
        # the only script is our own static file: no inline script for an injection to ride on
        assert re.findall(r"<script[^>]*>", html) == [
            re.search(r'<script src="/static/enhance.js\?v=\w+" defer>', html).group(0)]
    assert client.get(ada.url).headers["Cache-Control"] == "no-store"


def _play_secretive(client):
    register_secretive()
    _, admin, invites = create_game(client, game="secretive", seats=3)
    players = [join(client, u, n) for u, n in zip(invites, ["Ann", "Ben", "Cy"], strict=True)]
    game_id = admin.split("/")[2]
    return admin, players, game_id


def test_pages_never_show_another_seats_private_data(client):
    admin, (p1, p2, p3), game_id = _play_secretive(client)
    def get(url: str) -> str:
        resp = client.get(url)
        assert resp.status_code == 200, url
        return resp.get_data(as_text=True)

    pages = {"public": get(f"/game/{game_id}"), "index": get("/"), "admin": get(admin),
             "whole log": get(f"/game/{game_id}/log"), "feed": get(f"/game/{game_id}/feed.atom"),
             "p1": p1.page(), "p2": p2.page(), "p3": p3.page(),
             "p1 log": get(p1.url + "/log"), "p2 log": get(p2.url + "/log"), "p3 log": get(p3.url + "/log")}
    for name, html in pages.items():
        assert SECRET_MARKER not in html, name
        for seat in ("p1", "p2", "p3"):
            if name.split()[0] != seat:
                assert private_marker(seat) not in html, (name, seat)
        if name.endswith("log") and name != "whole log":
            assert private_marker(name.split()[0]) in html  # a seat's whole log has its own lines
    # each seat sees its own private note (board, private box and its own log line)
    for seat in ("p1", "p2", "p3"):
        assert pages[seat].count(private_marker(seat)) >= 2
    # the export never holds the private or secret data of a running game either
    export = client.get(f"/game/{game_id}/export.json").get_data(as_text=True)
    assert SECRET_MARKER not in export
    assert not any(private_marker(s) in export for s in ("p1", "p2", "p3"))


def test_game_text_is_sanitised(client):
    _, (p1, _, _), game_id = _play_secretive(client)
    for html in (client.get(f"/game/{game_id}").get_data(as_text=True), p1.page()):
        assert "<script>alert(1)</script>" not in html
        assert "javascript:" not in html


def test_user_input_is_escaped(client):
    _, admin, invites = create_game(client, seats=2, title="<b>Bold</b> & <script>x()</script>")
    game_id = admin.split("/")[2]
    join(client, invites[0], "<img src=x onerror=alert(1)>")
    for url in ("/", f"/game/{game_id}"):
        html = client.get(url).get_data(as_text=True)
        assert "<script>x()" not in html and "<img src=x" not in html
        assert "&lt;b&gt;Bold&lt;/b&gt;" in html


def test_seed_is_secret_until_the_end(client, app):
    from sqlmodel import select

    from adjudicator import store
    from adjudicator.store import Game

    admin, (p1, p2, p3), game_id = _play_secretive(client)
    with store.transaction(write=False) as s:
        seed = s.exec(select(Game).where(Game.public_id == game_id)).one().server_seed
    for html in (client.get(f"/game/{game_id}").get_data(as_text=True), p1.page(),
                 client.get(f"/game/{game_id}/export.json").get_data(as_text=True)):
        assert seed not in html
    for p in (p1, p2, p3):
        assert p.command("pass").status_code == 200
    public = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert seed in public
    assert "everybody passed" in text_of(public)
