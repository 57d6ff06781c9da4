"""A tournament director through the web: make the link, create games in the tournament from it,
see them listed, moderate one with the same link; a wrong link shows nothing."""

from __future__ import annotations

import re

from tests.web.forms import forms_of, text_of


def test_a_director_creates_and_moderates_tournament_games(client):
    html = client.get("/director/new").get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    assert "csrf_token" in form.fields
    created = form.submit(client, "/director/new", name="Autumn  Cup")
    assert created.status_code == 200
    body = created.get_data(as_text=True)
    dashboard = re.search(r'value="http://pbem\.test(/director/[^"]+)"', body).group(1)
    assert created.headers["Cache-Control"] == "no-store"

    page = client.get(dashboard).get_data(as_text=True)
    assert "Autumn Cup" in page and "No games yet" in page
    new_link = re.search(r'href="(/director/[^"]+/new\?game=toy)"', page).group(1).replace("&amp;", "&")
    form_html = client.get(new_link).get_data(as_text=True)
    assert "This game joins" in form_html
    form = [f for f in forms_of(form_html) if f.method == "post"][0]
    made = form.submit(client, "/new", seats="2", title="Table 1")
    assert made.status_code == 200, text_of(made.get_data(as_text=True))
    game_id = re.search(r"/game/(g[0-9a-z]+)", made.get_data(as_text=True)).group(1)

    page = client.get(dashboard).get_data(as_text=True)
    assert "Table 1" in page and "2 seat(s) open" in page
    token = dashboard.rsplit("/", 1)[1]
    moderate = f"/admin/{game_id}/{token}"
    assert f'href="{moderate}"' in page
    assert client.get(moderate).status_code == 200  # the director link opens the moderator page

    wrong = dashboard[:-3] + "xyz"
    resp = client.get(wrong)
    assert resp.status_code in (403, 404) and "Table 1" not in resp.get_data(as_text=True)
    forged = form.submit(client, "/new", seats="2", title="Sneaky", director_token="guess")
    assert forged.status_code in (403, 404)
    assert "Sneaky" not in client.get(dashboard).get_data(as_text=True)


def test_a_director_needs_a_name(client):
    html = client.get("/director/new").get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    resp = form.submit(client, "/director/new", name="  ")
    assert resp.status_code == 400 and "name" in text_of(resp.get_data(as_text=True))
