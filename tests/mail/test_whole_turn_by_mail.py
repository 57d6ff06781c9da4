"""A whole turn in one mail line (issue 24): a 1960 player copies a listed line that plays a card
and spends its CP, and the reply lists every order applied; a line whose second order is refused
applies nothing and says which order and why. In-process: tasks inline, SQLite."""

from __future__ import annotations

import re

from sqlmodel import select

from adjudicator import service, store
from adjudicator.bench.pace import listed_orders
from adjudicator.service.common.core import current_prompts, find_game
from adjudicator.store import Game
from tests.mail.conftest import address, message, outbox, send

MAILS = {"kennedy": "kennedy@example.org", "nixon": "nixon@example.org"}


def _kennedy_to_play() -> str:
    """A 1960 game where Kennedy plays first; his newest mail asks for his card."""
    with store.transaction() as s:
        created = service.create_game(s, game="1960", seats=2, title="1960")
    for seat, invite in created.invites.items():
        with store.transaction() as s:
            service.join_game(s, created.game_id, seat, invite, name=seat.title(), email=MAILS[seat],
                              language="es" if seat == "nixon" else "")
    with store.transaction(write=False) as s:
        chooser = next(iter(current_prompts(find_game(s, created.game_id))))
    send(message("first kennedy", to=address(created.game_id, chooser), sender=MAILS[chooser]))
    return created.game_id


def _length(game_id: str) -> int:
    with store.transaction(write=False) as s:
        return s.exec(select(Game.record_length).where(Game.public_id == game_id)).one()


def test_a_listed_whole_turn_line_is_applied_from_one_mail(sqlite_db) -> None:
    game_id = _kennedy_to_play()
    listed = listed_orders(outbox(MAILS["kennedy"])[-1].body)
    whole = [line for line in listed if re.match(r"play \d+ cp; campaign ", line)]
    assert whole, listed  # the card play is offered with its campaign points
    before = _length(game_id)
    send(message(f"Hi,\n{whole[0]}\nThanks", to=address(game_id, "kennedy"), sender=MAILS["kennedy"]))
    reply = outbox(MAILS["kennedy"], "reply")[-1].body
    parts = whole[0].split("; ")
    applied = reply.split("## Applied", 1)[1].split("##", 1)[0]
    assert [line.strip() for line in applied.strip().splitlines()] == parts
    assert _length(game_id) == before + len(parts)


def test_a_line_whose_second_order_is_refused_applies_nothing_and_says_why(sqlite_db) -> None:
    game_id = _kennedy_to_play()
    listed = listed_orders(outbox(MAILS["kennedy"])[-1].body)
    play = next(line.split(";")[0] for line in listed if re.match(r"play \d+ cp\b", line))
    before = _length(game_id)
    send(message(f"{play}; campaign Ohio 9", to=address(game_id, "kennedy"), sender=MAILS["kennedy"]))
    reply = outbox(MAILS["kennedy"], "reply")[-1].body
    assert "## Not applied" in reply and "## Applied" not in reply
    assert "`campaign Ohio 9`" in reply and "order 2 of the line" in reply and "nothing of that line" in reply
    assert _length(game_id) == before
    with store.transaction(write=False) as s:
        assert current_prompts(find_game(s, game_id))["kennedy"].kind == "play"


def test_help_and_status_explain_the_whole_turn_line_with_the_seats_own_example(sqlite_db) -> None:
    game_id = _kennedy_to_play()
    send(message("HELP\nSTATUS", to=address(game_id, "kennedy"), sender=MAILS["kennedy"]))
    reply = outbox(MAILS["kennedy"], "reply")[-1].body
    assert "A whole turn fits in one line" in reply
    example = reply.split("For your decision now, a whole turn in one line reads:", 1)[1].strip().splitlines()[0]
    assert re.match(r"play \d+ cp; ", example.strip()), example
    whole = reply.split("Or a whole turn in one line (applied whole or not at all):", 1)[1]
    assert re.search(r"^    play \d+ cp; campaign ", whole, re.M)
    send(message("AYUDA", to=address(game_id, "nixon"), sender=MAILS["nixon"]))  # in Spanish too
    assert "Un turno entero cabe en una línea" in outbox(MAILS["nixon"], "reply")[-1].body
