"""A Spanish seat plays Doge by e-mail with Spanish command words and gets Spanish mails; the
other seats of the same game keep English (issue 12). In-process: tasks inline, SQLite."""

from __future__ import annotations

import re
from datetime import date, timedelta

from adjudicator import service, store
from tests.mail.conftest import address, message, outbox, send

ROJO = "red@example.es"


def _doge(red_language: str = "es") -> tuple[str, dict[str, str]]:
    """A 3-player Doge game whose default is English; red chose Spanish when joining."""
    with store.transaction() as s:
        created = service.create_game(s, game="doge", seats=3, title="Venecia")
    tokens = {}
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            joined = service.join_game(s, created.game_id, seat, invite, name=seat.title(),
                                       email=ROJO if seat == "red" else f"{seat}@example.org",
                                       language=red_language if seat == "red" else "")
        tokens[seat] = joined.seat_token
    return created.game_id, tokens


def _legal(body: str, heading: str) -> list[str]:
    block = body.split(f"{heading}\n\n", 1)[1]
    out = []
    for line in block.splitlines():
        if not line.startswith("    "):
            break
        out.append(line.strip())
    return out


ENGLISH = ("## Your decision", "Legal orders now:", "Reply address:", "Game page:", "## Now", "## Applied",
           "Since your last mail", "Send HELP", "**Doge orders**")


def test_a_spanish_seat_plays_a_doge_round_by_mail_in_spanish(sqlite_db) -> None:
    game_id, _tokens = _doge()
    start = outbox(ROJO, "start")[-1]
    assert "la partida ha empezado" in start.subject
    assert "## Tu decisión" in start.body and "Órdenes válidas ahora:" in start.body
    assert "Año 1, ronda de colocación 1 de 4" in start.body
    assert "## Jugar por correo" in start.body and f"`ENTRAR {game_id} red " in start.body
    assert "**Órdenes de Doge**" in start.body  # the order grammar's help, as the game words it
    assert not any(word in start.body for word in ENGLISH)
    blue = outbox("blue@example.org", "start")[-1]  # the game's default: English
    assert "the game has started" in blue.subject and "## Your decision" in blue.body

    # help and status in Spanish words; the answers in Spanish
    send(message("AYUDA\nESTADO", to=address(game_id, "red"), sender=ROJO))
    reply = outbox(ROJO, "reply")[-1]
    assert "# Cómo jugar por correo" in reply.body and "AUSENTE <desde> <hasta>" in reply.body
    assert "Las reglas del juego, con cada decisión y carta: " in reply.body and "/rules/doge" in reply.body
    assert "## Estado" in reply.body and "## Ahora" in reply.body
    assert "resultado de tu correo" in reply.subject or reply.subject.startswith("Re:")

    # standing orders, absence and press, all with Spanish words
    away = date.today() + timedelta(days=10)
    send(message(f"SIEMPRE build: skip\nPERMANENTES\nAUSENTE {away} {away + timedelta(days=2)}\nAUSENTE CANCELAR\n"
                 "MENSAJE A blue\nHola, ¿hacemos un trato?\nFINMENSAJE\nFIN\nRojo",
                 to=address(game_id, "red"), sender=ROJO))
    reply = outbox(ROJO, "reply")[-1].body
    assert "Orden permanente guardada para decisiones de tipo `build`" in reply
    assert "Tus órdenes permanentes" in reply and "1. `SIEMPRE build: skip`" in reply
    assert "Ausencia registrada: del " in reply and "Tu ausencia se ha cancelado." in reply
    assert "Mensaje enviado a blue." in reply
    press = outbox("blue@example.org", "press")[-1]  # blue reads it in English
    assert "press from red" in press.subject and "Hola, ¿hacemos un trato?" in press.body

    # a bad order: the framework's words in Spanish, the legal orders listed
    send(message("place nowhere 9 9", to=address(game_id, "red"), sender=ROJO))
    reply = outbox(ROJO, "reply")[-1].body
    assert "## No aplicado" in reply and "Órdenes válidas en ese momento:" in reply
    assert "El proceso se detuvo en esa línea" in reply
    # the rule's own reason, in Spanish too (Doge's refusals carry msgids)
    assert "no se pudo leer 'place nowhere 9 9': 'nowhere' no es un área; las áreas son" in reply
    assert "; por ejemplo: place" in reply

    # one placement round: every seat answers its latest mail with a legal order; red in Spanish
    for seat in ("red", "blue", "green"):
        to = ROJO if seat == "red" else f"{seat}@example.org"
        heading = "Órdenes válidas ahora:" if seat == "red" else "Legal orders now:"
        latest = [m for m in outbox(to) if heading in m.body][-1]
        order = _legal(latest.body, heading)[0]
        send(message(f"{order}   // mi orden\nFIN", to=address(game_id, seat), sender=to))
    reply = outbox(ROJO, "reply")[-1]
    assert re.search(r"Orden secreta `place [a-z-]+ [0-9 ]+` recibida", reply.body)
    # the round is revealed; the next placement comes in one Spanish "your move" mail
    turn = outbox(ROJO, "turn")[-1]
    assert "te toca (red)" in turn.subject
    assert "## Desde tu último correo" in turn.body
    # the log in the rulebook's words too (Doge gives its log lines as messages)
    assert "Año 1, ronda 1: cartas reveladas - red:" in turn.body
    assert "(privado) Colocas los marcadores" in turn.body
    # the decision itself in the rulebook's words (the game gives its text as a msgid)
    assert "Año 1, ronda de colocación 2 de 4: juega una carta de área no usada" in turn.body
    assert "Esta orden es **secreta**" in turn.body and "Plazo: **" in turn.body
    # a "your move" mail is short (issue 24): the board is in ESTADO, and in Spanish there too
    assert "## Tu vista del tablero" not in turn.body and "ESTADO para el tablero" in turn.body
    send(message("ESTADO", to=address(game_id, "red"), sender=ROJO))
    status = outbox(ROJO, "reply")[-1].body
    assert "## Estado" in status and "## Doge - año 1" in status
    assert "| Área | Palacios (espacio: dueño) |" in status and "**Tus marcadores (red)**" in status
    mails_to_red = outbox(ROJO)
    assert mails_to_red and all(not any(word in m.body for word in ENGLISH) for m in mails_to_red), \
        [m.subject for m in mails_to_red if any(word in m.body for word in ENGLISH)]
    assert all("## Tu decisión" not in m.body for m in outbox("blue@example.org"))


def test_the_seat_language_setting_changes_the_next_mail(sqlite_db) -> None:
    game_id, tokens = _doge(red_language="")
    assert "## Your decision" in outbox(ROJO, "start")[-1].body
    with store.transaction() as s:
        service.update_settings(s, game_id, "red", tokens["red"], "each", "", "", language="es")
        assert service.seat_settings(s, game_id, "red", tokens["red"])["language"] == "es"
    send(message("STATUS", to=address(game_id, "red"), sender=ROJO))  # English words work too
    assert "## Estado" in outbox(ROJO, "reply")[-1].body
