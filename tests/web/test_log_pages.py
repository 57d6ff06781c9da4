"""Long games: pages show the latest log lines and link the whole log; the Atom feed carries the
public log, newest first."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from tests.web.forms import text_of

ATOM = "{http://www.w3.org/2005/Atom}"


def _play_rounds(ada, bob, rounds: int) -> None:
    for _ in range(rounds):
        ada.choose("bid 1")
        bob.choose("bid 0")
        ada.choose("keep")


def test_pages_show_the_latest_lines_and_link_the_whole_log(app, client, toy_game):
    admin, (ada, bob), game_id = toy_game
    _play_rounds(ada, bob, 2)  # the whole game: six public lines
    app.jinja_env.globals["recent_lines"] = 3
    whole_html = client.get(f"/game/{game_id}/log").get_data(as_text=True)
    whole = text_of(whole_html)
    public = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert "earlier ones are in the" in public and f'href="/game/{game_id}/log"' in public
    assert public.count('<li class="log-') == 3
    assert "The game starts" in whole and "The game starts" not in text_of(public)
    seat_page = ada.page()
    assert seat_page.count('<li class="log-') == 3
    assert f'href="{ada.url}/log"' in seat_page
    seat_log = client.get(ada.url + "/log").get_data(as_text=True)
    assert seat_log.count('<li class="log-own-bid"') == 2  # her own sealed bids, in her whole log
    assert '<li class="log-own-bid"' not in whole_html and whole_html.count('<li class="log-') == 6
    app.jinja_env.globals["recent_lines"] = 60
    assert "earlier ones" not in client.get(f"/game/{game_id}").get_data(as_text=True)


def test_the_feed_is_atom_with_the_public_log_newest_first(client, toy_game):
    _admin, (ada, bob), game_id = toy_game
    _play_rounds(ada, bob, 1)
    resp = client.get(f"/game/{game_id}/feed.atom")
    assert resp.status_code == 200 and resp.mimetype == "application/atom+xml"
    root = ET.fromstring(resp.get_data())
    assert root.tag == f"{ATOM}feed"
    entries = root.findall(f"{ATOM}entry")
    ids = [e.find(f"{ATOM}id").text for e in entries]
    numbers = [int(i.rsplit("-", 1)[1]) for i in ids]
    assert numbers == sorted(numbers, reverse=True) and numbers[-1] == 0
    assert entries[-1].find(f"{ATOM}title").text.startswith("#0: ")
    text = resp.get_data(as_text=True)
    assert "own-bid" not in text and "Your bid" not in text  # seat-only lines never reach the feed
    assert client.get("/game/nope/feed.atom").status_code == 404


def test_pages_carry_the_newest_entries_only_and_the_log_is_paged(app, client, toy_game, monkeypatch):
    """A page costs the same at any record length: the game and seat pages hold the newest
    LOG_ON_PAGE record entries, the log is served LOG_PAGE_ENTRIES entries a page."""
    from adjudicator.service.pages import reading

    admin, (ada, bob), game_id = toy_game
    _play_rounds(ada, bob, 2)  # record entries 0..4 (the start, then a reveal and a choice a round)
    monkeypatch.setattr(reading, "LOG_ON_PAGE", 2)
    monkeypatch.setattr(reading, "LOG_PAGE_ENTRIES", 3)
    public = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert "earlier ones are in the" in public and "The game starts" not in text_of(public)
    assert "earlier ones are in the" in ada.page()
    newest = client.get(f"/game/{game_id}/log").get_data(as_text=True)
    assert "Record entries 3–4 of 5" in text_of(newest) and 'rel="prev"' in newest and 'rel="next"' not in newest
    first = client.get(f"/game/{game_id}/log?start=0").get_data(as_text=True)
    assert "The game starts" in text_of(first) and "Record entries 0–2 of 5" in text_of(first)
    assert 'href="/game/' + game_id + '/log?start=3"' in first
    mine = client.get(ada.url + "/log?start=0").get_data(as_text=True)
    assert '<li class="log-own-bid"' in mine and '<li class="log-own-bid"' not in first
    assert client.get(f"/game/{game_id}/log?start=junk").status_code == 200  # the newest page
