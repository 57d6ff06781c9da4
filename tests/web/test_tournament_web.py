"""Tournament pages through the web: public standings (HTML, CSV, JSON) without addresses, the
director's CSRF-protected scoring form, a player's page, and a seat's iCalendar feed."""

from __future__ import annotations

import csv
import io
import re

from adjudicator import service, store
from tests.support.play import finished_duel
from tests.web.forms import forms_of


def _cup() -> service.CreatedDirector:
    with store.transaction() as s:
        return service.create_director(s, "Winter <Cup>")


def test_public_standings_exports_and_player_page(client):
    cup = _cup()
    first = finished_duel(cup, ("Ann <b>", "Bob"), emails=("ann@example.org", "bob@example.org"))
    finished_duel(cup, ("Ann <b>", "Bob"), winner_first=False, emails=("ann@example.org", "bob@example.org"))
    finished_duel(cup, ("Bob", "Ann <b>"), emails=("bob@example.org", "ann@example.org"))

    resp = client.get(f"/tournament/{cup.director_id}")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert "Winter &lt;Cup&gt;" in html and "Ann &lt;b&gt;" in html and "<b>" not in html
    assert "example.org" not in html
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>\s*<td><a href=\"/player/(\w+)\">([^<]+)</a></td>", html)
    assert [(rank, name) for rank, _, name in rows] == [("1", "Bob"), ("2", "Ann &lt;b&gt;")]

    table = list(csv.DictReader(io.StringIO(client.get(f"/tournament/{cup.director_id}/standings.csv")
                                            .get_data(as_text=True))))
    assert [(r["name"], r["played"], r["wins"], r["points"]) for r in table] == [
        ("Bob", "3", "2", "2.0"), ("Ann <b>", "3", "1", "1.0")]
    doc = client.get(f"/tournament/{cup.director_id}/standings.json").get_json()
    assert doc["scoring"] == {"toy": "wdl"} and [r["name"] for r in doc["standings"]] == ["Bob", "Ann <b>"]
    assert "example.org" not in str(doc)
    assert doc["standings"][0]["rating"] > doc["standings"][1]["rating"]

    game_page = client.get(f"/game/{first.game_id}").get_data(as_text=True)
    assert f'Part of <a href="/tournament/{cup.director_id}">Winter &lt;Cup&gt;</a>' in game_page

    player = client.get(f"/player/{rows[0][1]}").get_data(as_text=True)
    assert "Bob" in player and "Toy Auction" in player and player.count("place 1") == 2
    assert client.get("/player/0000000000000000").status_code == 404
    assert client.get("/tournament/dnothere1").status_code == 404


def test_the_director_picks_the_scoring_with_a_csrf_protected_form(client):
    cup = _cup()
    finished_duel(cup, ("Ann", "Bob"))
    dashboard = f"/director/{cup.director_id}/{cup.token}"
    html = client.get(dashboard).get_data(as_text=True)
    assert f'href="/tournament/{cup.director_id}"' in html
    form = next(f for f in forms_of(html) if "scoring-toy" in f.selects)
    assert "csrf_token" in form.fields
    # without the CSRF token nothing changes
    refused = client.post(form.action, data={"scoring-toy": "rank"})
    assert refused.status_code == 400
    wrong = client.post(form.action.replace(cup.token, "guessed"), data={**form.fields, "scoring-toy": "rank"})
    assert wrong.status_code in (403, 404)
    assert client.get(f"/tournament/{cup.director_id}/standings.json").get_json()["scoring"] == {"toy": "wdl"}
    done = form.submit(client, dashboard, **{"scoring-toy": "score"})
    assert done.status_code == 303
    assert client.get(f"/tournament/{cup.director_id}/standings.json").get_json()["scoring"] == {"toy": "score"}
    html = client.get(dashboard).get_data(as_text=True)
    assert re.search(r'<option value="score" selected>', html)
    bad = form.submit(client, dashboard, **{"scoring-toy": "elo"})
    assert bad.status_code == 400


def test_a_seat_calendar_lists_the_current_deadline_and_follows_an_extension(client):
    from icalendar import Calendar

    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, title="Cal")
    tokens = {}
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            tokens[seat] = service.join_game(s, created.game_id, seat, invite, name=seat).seat_token
    play = f"/play/{created.game_id}/p1/{tokens['p1']}"
    assert f'href="{play}/deadlines.ics"' in client.get(play).get_data(as_text=True)

    def event():
        resp = client.get(f"{play}/deadlines.ics")
        assert resp.status_code == 200 and resp.mimetype == "text/calendar"
        assert resp.headers["Cache-Control"] == "no-store"
        events = Calendar.from_ical(resp.data).walk("VEVENT")
        assert len(events) == 1
        return events[0]

    with store.transaction(write=False) as s:
        due = service.public_game(s, created.game_id).deadline.replace(microsecond=0)  # iCalendar: whole seconds
    first = event()
    assert first.decoded("dtstart") == due and "your move" in str(first["summary"])
    with store.transaction() as s:
        moved = service.extend_deadline(s, created.game_id, created.admin_token, 24).replace(microsecond=0)
    second = event()
    assert second.decoded("dtstart") == moved != due
    assert str(second["uid"]) == str(first["uid"])  # the same event, moved
    assert int(second["sequence"]) > int(first["sequence"])
    assert f"http://pbem.test/game/{created.game_id}" == str(second["url"])
    assert client.get(f"/play/{created.game_id}/p1/{tokens['p2']}/deadlines.ics").status_code in (403, 404)


def test_tournament_pages_read_in_spanish(client):
    cup = _cup()
    finished_duel(cup, ("Ann", "Bob"), emails=("ann@example.org", "bob@example.org"))
    html = client.get(f"/tournament/{cup.director_id}?lang=es").get_data(as_text=True)
    for words in ("Clasificación", "Jugador", "Victorias", "Puntos", "Ordenado por puntos", "Partidas (1)"):
        assert words in html, words
    assert "Standings" not in html and "Ranked by points" not in html
    player = re.search(r'href="/player/(\w+)"', html).group(1)
    page = client.get(f"/player/{player}?lang=es").get_data(as_text=True)
    assert "Puntuaciones" in page and "Partidas puntuadas" in page and "posición " in page
    assert "Rated games" not in page and "place " not in page
