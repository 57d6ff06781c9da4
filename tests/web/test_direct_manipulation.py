"""Issue 25's direct manipulation on the seat page, without a browser: Doge's placement as markers
to tick (or their whole set picked in one list) and an area's button (the same order text as a mail,
refusals that keep the ticks), the drawn Venice (its areas are links only for a seat placing, its
marker values only for their owner), and China's house spaces that a click picks for the pending order."""

from __future__ import annotations

import re

from markupsafe import Markup

from tests.web.conftest import create_game, join
from tests.web.forms import forms_of, text_of
from web.boards import board_html


def _doge(client):
    _, admin, invites = create_game(client, game="doge", seats=3)
    return admin.split("/")[2], [join(client, u, n) for u, n in zip(invites, ["Ann", "Ben", "Cy"], strict=True)]


def test_the_ticked_markers_and_the_pressed_area_make_the_mailed_order(client):
    game_id, (red, blue, green) = _doge(client)
    html = red.page()
    assert html.count('name="marker"') == 7 and 'disabled' not in html.split('class="marker-boxes"')[1][:2000]
    resp = red.place("castello", 1, 3)
    assert "Sealed order received: place castello 3 1" in text_of(resp.get_data(as_text=True))
    blue.command("place san-marco 2")
    green.command("place dorsoduro 0")
    # revealed: the two markers red placed are shown as used and cannot be ticked again
    page = red.page()
    boxes = re.findall(r'<input type="checkbox" name="marker" value="(\d)"( disabled)?', page)
    assert [(v, bool(d)) for v, d in boxes] == [("3", False), ("3", True), ("2", False), ("2", False),
                                                 ("1", False), ("1", True), ("0", False)]
    # the card played is not offered again
    [form] = [f for f in forms_of(page) if "placement" in f.fields]
    assert "castello" not in form.buttons["area"] and "san-marco" in form.buttons["area"]


def test_a_press_without_markers_or_with_too_many_is_refused_and_keeps_the_ticks(client):
    game_id, (red, _, _) = _doge(client)
    resp = red.place("castello")
    assert resp.status_code == 422
    text = text_of(resp.get_data(as_text=True))
    assert "Tick 1 to 4 of your markers or choose the whole set in the list, then press the area's button." in text
    assert "Sealed order" not in text
    resp = red.place("castello", 3, 3, 2, 2, 1)
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422 and "At most 4 markers go on one card: untick 1." in text_of(html)
    assert len(re.findall(r'name="marker" value="\d" checked', html)) == 5  # nothing lost
    assert "Your sealed order so far" not in red.page()  # nothing was sealed


def _placement_form(player):
    [form] = [f for f in forms_of(player.page()) if "placement" in f.fields]
    return form


def _post_placement(player, area: str, markers: list[int], chosen: str):
    form = _placement_form(player)
    data = {**form.fields, "area": area, "marker": [str(m) for m in markers], "set": chosen}
    return player.client.post(form.action or player.url, data=data, follow_redirects=True)


def test_the_whole_set_picked_in_one_list_makes_the_order(client):
    """Any placement is one pick in the list and the area's button: the list holds every distinct set
    of 1 to 4 of the seat's markers left (none chosen at first), grouped by size, strongest first."""
    _, (red, blue, green) = _doge(client)
    form = _placement_form(red)
    assert form.fields["set"] == ""  # the placeholder: no placement is chosen for the player
    sets = [value for value, _ in form.selects["set"] if value]
    labels = [label for _, label in form.selects["set"]]
    assert len(sets) == len(set(sets)) == 39  # 4 + 9 + 13 + 13 sets of 1, 2, 3 and 4 of 3 3 2 2 1 1 0
    assert sets[:4] == ["3", "2", "1", "0"] and sets[-1] == "2 1 1 0" and "3 + 3 + 2 + 2 · 10 votes" in labels
    resp = _post_placement(red, "castello", [], "3 3 2 2")
    assert "Sealed order received: place castello 3 3 2 2" in text_of(resp.get_data(as_text=True))
    blue.command("place san-marco 2")
    green.command("place dorsoduro 0")
    # revealed: only the markers left (1 1 0) make the sets of the next round
    assert [value for value, _ in _placement_form(red).selects["set"] if value] == ["1", "0", "1 1", "1 0", "1 1 0"]


