"""Press where you play: the seat page shows the newest press with a count of new messages,
rendered as sanitised Markdown; seeing it once makes it no longer new. It is written on the seat
page too, and a reply button opens the form with the sender ticked (issue 25)."""

from __future__ import annotations

import re

from tests.web.forms import forms_of, text_of


def _send(client, player, to: str, text: str):
    form = [f for f in forms_of(client.get(player.url).get_data(as_text=True))
            if f.fields.get("action") == "press"][0]
    return form.submit(client, player.url, follow=True, to=to, text=text)


def test_new_press_is_counted_rendered_and_then_read(client, toy_game):
    _admin, (ada, bob), _game_id = toy_game
    assert "No press yet." in text_of(bob.page())
    _send(client, ada, "p2", "Shall we **share** the pot? <script>alert(1)</script>")
    page = bob.page()
    assert "1 new press" in text_of(page) and "<strong>share</strong>" in page
    assert "<script>alert" not in page  # sanitised
    assert "1 new" not in text_of(bob.page())  # seen once: no longer new
    assert "new press" not in text_of(ada.page())  # her own message is never new to her


def test_press_is_written_on_the_seat_page_and_answered_with_the_reply_button(client, toy_game):
    _admin, (ada, bob), _game_id = toy_game
    sent = _send(client, ada, "p2", "Truce until round 2?")
    assert sent.status_code == 200 and "Press sent." in text_of(sent.get_data(as_text=True))
    page = bob.page()
    reply = re.search(r'href="([^"]*\?reply=p1#press-form)"', page)
    assert reply and "Reply to p1" in text_of(page)
    opened = client.get(reply.group(1).replace("&amp;", "&")).get_data(as_text=True)
    form = [f for f in forms_of(opened) if f.fields.get("action") == "press"][0]
    assert form.fields.get("to") == "p1"  # the sender is ticked, nobody else
    assert re.search(r'<label><input type="checkbox" name="to" value="p1" checked> p1', opened)  # box beside its label
    back = form.submit(client, bob.url, follow=True, text="Agreed.")
    assert "Press sent." in text_of(back.get_data(as_text=True))
    assert "Agreed." in ada.page()


def test_a_refused_press_message_stays_in_the_form(client, toy_game):
    _admin, (ada, _bob), _game_id = toy_game
    too_long = "x" * 10_001
    refused = _send(client, ada, "p2", too_long)
    assert refused.status_code == 400
    html = refused.get_data(as_text=True)
    assert "at most 10000 characters" in text_of(html) and too_long in html  # nothing lost


def test_the_worst_press_body_costs_little_to_send_and_show(client, toy_game):
    """Issue 26: 5,000 times `![` took 76 s to show on the recipient's page. Now it is rendered
    once when sent, and the pages show what was stored (its mails: tests/mail/test_press_html.py)."""
    import time

    _admin, (ada, bob), _game_id = toy_game
    start = time.perf_counter()
    _send(client, ada, "p2", "![" * 5000)
    page = bob.page()
    press_page = client.get(bob.url + "/mail").get_data(as_text=True)
    seconds = time.perf_counter() - start
    assert seconds < 2.0, f"{seconds:.2f} s"
    assert "![![![" in page and "![![![" in press_page
