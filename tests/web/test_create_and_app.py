"""Game creation form checks, app configuration, public pages of pending games."""

from __future__ import annotations

import os

from tests.web.conftest import create_game
from tests.web.forms import forms_of, text_of


def _form(client, game="toy"):
    html = client.get(f"/new?game={game}").get_data(as_text=True)
    return [f for f in forms_of(html) if f.method == "post"][0]


def test_create_refuses_bad_input_in_plain_words(client):
    form = _form(client)
    resp = form.submit(client, "/new", seats="9", timezone="Mars/Olympus", step_hours="soon",
                       max_absence_days="400", **{"opt-rounds": "99"})
    assert resp.status_code == 400
    text = text_of(resp.get_data(as_text=True))
    assert "Toy Auction is played by 2 to 4 players" in text
    assert "'Mars/Olympus' is not an IANA time zone name" in text
    assert "give a number of hours" in text
    assert "Option Rounds: pick one of the listed values" in text
    assert "Absences: a whole number of days from 0" in text
    # nothing was created
    assert "No game is waiting for players" in text_of(client.get("/").get_data(as_text=True))


def test_create_with_policy_shows_deadline_in_the_policy_time_zone(client):
    _, admin, invites = create_game(client, seats=2, timezone="Asia/Tokyo", step_hours="1.5",
                                    reminder_hours="0.5", title="Tokyo game")
    from tests.web.conftest import join

    ada = join(client, invites[0], "Ada")
    join(client, invites[1], "Bob")
    text = text_of(ada.page())
    assert "JST" in text  # the policy's zone, the seat's own (it chose none)
    assert "Asia/Tokyo" in text and "UTC" not in text  # every time on the page in the viewer's zone (issue 25)
    assert "1 h 29 min left" in text or "1 h 30 min left" in text


def test_unknown_game_is_refused(client):
    form = _form(client)
    resp = form.submit(client, "/new", game="chess")
    assert resp.status_code == 400


def test_pending_game_public_page_and_export(client):
    _, admin, _ = create_game(client, seats=2, title="Soon")
    game_id = admin.split("/")[2]
    text = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert "Waiting for players to join" in text
    assert "Seed commitment" in text
    resp = client.get(f"/game/{game_id}/export.json")
    assert resp.status_code == 409
    assert "has not started yet" in text_of(resp.get_data(as_text=True))


def test_unknown_pages_are_404_in_plain_words(client):
    resp = client.get("/game/nosuchgame")
    assert resp.status_code == 404
    assert "there is no game" in text_of(resp.get_data(as_text=True))
    resp = client.get("/nowhere")
    assert resp.status_code == 404
    assert "There is no page at this address" in text_of(resp.get_data(as_text=True))


def test_secret_key_is_generated_once_and_kept(tmp_path, monkeypatch):
    from web import create_app

    monkeypatch.delenv("SECRET_KEY", raising=False)
    config = {"DATABASE_URL": f"sqlite:///{tmp_path / 'k.sqlite3'}", "PBEM_VAR_DIR": str(tmp_path / "var")}
    try:
        first = create_app(config)
        second = create_app(config)
    finally:
        from adjudicator import store

        store.configure(None)
    key_file = tmp_path / "var" / "secret_key"
    assert first.config["SECRET_KEY"] == second.config["SECRET_KEY"]
    assert key_file.read_text().strip() == first.config["SECRET_KEY"]
    assert len(first.config["SECRET_KEY"]) >= 40
    assert oct(os.stat(key_file).st_mode & 0o777) == "0o600"
    assert first.config["WTF_CSRF_ENABLED"] is True


def test_markdown_is_sanitised():
    from web.markdown import render_markdown

    html = str(render_markdown("**hi** <script>x()</script> [a](javascript:alert(1)) <img src=x onerror=y>"))
    assert "<strong>hi</strong>" in html
    assert "<script" not in html and "javascript:" not in html and "onerror" not in html
    assert render_markdown(None) == ""