def test_ticks_and_a_different_set_are_refused_and_both_kept(client):
    _, (red, _, _) = _doge(client)
    resp = _post_placement(red, "castello", [3, 1], "2 2")
    html = resp.get_data(as_text=True)
    assert resp.status_code == 422
    assert "The markers ticked (3 1) and the set chosen in the list (2 2) differ" in text_of(html)
    assert len(re.findall(r'name="marker" value="\d" checked', html)) == 2
    assert re.search(r'<option value="2 2" selected>', html)
    assert "Your sealed order so far" not in red.page()
    resp = _post_placement(red, "castello", [1, 3], "3 1")  # the same markers both ways: one answer
    assert "Sealed order received: place castello 3 1" in text_of(resp.get_data(as_text=True))


def test_a_placement_the_game_refuses_says_why(client):
    _, (red, _, _) = _doge(client)
    resp = red.place("nowhere", 3)
    assert resp.status_code == 422 and "is not an area" in text_of(resp.get_data(as_text=True))


def test_the_drawn_venice_links_its_areas_only_while_placing_and_hides_other_values(client):
    game_id, (red, blue, green) = _doge(client)
    html = red.page()
    assert html.count('class="pick area-pick"') == 7 and 'role="group" aria-labelledby="venice-title"' in html
    red.place("castello", 3, 1)
    blue.command("place san-marco 2")
    green.command("place dorsoduro 0")
    red_page, blue_page = red.page(), blue.page()
    public = client.get(f"/game/{game_id}").get_data(as_text=True)
    assert "yours: 3 1" in red_page and "your markers: 3 1" in red_page
    assert "yours: 3 1" not in blue_page and "yours:" not in public
    assert 'role="img" aria-labelledby="venice-title"' in public and "area-pick" not in public
    # each area's accessible name says its state in words: the face-down count, not the values
    castello = re.search(r'data-area="castello"><title>([^<]*)</title>', public).group(1)
    assert "face-down markers: red 2" in castello and "3" not in castello.split("face-down markers")[1]


def test_a_spanish_placement_form_and_map(client):
    _, (red, _, _) = _doge(client)
    html = client.get(red.url + "?lang=es").get_data(as_text=True)
    text = text_of(html)
    assert "1. Marca los marcadores que colocas (de 1 a 4)" in text and "usado" not in text
    assert "elige un grupo de marcadores…" in text and ">3 + 3 + 2 + 2 · 10 votos<" in html
    assert 'label="4 marcadores"' in html
    assert "Venecia: los seis distritos y la Quarantia" in html


def test_china_house_spaces_the_order_may_take_are_links(client):
    _, _, invites = create_game(client, game="china", seats=3)
    players = [join(client, u, n) for u, n in zip(invites, ["Ann", "Ben", "Cy"], strict=True)]
    mover = next(p for p in players if p.order_form() is not None)
    labels = [label for _, label in mover.order_form().selects["order"]]
    play = next(label for label in labels if re.fullmatch(r"play \w+ to [^:]+: house", label))
    mover.choose(play)
    html = mover.page()
    spaces = [label for value, label in mover.order_form(html).selects["order"] if value]  # not the placeholder
    assert len(spaces) > 1 and all(label.startswith("space ") for label in spaces)
    linked = re.findall(r'<a class="pick space-pick" href="([^"]+)" data-choose="([^"]+)" aria-label="Choose ', html)
    assert sorted(space for _, space in linked) == sorted(label.split()[1] for label in spaces)
    assert 'role="group" aria-labelledby="china-map-title"' in html
    # without scripts the link narrows the list to that one order
    href, space = linked[0]
    narrowed = mover.client.get(href.replace("&amp;", "&")).get_data(as_text=True)
    assert [label for _, label in mover.order_form(narrowed).selects["order"]] == [f"space {space}"]


def test_china_spaces_are_plain_drawings_without_a_decision_naming_them(app):
    view = {"board": "3-4p", "seats": ["blue", "green", "red"], "houses": {}, "current": "blue"}
    with app.test_request_context("/"):
        plain = board_html("china", view, "blue")
        linked = board_html("china", view, "blue", {"wei-3": "/play/g/blue/t?where=wei-3#orders"})
    assert isinstance(plain, Markup) and "space-pick" not in plain and 'role="img"' in plain
    assert linked.count('class="pick space-pick"') == 1 and 'data-choose="wei-3"' in linked
    assert "Yellow circles: the spaces your order may take now" in linked
