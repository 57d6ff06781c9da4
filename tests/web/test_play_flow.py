"""Create a toy game, join every seat and play it to the end through the web forms."""

from __future__ import annotations

import json

from adjudicator.record import verify_bytes
from adjudicator.record.verdict import find_receipt
from tests.web.conftest import Player, create_game, join
from tests.web.forms import forms_of, text_of


def test_create_page_lists_games_and_options(client):
    html = client.get("/new").get_data(as_text=True)
    assert "Toy Auction" in html and "/new?game=toy" in html
    html = client.get("/new?game=toy").get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    assert [v for v, _ in form.selects["seats"]] == ["2", "3", "4"]
    assert [label for _, label in form.selects["opt-rounds"]] == ["1", "2", "3", "4", "5"]
    assert client.get("/new?game=nonesuch").status_code == 404


def test_created_page_shows_moderator_and_invite_links(client):
    html, admin, invites = create_game(client, seats=3, title="Friday night")
    assert admin.startswith("/admin/")
    assert len(invites) == 3
    assert [u.split("/")[3] for u in invites] == ["p1", "p2", "p3"]
    assert "shown only this once" in text_of(html)
    # the game is listed as waiting for players
    index = text_of(client.get("/").get_data(as_text=True))
    assert "Friday night" in index and "3 open seats" in index


def test_join_redirects_to_the_secret_seat_page(client):
    _, _, invites = create_game(client, seats=2)
    page = client.get(invites[0])
    assert page.status_code == 200
    assert "mixed into the game's random seed" in text_of(page.get_data(as_text=True))
    player = join(client, invites[0], "Ada", email="ada@example.org", entropy="my dice")
    assert player.url.startswith("/play/") and "/p1/" in player.url
    text = text_of(player.page())
    assert "The game starts when every seat has joined" in text
    # an invitation is single use
    again = client.get(invites[0])
    assert again.status_code == 403


def test_join_form_validates_in_plain_words(client):
    _, _, invites = create_game(client, seats=2)
    form = [f for f in forms_of(client.get(invites[0]).get_data(as_text=True)) if f.method == "post"][0]
    resp = form.submit(client, invites[0], name="", email="not-an-address")
    assert resp.status_code == 400
    text = text_of(resp.get_data(as_text=True))
    assert "tell the other players what to call you" in text
    assert "does not look like an e-mail address" in text


def _bid_round(a: Player, b: Player, bid_a: int, bid_b: int) -> None:
    resp = a.choose(f"bid {bid_a}")
    assert resp.status_code == 200, text_of(resp.get_data(as_text=True))
    resp = b.command(f"// my bid\nbid {bid_b}")
    assert resp.status_code == 200, text_of(resp.get_data(as_text=True))


def test_full_game_via_forms_and_command_box(client, toy_game):
    admin, (ada, bob), game_id = toy_game

    # round 1: sealed bids, one through the form, one through the command box
    resp = ada.choose("bid 2")
    text = text_of(resp.get_data(as_text=True))
    assert resp.status_code == 200
    assert "Sealed order received: bid 2" in text
    commitment = text.split("Receipt (commitment): ")[1].split()[0]
    assert len(commitment) == 64
    kept = "pbem receipt: " + text.split("pbem receipt: ")[1].split(" Check a game yourself")[0]
    assert kept == f"pbem receipt: game {game_id} seat p1 commitment {commitment}"  # the line a player keeps
    # the public page shows the commitment of the open sealed group, and who is waited for
    public = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert commitment in public
    assert "Waiting for: p2" in public
    # Ada may see her pending receipt again
    assert commitment in ada.page()

    resp = bob.command("bid 1")
    assert resp.status_code == 200
    # the reveal ran (inline in tests): Ada won the round and now has an open prompt
    html = ada.page()
    assert "You won the round" in text_of(html)
    # the list opens on "choose", never on an order Ada did not pick (issue 25)
    assert ada.order_form(html).selects["order"] == [("", "choose an order…"), ('{"choice":"double"}', "double"),
                                                     ('{"choice":"keep"}', "keep")]
    assert bob.order_form() is None
    resp = ada.choose("keep")
    text = text_of(resp.get_data(as_text=True))
    assert "Accepted keep" in text

    # round 2 (last): Bob wins and answers through the command box
    _bid_round(ada, bob, 0, 3)
    resp = bob.command("keep")
    assert "Accepted keep" in text_of(resp.get_data(as_text=True))

    # the game is over: outcome on both pages, seed revealed, record verifies
    public_html = client.get(f"/game/{game_id}").get_data(as_text=True)
    public = text_of(public_html)
    assert "Result" in public and "wins with 1 point(s)" in public
    assert "Server seed (revealed now that the game is over)" in public
    assert "pbem verify FILE" in public
    assert "Round 1 bids: p1 2, p2 1; p1 wins." in public
    assert "Round 2 bids: p1 0, p2 3; p2 wins." in public
    assert ada.order_form() is None and ada.command_form() is None
    assert "Result" in text_of(ada.page())

    export = client.get(f"/game/{game_id}/export.json")
    assert export.status_code == 200
    assert export.mimetype == "application/json"
    assert "attachment" in export.headers["Content-Disposition"]
    report = verify_bytes(export.data)
    assert report is not None
    record = json.loads(export.data)
    assert record["format"] == "pbem-record/1"
    # the receipt line Ada kept is found in the record: her order, revealed as she sent it
    found = find_receipt(export.data, kept)
    assert (found["kind"] == "revealed" and found["seat"] == "p1"
            and record["entries"][found["entry"]]["kind"] == "orders")
    assert f'href="/verify?game={game_id}"' in public_html

    index = text_of(client.get("/").get_data(as_text=True))
    assert "Finished" in index


