"""The operator pages (moderator, director) read in Spanish, like the players' pages (issue 12)."""

from __future__ import annotations

import re

from tests.web.conftest import create_game
from tests.web.forms import forms_of


def test_the_moderator_page_in_spanish(client):
    _, admin, _ = create_game(client, seats=2, **{"opt-rounds": "2"})
    html = client.get(admin, query_string={"lang": "es"}).get_data(as_text=True)
    assert "Moderar:" in html and "Pausar la partida" not in html  # pending: nothing to pause yet
    assert "Cambiar el ritmo" in html and "Sustituir al jugador" in html and "Change the pace" not in html
    english = client.get(admin, query_string={"lang": "en"}).get_data(as_text=True)
    assert "Change the pace" in english


def test_the_director_pages_in_spanish(client):
    html = client.get("/director/new", query_string={"lang": "es"}).get_data(as_text=True)
    assert "Organiza un torneo o un club" in html and "Crear mi enlace de director" in html
    [form] = [f for f in forms_of(html) if f.method == "post"]
    created = form.submit(client, "/director/new?lang=es", name="Club Ajedrez").get_data(as_text=True)
    assert "Guarda este enlace ahora." in created and "Club Ajedrez" in created
    links = [href for href in re.findall(r'href="([^"]+)"', created) if href.startswith("/director/")]
    dashboard = links[-1] if "Ábrelo" in created and links else ""  # the page's last director link
    assert dashboard.startswith("/director/")
    page = client.get(dashboard, query_string={"lang": "es"}).get_data(as_text=True)
    assert "Aún no hay partidas: crea una arriba." in page and "Clasificación pública de Club Ajedrez" in page
