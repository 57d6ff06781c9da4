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