def test_several_lines_stop_at_the_first_bad_one(client, app):
    _, admin, invites = create_game(client, seats=2, **{"opt-rounds": "3"})
    ada, bob = (join(client, u, n) for u, n in zip(invites, ["Ada", "Bob"], strict=True))
    _bid_round(ada, bob, 3, 0)
    # Ada: choose, then her next sealed bid, then a bad line: the first two are applied
    resp = ada.command("keep\nbid 2\nbid 9\nbid 1")
    assert resp.status_code == 422
    text = text_of(resp.get_data(as_text=True))
    assert "Accepted keep bid 2" in text
    assert "Stopped" in text and "bid N" in text
    assert "nothing after the bad line was" in text
    # the sealed bid 2 stands (receipt shown), bid 1 was not applied
    page = text_of(ada.page())
    assert "Your sealed order so far: bid 2" in page


def test_bad_order_text_shows_error_and_choices_and_applies_nothing(client, toy_game):
    _, (ada, _bob), _ = toy_game
    resp = ada.command("bid seven")
    assert resp.status_code == 422
    text = text_of(resp.get_data(as_text=True))
    assert "Not accepted" in text
    assert "write `bid N` with N from 0 to 3" in text or "bid N" in text
    assert "Nothing was applied" in text
    # the legal orders are listed once, by the order form below the refusal (issue 25)
    assert "Legal choices now" not in text
    assert [label for _, label in ada.order_form(resp.get_data(as_text=True)).selects["order"]
            if label.startswith("bid")] == ["bid 0", "bid 1", "bid 2", "bid 3"]
    assert "Your sealed order so far" not in text_of(ada.page())


def test_stale_prompt_token_is_refused_with_a_clear_message(client, toy_game):
    _, (ada, bob), _ = toy_game
    old_page = ada.page()
    old_form = ada.order_form(old_page)
    _bid_round(ada, bob, 2, 1)  # the round is revealed: Ada's old page is out of date
    resp = old_form.submit(client, ada.url, order='{"bid":3}')
    assert resp.status_code == 409
    text = text_of(resp.get_data(as_text=True))
    assert "Nothing was applied" in text
    assert "choose again" in text
    # the page below the message is the current one: Ada chooses keep/double now
    assert "You won the round" in text


def test_sealed_order_can_be_replaced_until_the_reveal(client, toy_game):
    _, (ada, _bob), game_id = toy_game
    first = text_of(ada.choose("bid 1").get_data(as_text=True))
    second = text_of(ada.choose("bid 3").get_data(as_text=True))
    c1 = first.split("Receipt (commitment): ")[1].split()[0]
    c2 = second.split("Receipt (commitment): ")[1].split()[0]
    assert c1 != c2
    public = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert c2 in public and c1 not in public


def test_empty_or_missing_orders_are_explained(client, toy_game):
    _, (ada, _), _ = toy_game
    form = ada.command_form()
    resp = form.submit(client, ada.url, commands="   ")
    assert resp.status_code == 422
    assert "The command box was empty" in text_of(resp.get_data(as_text=True))
    form = ada.order_form()
    resp = form.submit(client, ada.url, order="not json")
    assert resp.status_code == 422
    assert "Choose an order in the list first: nothing was sent." in text_of(resp.get_data(as_text=True))
    # the list's "choose an order…" line sent as it is (a browser without form checks): the same
    resp = form.submit(client, ada.url, order="")
    assert resp.status_code == 422
    assert "Choose an order in the list first: nothing was sent." in text_of(resp.get_data(as_text=True))
    assert "Your sealed order so far" not in text_of(ada.page())  # nothing was sealed
    # a well-formed JSON order that is not among the choices
    resp = form.submit(client, ada.url, order='{"bid":7}')
    assert resp.status_code == 422
    assert "Nothing was applied" in text_of(resp.get_data(as_text=True))


def test_an_accepted_order_redirects_so_a_reload_never_sends_it_again(client, toy_game):
    _admin, (ada, bob), _game_id = toy_game
    form = ada.order_form()
    resp = form.submit(client, ada.url, order=form.option_value("order", "bid 2"))
    assert resp.status_code == 303
    assert resp.headers["Location"].endswith(ada.url + "#result")
    # another seat opened in the same browser first: it never gets Ada's result
    assert "Sealed order received" not in text_of(bob.page())
    shown = text_of(ada.page())
    assert "Sealed order received: bid 2" in shown  # the result, once
    commitment = shown.split("Receipt (commitment): ")[1].split()[0]
    again = text_of(ada.page())
    assert "Sealed order received" not in again  # a reload: no result, nothing sent
    assert commitment in again  # the pending receipt stays on the page itself
    assert commitment not in text_of(bob.page())


def test_standing_orders_form_keeps_a_secret_list(client, app):
    _, admin, invites = create_game(client, seats=2, **{"opt-rounds": "3"})
    ada, bob = (join(client, u, n) for u, n in zip(invites, ["Ada", "Bob"], strict=True))
    page = text_of(ada.page())
    assert "Standing orders" in page and "You have no standing orders" in page
    def save(player: Player, text: str):
        form = [f for f in forms_of(player.page()) if "standing" in f.textareas][0]
        return form.submit(client, player.url, standing=text)

    resp = save(ada, "always choose: double\nbid 2")
    assert resp.status_code == 303
    page = text_of(ada.page())
    assert "ALWAYS choose: double" in page and "Standing orders saved" in page
    assert "choose: double" not in text_of(bob.page())
    resp = save(ada, "fly to the moon")
    assert resp.status_code in (400, 422)
    assert "ALWAYS choose: double" in text_of(ada.page()), "a refused list changes nothing"
