"""The moderator tools of issue 13 through the web: forms with CSRF, confirmation for destructive
tools, each action in the log; the director's broadcast to the whole tournament."""

from __future__ import annotations

import re

from tests.web.forms import forms_of, text_of


def _form(client, url, action):
    forms = [f for f in forms_of(client.get(url).get_data(as_text=True)) if f.fields.get("action") == action]
    assert forms, f"no {action} form"
    assert forms[0].fields.get("csrf_token")
    return forms[0]


def test_a_rollback_needs_its_confirmation_and_then_shows_in_the_log(client, toy_game):
    admin, (ada, bob), game_id = toy_game
    ada.choose("bid 2")
    bob.choose("bid 0")  # entry 1; Ada wins the round and must choose
    form = _form(client, admin, "rollback")
    refused = form.submit(client, admin, to="0", reason="Bob's bid was a typo")
    assert refused.status_code == 400 and "Tick the confirmation box" in text_of(refused.get_data(as_text=True))
    assert "rolled the game back" not in text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    done = form.submit(client, admin, follow=True, to="0", reason="Bob's bid was a typo", confirm="yes")
    assert done.status_code == 200
    page = text_of(done.get_data(as_text=True))
    assert "The game was rolled back" in page and "#2" in page
    public = text_of(client.get(f"/game/{game_id}/log").get_data(as_text=True))
    assert "rolled the game back to record entry 0" in public and "Bob's bid was a typo" in public
    assert "[undone by a rollback] Round 1 bids" in public
    wrong = form.submit(client, admin, to="5", reason="x", confirm="yes")
    assert wrong.status_code == 400 and "roll back to an entry from 0 to" in text_of(wrong.get_data(as_text=True))


def test_without_a_csrf_token_no_tool_runs(client, toy_game):
    admin, _, game_id = toy_game
    resp = client.post(admin, data={"action": "broadcast", "text": "hi"})
    assert resp.status_code in (400, 403)
    assert "sent a message" not in text_of(client.get(f"/game/{game_id}").get_data(as_text=True))


def test_shorten_broadcast_remove_and_declare_from_the_moderator_page(client, toy_game):
    admin, (ada, bob), game_id = toy_game
    assert _form(client, admin, "shorten").submit(client, admin, hours="12").status_code == 303
    short = _form(client, admin, "shorten").submit(client, admin, hours="100000")
    assert short.status_code == 400
    assert _form(client, admin, "broadcast").submit(client, admin, text="Be **kind**").status_code == 303
    assert "Be kind" in text_of(ada.page())  # as press on the seat page, Markdown rendered
    removed = _form(client, admin, "remove").submit(client, admin, seat="p2", reason="cheating", confirm="yes")
    assert removed.status_code == 200
    body = removed.get_data(as_text=True)
    assert re.search(r"/join/" + game_id + r"/p2/", body), "the replacement's invite link is shown"
    assert client.get(bob.url).status_code == 403
    declared = _form(client, admin, "declare").submit(client, admin, winners="p1", reason="p2 left", confirm="yes")
    assert declared.status_code == 303
    public = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    for sentence in ("brought the deadline 12", "sent a message to every seat", "removed the player of p2",
                     "ended the game with a declared result: won by p1"):
        assert sentence in public


def test_a_director_broadcasts_to_every_game_of_the_tournament(client):
    html = client.get("/director/new").get_data(as_text=True)
    created = [f for f in forms_of(html) if f.method == "post"][0].submit(client, "/director/new", name="Cup")
    dashboard = re.search(r'value="http://pbem\.test(/director/[^"]+)"', created.get_data(as_text=True)).group(1)
    page = client.get(dashboard).get_data(as_text=True)
    form = [f for f in forms_of(page) if "text" in f.textareas][0]
    empty = form.submit(client, dashboard, text="Round 2 starts soon")
    assert empty.status_code == 409 and "no game that is not over" in text_of(empty.get_data(as_text=True))
    forged = client.post(form.action, data=dict(form.fields, text="x", csrf_token="bad"))
    assert forged.status_code in (400, 403)
