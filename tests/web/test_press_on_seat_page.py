"""Press where you play: the seat page shows the newest press with a count of new messages,
rendered as sanitised Markdown; seeing it once makes it no longer new."""

from __future__ import annotations

from tests.web.forms import forms_of, text_of


def _send(client, player, to: str, text: str):
    url = player.url + "/mail"
    form = [f for f in forms_of(client.get(url).get_data(as_text=True))
            if f.fields.get("action") == "press"][0]
    return form.submit(client, url, follow=True, to=to, text=text)


def test_new_press_is_counted_rendered_and_then_read(client, toy_game):
    _admin, (ada, bob), _game_id = toy_game
    assert "No press yet." in text_of(bob.page())
    _send(client, ada, "p2", "Shall we **share** the pot? <script>alert(1)</script>")
    page = bob.page()
    assert "1 new press" in text_of(page) and "<strong>share</strong>" in page
    assert "<script>alert" not in page  # sanitised
    assert "1 new" not in text_of(bob.page())  # seen once: no longer new
    assert "new press" not in text_of(ada.page())  # her own message is never new to her


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