def test_doge_year_limit_shows_in_words_and_is_off_by_default(client):
    # Issue 14: the year limit is no rule of Doge; the form says so and leaves it off.
    html = client.get("/new?game=doge").get_data(as_text=True)
    text = text_of(html)
    assert "Year limit (adjudicator safety end, not in the rulebook)" in text
    assert "max_years" not in text  # the label replaces the bare option name
    select = html[html.index('name="opt-max_years"'):]
    select = select[: select.index("</select>")]
    assert '<option value="0" selected>no year limit (rulebook end only)</option>' in select
    assert '<option value="30">30</option>' in select


def test_game_page_words_the_doge_year_limit(client):
    _, admin, _ = create_game(client, game="doge", seats=3, title="Rulebook Doge")
    game_id = admin.split("/")[2]
    text = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert "Year limit (adjudicator safety end, not in the rulebook) no year limit (rulebook end only)" in text
    _, admin, _ = create_game(client, game="doge", seats=3, title="Friendly Doge", **{"opt-max_years": "20"})
    text = text_of(client.get(f"/game/{admin.split('/')[2]}").get_data(as_text=True))
    assert "Year limit (adjudicator safety end, not in the rulebook) 20" in text


def test_options_are_named_in_words_on_the_form_and_the_public_page(client):
    """Options read as words ("Restricted positioning"), not as code names with underscores."""
    html = client.get("/new?game=1960").get_data(as_text=True)
    text = text_of(html)
    assert "Restricted positioning" in text and "Vice presidents" in text
    assert "restricted_positioning" not in text and 'name="opt-restricted_positioning"' in html
    _html, admin, _invites = create_game(client, game="1960", seats=2, **{"opt-vice_presidents": "1"})
    public = text_of(client.get("/game/" + admin.split("/")[2]).get_data(as_text=True))
    assert "Vice presidents on" in public and "vice_presidents" not in public


def test_the_creator_chooses_whether_a_substitute_plays_seats_in_civil_disorder(client):
    from sqlmodel import select

    from adjudicator import store
    from adjudicator.store import Game

    form = _form(client)
    assert "A substitute plays seats in civil disorder" in text_of(client.get("/new?game=toy").get_data(as_text=True))
    assert "substitutes" in form.fields
    create_game(client, seats=2, title="with", substitutes="")
    create_game(client, seats=2, title="without", substitutes="0")
    with store.transaction(write=False) as s:
        chosen = {g.title: g.substitutes for g in s.exec(select(Game))}
    assert chosen == {"with": True, "without": False}


def test_a_practice_game_from_the_form_goes_straight_to_the_players_seat(client):
    """Issue 28: a player creates a game with the substitute in every other seat; it starts at once."""
    form = _form(client)
    assert "Practice: I play one seat and the substitute plays every other seat" in text_of(
        client.get("/new?game=toy").get_data(as_text=True))
    resp = form.submit(client, "/new", seats="3", practice="1", practice_name="Ana", practice_seat="p2")
    assert resp.status_code == 303
    seat_page = resp.headers["Location"]
    assert "/play/" in seat_page and "/p2/" in seat_page
    text = text_of(client.get(seat_page).get_data(as_text=True))
    assert "Ana" in text and "Substitute" in text
    wrong = _form(client).submit(client, "/new", seats="2", practice="1", practice_seat="p9")
    assert wrong.status_code == 400 and "there is no seat 'p9'" in text_of(wrong.get_data(as_text=True))
    both = _form(client).submit(client, "/new", seats="2", practice="1", lobby="1")
    assert both.status_code == 400 and "has none for the lobby" in text_of(both.get_data(as_text=True))


def test_an_open_game_gets_a_fill_time_from_the_form(client):
    from sqlmodel import select

    from adjudicator import store
    from adjudicator.store import LobbyGame

    resp = _form(client).submit(client, "/new", seats="2", lobby="1", fill_hours="48")
    assert resp.status_code == 200
    with store.transaction(write=False) as s:
        row = s.exec(select(LobbyGame)).one()
    assert row.fill_at is not None
    closed = _form(client).submit(client, "/new", seats="2", fill_hours="48")
    assert closed.status_code == 400 and "only an open game" in text_of(closed.get_data(as_text=True))
