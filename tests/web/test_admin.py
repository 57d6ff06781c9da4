"""The moderator page: every action goes through the service and onto the record."""

from __future__ import annotations

from tests.web.conftest import create_game, join
from tests.web.forms import forms_of, text_of


def _action(client, admin, action, **values):
    forms = [f for f in forms_of(client.get(admin).get_data(as_text=True))
             if f.fields.get("action") == action]
    assert forms, f"no {action} form"
    return forms[0].submit(client, admin, **values)


def test_admin_page_shows_the_game(client, toy_game):
    admin, _, game_id = toy_game
    resp = client.get(admin)
    assert resp.status_code == 200
    assert resp.headers["Cache-Control"] == "no-store"
    text = text_of(resp.get_data(as_text=True))
    assert "Moderate" in text and "Waiting for: p1, p2" in text
    assert "Pause the game" in text and "Resume the game" not in text


def test_pause_resume_extend(client, toy_game):
    admin, _, game_id = toy_game
    before = client.get(f"/game/{game_id}").get_data(as_text=True)
    resp = _action(client, admin, "pause")
    assert resp.status_code == 303
    page = text_of(client.get(resp.headers["Location"]).get_data(as_text=True))
    assert "The game is paused" in page and "Resume the game" in page
    assert "paused" in text_of(client.get(f"/game/{game_id}").get_data(as_text=True))

    resp = _action(client, admin, "resume")
    assert resp.status_code == 303
    assert "running again" in text_of(client.get(resp.headers["Location"]).get_data(as_text=True))

    resp = _action(client, admin, "extend", hours="48")
    assert resp.status_code == 303
    after = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert before != after
    log = text_of(after)
    assert "Moderator: pause" in log and "Moderator: resume" in log and "Moderator: extend" in log


def test_extend_needs_a_sensible_number(client, toy_game):
    admin, _, _ = toy_game
    resp = _action(client, admin, "extend", hours="soon")
    assert resp.status_code == 400
    assert "give a number of hours" in text_of(resp.get_data(as_text=True))


def test_force_defaults_applies_default_orders(client, toy_game):
    admin, (ada, bob), game_id = toy_game
    ada.choose("bid 2")
    resp = _action(client, admin, "force")
    assert resp.status_code == 303
    text = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    # Ada's sealed bid stands, Bob got the default bid 0; Ada won and is asked to choose
    assert "Round 1 bids: p1 2, p2 0; p1 wins." in text
    assert "Default orders for p2" in text
    assert "You won the round" in text_of(ada.page())


def test_replace_seat_shows_a_new_invite_that_works(client, toy_game):
    admin, (ada, bob), game_id = toy_game
    resp = _action(client, admin, "replace", seat="p2")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert "old link no longer works" in text_of(html)
    new_invite = [f.fields for f in forms_of(html)]  # links are shown in read-only inputs
    assert new_invite
    url = html.split('value="http://pbem.test/join/')[1].split('"')[0]
    assert client.get(bob.url).status_code == 403
    carl = join(client, f"/join/{url}", "Carl")
    text = text_of(carl.page())
    assert "you are p2" in text and "Carl" in text
    assert carl.choose("bid 1").status_code == 200


def test_actions_with_a_bad_admin_token_change_nothing(client, toy_game):
    admin, _, game_id = toy_game
    form = [f for f in forms_of(client.get(admin).get_data(as_text=True))
            if f.fields.get("action") == "pause"][0]
    bad = admin.rsplit("/", 1)[0] + "/not-the-token"
    resp = form.submit(client, bad)
    assert resp.status_code == 403
    assert "paused" not in text_of(client.get(f"/game/{game_id}").get_data(as_text=True))


def test_pending_game_admin_page(client):
    from tests.web.conftest import create_game

    _, admin, invites = create_game(client, seats=2)
    text = text_of(client.get(admin).get_data(as_text=True))
    assert "Pause the game" not in text
    assert "Replace the player" in text


def test_full_record_for_the_moderator_leaves_a_note(client, toy_game):
    import json

    admin, players, game_id = toy_game
    players[0].command("bid 2")
    players[1].command("bid 1")  # completes and reveals the sealed round (eager tasks)
    public = json.loads(client.get(f"/game/{game_id}/export.json").get_data())
    assert public["withheld"] == [1] and "orders" not in public["entries"][1]["data"]
    resp = _action(client, admin, "record")
    assert resp.status_code == 200 and resp.headers["Cache-Control"] == "no-store"
    full = json.loads(resp.get_data())
    assert "withheld" not in full and full["entries"][1]["data"]["orders"] == {"p1": {"bid": 2}, "p2": {"bid": 1}}
    assert "Moderator: full record export" in text_of(client.get(f"/game/{game_id}").get_data(as_text=True))


def test_a_negative_move_shortens_the_deadline_and_tells_the_seats(client):
    """Moving the deadline back is the shorten tool: the seats waited on are told, an hour's notice is kept."""
    from sqlmodel import select

    from adjudicator import store
    from adjudicator.store import OutboxMessage as Outbox

    _, admin, invites = create_game(client, seats=2, **{"opt-rounds": "2"})
    join(client, invites[0], "Ada", email="ada@example.org")
    join(client, invites[1], "Bob", email="bob@example.org")
    game_id = admin.split("/")[2]
    with store.transaction(write=False) as s:
        before = len(s.exec(select(Outbox)).all())
    resp = _action(client, admin, "extend", hours="-1")
    assert resp.status_code == 303 and "done=shorten" in resp.headers["Location"]
    assert "the seats being waited on were told by mail" in text_of(
        client.get(resp.headers["Location"]).get_data(as_text=True))
    with store.transaction(write=False) as s:
        told = s.exec(select(Outbox)).all()[before:]
    assert sorted(row.seat for row in told) == ["p1", "p2"]
    assert "brought the deadline 1.0 hours forward" in text_of(client.get(f"/game/{game_id}").get_data(as_text=True))

    resp = _action(client, admin, "extend", hours="-1440")  # would leave less than an hour
    assert resp.status_code == 400
    assert "at least an hour" in text_of(resp.get_data(as_text=True))


def test_the_moderator_sets_the_absence_budget(client, toy_game):
    """Issue 24: the pace form carries the per-seat absence budget (28 days by default)."""
    from adjudicator import service, store

    admin, _, game_id = toy_game
    forms = [f for f in forms_of(client.get(admin).get_data(as_text=True)) if f.fields.get("action") == "pace"]
    assert forms and forms[0].fields.get("absence_budget_days") == "28"
    resp = _action(client, admin, "pace", absence_budget_days="5")
    assert resp.status_code == 303
    token = admin.rstrip("/").rsplit("/", 1)[1]
    with store.transaction(write=False) as s:
        assert service.game_pace(s, game_id, token)["absence_budget_days"] == 5
