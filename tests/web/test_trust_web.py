"""Issue 26 through the web: a player who joins with an address the server does not know is told
to confirm it, the confirmation link's page confirms only with its button, and anonymous game
creation past its network's bound is refused with the time it may be tried again."""

from __future__ import annotations

import re

from sqlmodel import select

from adjudicator import store
from adjudicator.service.common import clientbounds, verified
from adjudicator.store import OutboxMessage
from tests.web.conftest import create_game, join
from tests.web.forms import forms_of


def _rows(to: str) -> dict[str, str]:
    with store.transaction(write=False) as s:
        return {r.kind: r.status for r in s.exec(select(OutboxMessage).where(OutboxMessage.to == to)).all()}


def test_joining_with_a_new_address_asks_to_confirm_it_and_the_button_confirms(client):
    _, _, invites = create_game(client, seats=2, title="Evening game")
    ada = join(client, invites[0], "Ada", email="ada@example.org")
    join(client, invites[1], "Bob")
    page = ada.page()
    assert "wait until you confirm it" in page and "ada@example.org" in page
    assert _rows("ada@example.org") == {"confirm": "sent", "start": verified.HELD}
    with store.transaction(write=False) as s:
        request = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "confirm")).one()
    assert "Evening game" not in request.body + request.subject and "Ada" not in request.body
    link = re.search(r"(/confirm/[^>\s]+)>", request.body).group(1)  # PBEM_BASE_URL in front when set
    shown = client.get(link)
    assert shown.status_code == 200 and "Confirm my address" in shown.get_data(as_text=True)
    assert _rows("ada@example.org")["start"] == verified.HELD, "opening the link confirms nothing"
    form = [f for f in forms_of(shown.get_data(as_text=True)) if f.method == "post"][0]
    done = form.submit(client, link)
    assert done.status_code == 200 and "is confirmed" in done.get_data(as_text=True)
    assert _rows("ada@example.org")["start"] == "sent"
    assert "wait until you confirm it" not in ada.page()
    assert client.get(link[:-3] + "abc").status_code == 403


def test_anonymous_creation_past_the_networks_bound_is_refused_with_a_time(client, monkeypatch):
    monkeypatch.setitem(clientbounds.BOUNDS, "create", (2, 6))
    for _ in range(2):
        create_game(client, seats=2)
    html = client.get("/new?game=toy").get_data(as_text=True)
    form = [f for f in forms_of(html) if f.method == "post"][0]
    resp = form.submit(client, "/new", seats="2", title="Third")
    text = resp.get_data(as_text=True)
    assert resp.status_code == 429
    assert "2 games were created from your network in the last hour" in text and "Try again from" in text
    assert 'value="Third"' in text, "the form keeps what was typed"


def test_signing_in_with_the_address_sends_what_waited_for_it(client):
    from tests.web.test_players_web import sign_in

    _, _, invites = create_game(client, seats=2)
    join(client, invites[0], "Ada", email="ada@example.org")
    join(client, invites[1], "Bob")
    assert _rows("ada@example.org")["start"] == verified.HELD
    sign_in(client, "Ada@Example.org")
    assert _rows("ada@example.org")["start"] == "sent"
