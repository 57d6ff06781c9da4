"""Mail read like a person writes it (issue 24): a greeting, a closing, a signature and chatter are
skipped and listed as not read; a misspelt order or command is refused with the closest legal
orders ("did you mean"); Spanish order verbs; every refusal says why, in the rule's words.
In-process: tasks inline, SQLite, a 1960 game (two seats)."""

from __future__ import annotations

from adjudicator import service, store
from adjudicator.service.common.core import current_prompts, find_game
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
    applied, meant = (("## Not applied", "Did you mean:") if seat == "kennedy"
                      else ("## No aplicado", "¿Quisiste decir…?"))
    assert applied in reply and meant in reply
    assert reply.split(meant, 1)[1].startswith("\n\n    first kennedy\n")
    assert "    Hola:" in reply and "    Saludos" in reply, reply  # the greeting and closing are only listed
    assert _state(game_id)["first"] is None


def test_a_misspelt_command_word_is_suggested(sqlite_db) -> None:
    game_id = _game()  # one seat decides who plays first, the other has nothing to decide: both are told
    send(message("STAUTS", to=address(game_id, "kennedy"), sender=KENNEDY))
    reply = _reply(KENNEDY)
    assert "Did you mean:\n\n    STATUS\n" in reply
    send(message("ESTDO", to=address(game_id, "nixon"), sender=NIXON))
    assert "¿Quisiste decir…?\n\n    ESTADO\n" in _reply(NIXON)


def test_spanish_order_verbs_and_the_cp_cost_reason(sqlite_db) -> None:
    """Rulebook (1960, "Campaña"): "si un jugador desea mover su ficha de candidato a una región
    diferente, debe pagar un costo de viaje de 1 CP cada vez que cruza un límite regional"."""
    game_id = _game()
    seat, mail = _chooser(game_id)
    send(message("primero kennedy", to=address(game_id, seat), sender=mail))
    state = _state(game_id)
    from adjudicator.games.nineteen_sixty.data import CARDS

    card = max(state["private"]["kennedy"]["hand"], key=lambda c: (CARDS[c].cp, c))
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
    if left >= 3:  # California 1 is legal (2 CP of travel and 1 in the state): the closest orders name it
        assert "Did you mean:\n\n    campaign California " in reply


def test_a_standing_order_for_a_card_that_does_not_exist_is_refused_at_once(sqlite_db) -> None:
    game_id = _game()
    send(message("LATER play: play 999 cp", to=address(game_id, "kennedy"), sender=KENNEDY))
    reply = _reply(KENNEDY)
    assert ("`play 999 cp` cannot be an order of 1960: The Making of the President: there is no card 999: "
            "the cards are numbered 1 to 97") in reply
    assert "Standing order kept" not in reply
    send(message("STANDING", to=address(game_id, "kennedy"), sender=KENNEDY))
    assert "You have no standing orders." in _reply(KENNEDY)


def test_the_sealed_order_that_completes_the_reveal_is_not_told_it_may_be_replaced(sqlite_db, toy) -> None:
    from tests.support.play import new_game

    played = new_game(seats=2)
    send(message("bid 1", to=address(played.game_id, "p1"), sender="p1@example.org"))
    first = _reply("p1@example.org")
    assert "You may replace it by another mail until the reveal." in first
    send(message("bid 2", to=address(played.game_id, "p2"), sender="p2@example.org"))
    last = _reply("p2@example.org")
    assert "Sealed order `bid 2` received." in last
    assert "It was the last of its group, so all the orders are revealed now." in last
    assert "may replace" not in last


def test_the_civil_disorder_notice_says_what_ends_it(sqlite_db) -> None:
    from adjudicator.service.common.core import module_of, seat_row
    from adjudicator.service.play import notify

    game_id = _game()
    with store.transaction() as s:
        g = find_game(s, game_id)
        seat = seat_row(s, g, "kennedy")
        seat.missed = 2
        notify.disorder_mail(s, g, module_of(g), seat)
    body = outbox(KENNEDY, "disorder")[-1].body
    assert ("Any mail from you to your reply address ends it (your orders, or only STATUS), and so does an order, "
            "a press message or your standing orders sent from your seat page; only opening the page does not.") \
        in " ".join(body.split())
    assert "open your seat page" not in body


def test_a_queued_line_that_became_impossible_is_dropped_and_told_in_the_next_mail(sqlite_db) -> None:
    game_id = _game()
    seat, mail = _chooser(game_id)
    state = _state(game_id)
    card = state["secret"]["deck"][0]  # in nobody's hand: a legal line to queue
    send(message(f"LATER play: play {card} cp", to=address(game_id, "kennedy"), sender=KENNEDY))
    assert (f"Standing order kept for decisions of kind `play`, used once: `LATER play: play {card} cp`"
            in _reply(KENNEDY))
    with store.transaction() as s:  # an event removes the card from the game (1960: "removed" pile)
        g = find_game(s, game_id)
        changed = dict(g.state)
        changed["secret"] = {**changed["secret"], "deck": changed["secret"]["deck"][1:]}
        changed["removed"] = [*changed["removed"], card]
        g.state = changed
        s.add(g)
    send(message("first kennedy", to=address(game_id, seat), sender=mail))  # Kennedy's card play opens
    told = [m.body for m in outbox(KENNEDY) if f"`play {card} cp`" in m.body and "dropped" in m.body]
    assert told and (f"Your standing order `play {card} cp` was dropped: card {card} was removed from the game."
                     in told[-1])
    send(message("STANDING", to=address(game_id, "kennedy"), sender=KENNEDY))
    reply = _reply(KENNEDY)
    assert "You have no standing orders." in reply and "was dropped" not in reply  # told once
