"""A refused order on the seat page (issue 25, item 3): the rule's reason, rendered (no raw Markdown
backticks), "did you mean" with the closest legal orders, and the legal orders listed once (the
order form), in English and in Spanish."""

from __future__ import annotations

import re

from tests.web.forms import text_of
from tests.web.test_composer_plans import _start_1960


def _result(html: str) -> str:
    return html.split('id="result"', 1)[1].split("</section>", 1)[0]


def test_a_refusal_says_why_and_offers_the_closest_legal_orders(client):
    kennedy = _start_1960(client)  # Kennedy played a card for CP: his token is in Massachusetts (East)
    resp = kennedy.command("campaign california 9")
    assert resp.status_code == 422
    box = _result(resp.get_data(as_text=True))
    reason = re.search(r"campaigning 9 in California costs 9 CP plus 2 CP to travel to another region "
                       r"\(11 CP\) and you have (\d) left", text_of(box))
    assert reason, text_of(box)
    assert "`" not in text_of(box)  # the Markdown is rendered: <code>, never a raw backtick
    assert "<code>campaign california 9</code>" in box
    assert "Legal choices now" not in box  # the order form below lists them: once
    assert "Nothing was applied" in text_of(box)
    # a misspelt state: the grammar's words, and the closest legal orders
    box = _result(kennedy.command("campaign californa 1").get_data(as_text=True))
    assert "no state called 'californa'" in text_of(box)
    suggested = re.findall(r"<li><code>([^<]*)</code></li>", box.split('suggestions">')[1].split("</ul>")[0])
    assert suggested[0] == "campaign California 1" and len(suggested) <= 3

def test_a_refusal_in_spanish(client):
    kennedy = _start_1960(client)
    resp = kennedy.client.post(kennedy.url + "?lang=es", data={**kennedy.command_form().fields,
                                                               "commands": "jugar 999 pc"})
    assert resp.status_code == 422
    box = text_of(_result(resp.get_data(as_text=True)))
    assert "No aceptado" in box and "No se aplicó nada" in box, box
    assert "no existe la carta 999: las cartas van del 1 al 97" in box
    resp = kennedy.client.post(kennedy.url + "?lang=es", data={**kennedy.command_form().fields,
                                                               "commands": "jugar 1 evento"})
    box = text_of(_result(resp.get_data(as_text=True)))
    assert "ahora no puedes jugar una carta: " in box  # Kennedy is spending CP, not playing a card
