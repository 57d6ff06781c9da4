"""Issue 25 on the pages: the version a live page polls, whom a seat waits on and until when, the
rules pages with their anchors and the links to them, and a seat's private notes."""

from __future__ import annotations

import re

from tests.web.forms import forms_of, text_of


def _version(client, url: str) -> str:
    resp = client.get(url)
    assert resp.status_code == 200, resp.status_code
    return resp.get_json()["version"]


def test_the_versions_change_with_a_move_and_the_seat_version_needs_the_seat_link(client, toy_game):
    _admin, (ada, _bob), game_id = toy_game
    public, mine = _version(client, f"/game/{game_id}/version"), _version(client, ada.url + "/version")
    assert f'data-version="{mine}"' in ada.page()  # the page names the version it was built at
    assert f'data-version="{public}"' in client.get(f"/game/{game_id}").get_data(as_text=True)
    wrong = client.get(re.sub(r"/[^/]+$", "/not-the-token", ada.url) + "/version")
    assert wrong.status_code == 403 and "version" not in wrong.get_data(as_text=True)
    ada.choose("bid 1")  # a sealed order: its receipt is public, so both versions move
    assert _version(client, f"/game/{game_id}/version") != public
    assert _version(client, ada.url + "/version") != mine


def test_private_press_changes_only_the_versions_of_its_sender_and_recipient(client, app):
    from tests.web.conftest import create_game, join

    _html, _admin, invites = create_game(client, seats=3, **{"opt-rounds": "2"})
    ada, bob, cyd = (join(client, url, name) for url, name in zip(invites, ["Ada", "Bob", "Cyd"], strict=True))
    before = {p: _version(client, p.url + "/version") for p in (ada, bob, cyd)}
    form = [f for f in forms_of(ada.page()) if f.fields.get("action") == "press"][0]
    form.submit(client, ada.url, follow=True, to="p2", text="between us")
    after = {p: _version(client, p.url + "/version") for p in (ada, bob, cyd)}
    assert after[ada] != before[ada] and after[bob] != before[bob]
    assert after[cyd] == before[cyd]  # a third seat cannot tell that the two spoke


def test_a_seat_is_told_whom_the_game_waits_on_and_until_when(client, toy_game):
    _admin, (ada, bob), _game_id = toy_game
    ada.choose("bid 3")  # her sealed bid is in: she waits on Bob
    assert "The game waits on p2 (Bob) until" in text_of(ada.page())
    bob.choose("bid 1")  # revealed: Ada's unique highest bid wins, she decides; Bob has nothing to decide
    assert ada.order_form(ada.compose_to("keep")) is not None
    text = text_of(bob.page())
    assert "Nothing to decide for you right now" in text
    assert re.search(r"The game waits on p1 \(Ada\) until \w{3} \d+ \w+ \d{4}, \d\d:\d\d UTC \(", text), text


def test_each_game_has_a_rules_page_with_card_rule_and_decision_anchors(client):
    page = client.get("/rules/1960")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert '<tr id="card-14">' in html and "Gathering Momentum in the South" in html
    assert '<tr id="decision-cp">' in html and 'id="rulebook"' in html
    assert re.search(r'<tr id="rule-[a-z0-9-]+">', html)
    assert 'href="#rulebook"' in html  # the docs' link to their rules file, within the page
    for game in ("china", "doge", "founding-fathers"):
        assert 'id="decision-' in client.get(f"/rules/{game}").get_data(as_text=True), game
    index = client.get("/rules").get_data(as_text=True)
    assert all(f'href="/rules/{g}"' in index for g in ("1960", "china", "doge", "founding-fathers"))
    assert client.get("/rules/no-such-game").status_code == 404


def test_the_rules_pages_render_through_the_sanitiser(client, monkeypatch, tmp_path):
    from web import rules

    (tmp_path / "1960.md").write_text("# Hi\n\n<script>alert(1)</script>\n\n| # | card |\n|---|---|\n| 7 | A |\n")
    monkeypatch.setattr(rules, "DOCS", tmp_path)
    rules.rules_page.cache_clear()
    try:
        html = client.get("/rules/1960").get_data(as_text=True)
    finally:
        rules.rules_page.cache_clear()
    assert "<script>alert" not in html and '<tr id="card-7">' in html


