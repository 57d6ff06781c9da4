"""Mail read like a person writes it (issue 24): a greeting, a closing, a signature and chatter are
skipped and listed as not read; a misspelt order or command is refused with the closest legal
orders ("did you mean"); Spanish order verbs; every refusal says why, in the rule's words.
In-process: tasks inline, SQLite, a 1960 game (two seats)."""

from __future__ import annotations

from adjudicator import service, store
from adjudicator.service.core import current_prompts, find_game
from tests.mail.conftest import address, message, outbox, send

KENNEDY, NIXON = "kennedy@example.org", "nixon@example.es"


def _game() -> str:
    with store.transaction() as s:
        created = service.create_game(s, game="1960", seats=2, title="1960")
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            service.join_game(s, created.game_id, seat, invite, name=seat.title(),
                              email=KENNEDY if seat == "kennedy" else NIXON, language="es" if seat == "nixon" else "")
    return created.game_id


def _state(game_id: str) -> dict:
    with store.transaction(write=False) as s:
        return find_game(s, game_id).state


def _reply(to: str) -> str:
    return outbox(to, "reply")[-1].body


def _chooser(game_id: str) -> tuple[str, str]:
    """(seat, address) of the candidate who won the initiative (random) and chooses who plays first."""
    with store.transaction(write=False) as s:
        seat = next(iter(current_prompts(find_game(s, game_id))))
    return seat, KENNEDY if seat == "kennedy" else NIXON


def test_a_greeting_and_a_signature_are_listed_as_not_read_and_the_order_between_is_applied(sqlite_db) -> None:
    game_id = _game()
    seat, mail = _chooser(game_id)
    send(message("Hi,\n\nfirst kennedy\n\nCheers,\nDick\n-- \nRichard M. Nixon\nWhittier, California",
                 to=address(game_id, seat), sender=mail))
    reply = _reply(mail)
    assert "\n\n    first kennedy\n" in reply.split("## Not read" if seat == "kennedy" else "## No leído")[0]
    assert ("## Not read" if seat == "kennedy" else "## No leído") in reply
    for line in ("Hi,", "Cheers,", "Dick", "Richard M. Nixon", "Whittier, California"):
        assert f"    {line}\n" in reply
    assert _state(game_id)["first"] == "kennedy"


def test_a_mail_of_chatter_only_says_it_had_no_orders_and_lists_the_lines(sqlite_db) -> None:
    game_id = _game()
    seat = "kennedy" if _chooser(game_id)[0] == "nixon" else "nixon"  # the other seat: nothing to decide
    send(message("Hello Nixon team:\nSee you at the debates.\nSent from my phone",
                 to=address(game_id, "kennedy"), sender=KENNEDY))
    if seat == "nixon":  # Kennedy decides: the same mail must not touch his decision either
        assert _state(game_id)["first"] is None
    reply = _reply(KENNEDY)
    assert "Your mail contained no orders or commands" in reply
    assert "## Not read" in reply and "    Hello Nixon team:" in reply and "    Sent from my phone" in reply
    assert "Not applied" not in reply


def test_a_misspelt_order_is_refused_with_the_reason_and_suggestions_not_skipped(sqlite_db) -> None:
    game_id = _game()
    seat, mail = _chooser(game_id)
    send(message("Hola:\nfirts kennedy\nSaludos", to=address(game_id, seat), sender=mail))
    reply = _reply(mail)
    applied, meant = ("## Not applied", "Did you mean:") if seat == "kennedy" else ("## No aplicado", "¿Quisiste decir…?")
    assert applied in reply and meant in reply
    assert reply.split(meant, 1)[1].startswith("\n\n    first kennedy\n")
    assert "    Hola:" in reply and "    Saludos" in reply, reply  # the greeting and closing are only listed
    assert _state(game_id)["first"] is None


def test_a_misspelt_command_word_is_suggested(sqlite_db) -> None:
    game_id = _game()
    send(message("STAUTS", to=address(game_id, "kennedy"), sender=KENNEDY))
    reply = _reply(KENNEDY)
    assert "Did you mean:" in reply and "    STATUS" in reply


def test_spanish_order_verbs_and_the_cp_cost_reason(sqlite_db) -> None:
    """Rulebook (1960, "Campaña"): "si un jugador desea mover su ficha de candidato a una región
    diferente, debe pagar un costo de viaje de 1 CP cada vez que cruza un límite regional"."""
    game_id = _game()
    seat, mail = _chooser(game_id)
    send(message("primero kennedy", to=address(game_id, seat), sender=mail))
    state = _state(game_id)
    card = min(state["private"]["kennedy"]["hand"])
    send(message(f"jugar {card} pc", to=address(game_id, "kennedy"), sender=KENNEDY))
    state = _state(game_id)
    frame = state["flow"][-1]
    assert frame["node"] == "cp" and frame["args"]["card"] == card
    # Kennedy's token starts in Massachusetts (East); California is two borders away (West)
    assert state["tokens"]["kennedy"] == "MA"
    send(message("campaign california 9", to=address(game_id, "kennedy"), sender=KENNEDY))
    reply = _reply(KENNEDY)
    from adjudicator.games.nineteen_sixty.modifiers import cp_value
    from adjudicator.games.nineteen_sixty.play import printed_cp

    left = cp_value(state, "kennedy", printed_cp(card), "campaign")
    assert (f"campaigning 9 in California costs 9 CP plus 2 CP to travel to another region (11 CP) and you have "
            f"{left} left") in reply
    assert "Did you mean:" in reply and "    campaign California" in reply
