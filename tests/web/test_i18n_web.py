"""Pages in the seat's or the game's language, else the browser's (issue 12)."""

from __future__ import annotations

from tests.web.conftest import Player, create_game, join
from tests.web.forms import forms_of, text_of


def _spanish_game(client):
    _, admin, invites = create_game(client, seats=2, language="es", **{"opt-rounds": "2"})
    return admin.split("/")[2], invites


def test_the_seat_page_of_a_spanish_game_is_in_spanish(client) -> None:
    game_id, invites = _spanish_game(client)
    join_page = client.get(invites[0]).get_data(as_text=True)
    assert '<html lang="es">' in join_page and "Tu nombre" in join_page and "Unirse" in join_page
    ada = join(client, invites[0], "Ada")
    join(client, invites[1], "Bob")
    html = ada.page()
    text = text_of(html)
    assert '<html lang="es">' in html
    for words in ("tu puesto: p1", "Tu decisión", "Enviar la orden secreta", "Órdenes permanentes", "Tablero",
                  "Jugadores", "Registro", "mensajes y ajustes de correo", "Guarda esta página en marcadores"):
        assert words in text, words
    assert "Your decision" not in text and "Standing orders" not in text
    # a refusal of the service, in the page's language
    resp = ada.command("DESPUES")
    assert resp.status_code == 422
    assert "escribe DESPUES seguido de una orden" in text_of(resp.get_data(as_text=True))
    # a standing order with the Spanish word, listed with it
    ada.command("SIEMPRE bid: bid 0")
    assert "SIEMPRE bid: bid 0" in text_of(ada.page())
    # the public page follows the game's language
    public = text_of(client.get(f"/game/{game_id}").get_data(as_text=True))
    assert "Comprobar esta partida" in public and "Jugadores" in public


def test_a_seat_chooses_its_own_language_on_the_settings_page(client) -> None:
    game_id, invites = _spanish_game(client)
    ada = join(client, invites[0], "Ada", language="en")  # chosen when joining
    bob = join(client, invites[1], "Bob")
    assert "Your decision" in text_of(ada.page()) and "Tu decisión" in text_of(bob.page())
    settings_url = bob.url + "/mail"
    html = client.get(settings_url).get_data(as_text=True)
    assert "Idioma de tus páginas y correos" in html
    form = [f for f in forms_of(html) if "language" in f.selects][0]
    assert [v for v, _ in form.selects["language"]] == ["", "en", "es"]
    resp = form.submit(client, settings_url, follow=True, language="en")
    assert resp.status_code == 200
    assert "Your decision" in text_of(bob.page())
    # only with the seat's valid link: a wrong token shows the refusal in the browser's language
    wrong = client.get(bob.url[:-4] + "xxxx", headers={"Accept-Language": "en"})
    assert wrong.status_code == 403 and "This link is not valid" in wrong.get_data(as_text=True)
    nothing = client.get(f"/play/{game_id}x/p1/abcdef", headers={"Accept-Language": "en"})
    assert nothing.status_code == 403
    assert wrong.get_data(as_text=True) == nothing.get_data(as_text=True)
    es = client.get(bob.url[:-4] + "xxxx", headers={"Accept-Language": "es-ES,es;q=0.9"})
    assert "Este enlace no es válido" in es.get_data(as_text=True)


def test_pages_without_a_game_follow_the_browser_or_lang(client) -> None:
    assert "Partidas" in text_of(client.get("/", headers={"Accept-Language": "es"}).get_data(as_text=True))
    assert "Games" in text_of(client.get("/", headers={"Accept-Language": "de, en;q=0.5"}).get_data(as_text=True))
    choose = client.get("/new?lang=es").get_data(as_text=True)
    assert "Elige el juego" in choose and "/new?game=toy&amp;lang=es" in choose  # the choice is kept
    html = client.get("/new?game=toy&lang=es").get_data(as_text=True)
    form = text_of(html)
    assert "Idioma de la partida" in form and "Crear la partida" in form
    assert 'action="/new?lang=es"' in html
    resp = client.post("/new", data={"game": "toy", "seats": "2", "language": "xx"})
    assert resp.status_code == 400  # CSRF or the language check: never a game in an unknown language


def test_a_player_of_an_english_game_sees_english(client) -> None:
    _, _, invites = create_game(client, seats=2)
    ada: Player = join(client, invites[0], "Ada", language="")
    join(client, invites[1], "Bob", language="es")
    assert "Your decision" in text_of(ada.page())
    assert '<html lang="en">' in ada.page()


def test_a_doge_decision_reads_in_the_rulebooks_words(client) -> None:
    _, _, invites = create_game(client, game="doge", seats=3, language="es")
    players = [join(client, url, name) for url, name in zip(invites, ["Ana", "Bea", "Carlos"], strict=True)]
    text = text_of(players[0].page())
    assert "Año 1, ronda de colocación 1 de 4: juega una carta de área no usada" in text
    # the placement form: the markers to tick and the areas' buttons, in Spanish too
    assert "Tu decisión" in text and "1. Marca los marcadores que colocas (de 1 a 4)" in text
    assert "2. Colócalos en un área (esto envía tu orden secreta)" in text
    # the board in the rulebook's words too: the HTML board and its text version
    for words in ("Orden de votación", "Aún por votar", "Palacios", "Cartas usadas", "Marcadores boca abajo"):
        assert words in text, words


def test_a_spanish_1960_seat_reads_its_cards_effects_in_spanish(client) -> None:
    import re

    _, _, invites = create_game(client, game="1960", seats=2, language="es")
    ada = join(client, invites[0], "Ada")
    join(client, invites[1], "Bob")
    # the board's hand (the text board below it is still English: not translated yet)
    effects = re.findall(r'<span class="card-text">([^<]*)</span>', ada.page())
    assert effects and all(e.startswith(("Evento de ", "Evento para cualquiera de los candidatos")) for e in effects)