def test_the_wheel_packages_the_game_docs():
    import tomllib
    from pathlib import Path

    from web import rules

    assert all((rules.DOCS / f"{g}.md").is_file() for g in ("1960", "china", "doge", "founding-fathers"))
    assert rules.DOCS.resolve() == (Path(__file__).resolve().parents[2] / "docs" / "games")
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    assert "*.md" in data["tool"]["setuptools"]["package-data"]["*"]


def test_the_seat_page_links_the_rules_of_its_game(client, toy_game, monkeypatch):
    from web import rules

    monkeypatch.setattr(rules, "rules_page", lambda game: _toy_rules() if game == "toy" else None)
    _admin, (ada, _bob), _game_id = toy_game
    html = ada.page()
    assert 'href="/rules/toy"' in html  # the game's rules, from every seat page
    assert 'href="/rules/toy#decision-bid">Rules for this decision' in html


def _toy_rules():
    from markupsafe import Markup

    from web.rules import Anchor, RulesPage

    return RulesPage("toy", "Toy", Markup(""), (), {"decision-bid": Anchor("decision-bid", "bid")})


def test_cards_named_by_a_decision_link_to_their_rows():
    from web import create_app
    from web.rules import cards_named

    app = create_app({"TESTING": True, "DATABASE_URL": "sqlite://", "SECRET_KEY": "x"})
    with app.test_request_context():
        lines = ["play 20 cp — #20 Nixon Egged in Michigan (2 CP)", "pass", "play 3 event — #3 x"]
        assert cards_named("1960", lines) == [
            ("#3 Gallup Poll", "/rules/1960#card-3"), ("#20 Nixon Egged in Michigan", "/rules/1960#card-20")]
        assert cards_named("doge", ["#3"]) == []  # Doge's docs list no cards


def test_private_notes_are_saved_and_shown_to_their_seat_only(client, toy_game):
    _admin, (ada, bob), game_id = toy_game
    form = [f for f in forms_of(ada.page()) if "notes" in f.textareas][0]
    assert "csrf_token" in form.fields and form.fields["csrf_token"]
    saved = form.submit(client, ada.url, follow=True, notes="Bob bluffs on round 2 <b>really</b>")
    assert "Notes saved." in text_of(saved.get_data(as_text=True))
    assert "Bob bluffs on round 2 &lt;b&gt;really&lt;/b&gt;" in ada.page()  # as text, escaped
    for url in (bob.url, bob.url + "/mail", bob.url + "/log", f"/game/{game_id}", f"/game/{game_id}/log",
                f"/game/{game_id}/feed.atom"):
        assert "bluffs" not in client.get(url).get_data(as_text=True), url


def test_too_long_notes_are_refused_whole_and_kept_in_the_form(client, toy_game):
    _admin, (ada, _bob), _game_id = toy_game
    form = [f for f in forms_of(ada.page()) if "notes" in f.textareas][0]
    form.submit(client, ada.url, follow=True, notes="first plan")
    too_long = "y" * 5_001
    refused = form.submit(client, ada.url, notes=too_long)
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert "at most 5000 characters (these have 5001)" in text_of(html) and too_long in html
    assert "first plan" in ada.page()  # the saved notes are unchanged


def test_notes_without_the_csrf_token_are_refused(app, toy_game):
    _admin, (ada, _bob), _game_id = toy_game
    fresh = app.test_client()  # another browser: no session, no token
    assert fresh.post(ada.url + "/notes", data={"notes": "forged"}).status_code == 400
    assert "forged" not in ada.page()


def test_the_log_pages_show_each_entrys_time(client, toy_game):
    _admin, (ada, bob), game_id = toy_game
    ada.choose("bid 3")
    bob.choose("bid 1")
    for url in (f"/game/{game_id}/log", ada.url + "/log", ada.url, f"/game/{game_id}"):
        assert re.search(r'<time class="log-time" datetime="[^"]+">\d+ \w+, \d\d:\d\d UTC</time>',
                         client.get(url).get_data(as_text=True)), url


def test_a_finished_games_seat_page_does_not_say_civil_disorder(client, toy_game):
    from sqlmodel import select

    from adjudicator import store
    from adjudicator.store import Game, Seat

    _admin, (ada, _bob), game_id = toy_game
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        row = s.exec(select(Seat).where(Seat.game_id == g.id, Seat.seat == "p1")).one()
        row.disorder = True
        s.add(row)
    assert "civil disorder" in text_of(ada.page())  # while the game runs, it is told
    with store.transaction() as s:
        g = s.exec(select(Game).where(Game.public_id == game_id)).one()
        g.status = "finished"
        s.add(g)
    assert "civil disorder" not in text_of(ada.page())
