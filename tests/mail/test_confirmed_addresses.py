"""Confirmed addresses (issue 26): the server mails an address nothing written by another person
until its owner confirmed it (a confirmation link, a mail from it carrying its seat's token, or
signing in); until then only its own fixed confirmation request, at most twice a day."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from sqlmodel import select

from adjudicator import service, store
from adjudicator.service.common import verified
from adjudicator.store import OutboxMessage, PlayerAccount
from tests.mail.conftest import address, message, outbox, send
from tests.support.play import new_game, verify_addresses
from workers.enqueue import enqueue

STRANGER_WORDS = "Claim your prize at hxxp://evil.example/win"
TITLE = "Free money inside"


def _run(fn, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
    """One service call in its transaction, its tasks run inline (PBEM_EAGER: mail delivered)."""
    with store.transaction() as s:
        result = fn(s, *args, **kwargs)
    enqueue(result if isinstance(result, list) else getattr(result, "tasks", []))
    return result


def _stranger_games(victims: list[str]) -> list[tuple[str, str, dict[str, str]]]:
    """Games created by a stranger whose seats they took with the victims' addresses, named like
    the stranger's spam: (game id, admin token, seat tokens)."""
    games = []
    sizes = [4, 3, 3][: len(victims)]
    it = iter(victims)
    for seats in sizes:
        created = _run(service.create_game, game="toy", seats=seats, title=TITLE)
        tokens = {}
        for seat, invite in created.invites.items():
            joined = _run(service.join_game, created.game_id, seat, invite, name=STRANGER_WORDS, email=next(it))
            tokens[seat] = joined.seat_token
        games.append((created.game_id, created.admin_token, tokens))
    return games


def _mail_files(folder: Path) -> list[str]:
    return [p.read_text(errors="replace") for p in sorted(folder.glob("*.eml"))] if folder.exists() else []


def test_a_stranger_relays_no_words_to_ten_unconfirmed_addresses(db, toy, mail_env: Path) -> None:  # noqa: ANN001
    victims = [f"victim{i}@example.org" for i in range(10)]
    games = _stranger_games(victims)
    for game_id, admin, tokens in games:
        for seat, token in tokens.items():
            _run(service.send_press, game_id, seat, token, ["all"], STRANGER_WORDS)
        _run(service.broadcast, game_id, admin, STRANGER_WORDS)
    rows = outbox()
    to_victims = [r for r in rows if r.to.lower() in victims]
    sent = [r for r in to_victims if r.status in ("pending", "sending", "sent", "held")]
    assert sent and {r.kind for r in sent} == {"confirm"}, "only the fixed confirmation request goes out"
    for victim in victims:
        assert len([r for r in sent if r.to == victim]) == 1, "once: the join and the game's first mails ask once"
    for r in sent:
        assert STRANGER_WORDS not in r.body + r.subject and TITLE not in r.body + r.subject
        assert "evil" not in r.body + r.subject
    held = [r for r in to_victims if r.status == verified.HELD]
    assert {r.kind for r in held} >= {"press", "start"}, "what carries their words waits, unsent"
    files = _mail_files(mail_env)
    assert len(files) == len(victims)
    assert not any("evil.example" in f or "Free money" in f for f in files)


def test_the_confirmation_request_is_capped_per_address_and_day(db, toy) -> None:  # noqa: ANN001
    victim = "target@example.org"
    for _ in range(3):  # three games, each naming the victim for all its seats
        created = _run(service.create_game, game="toy", seats=2, title=TITLE)
        for seat, invite in created.invites.items():
            _run(service.join_game, created.game_id, seat, invite, name="x", email=victim.upper())
    assert len(outbox(victim, "confirm")) == 1, "spaced CONFIRM_SPACING apart"
    with store.transaction() as s:  # a day later, the requests are allowed again, up to the cap
        for row in s.exec(select(OutboxMessage).where(OutboxMessage.kind == "confirm")).all():
            row.created_at = row.created_at - timedelta(hours=7)
            s.add(row)
    created = _run(service.create_game, game="toy", seats=2)
    for seat, invite in created.invites.items():
        _run(service.join_game, created.game_id, seat, invite, name="x", email=victim)
    assert len(outbox(victim, "confirm")) == verified.CONFIRM_REQUESTS_PER_DAY == 2
    created = _run(service.create_game, game="toy", seats=2)
    with store.transaction() as s:
        for row in s.exec(select(OutboxMessage).where(OutboxMessage.kind == "confirm")).all():
            row.created_at = row.created_at - timedelta(hours=7)
            s.add(row)
    for seat, invite in created.invites.items():
        _run(service.join_game, created.game_id, seat, invite, name="x", email=victim)
    assert len(outbox(victim, "confirm")) == 2, "two in any 24 hours"


def _confirm_link(body: str) -> str:
    found = re.search(r"/confirm/([A-Za-z0-9_.\-]+)>", body)
    assert found, body
    return found.group(1)


def test_after_the_owner_confirms_by_link_the_held_mails_and_the_next_ones_flow(db, toy) -> None:  # noqa: ANN001
    created = _run(service.create_game, game="toy", seats=2, title="Club game")
    tokens = {}
    for seat, invite in created.invites.items():
        tokens[seat] = _run(service.join_game, created.game_id, seat, invite, name=seat,
                            email=f"{seat}@example.org").seat_token
    _run(service.send_press, created.game_id, "p1", tokens["p1"], ["p2"], "Hello p2")
    assert [r.status for r in outbox("p2@example.org", "press")] == [verified.HELD]
    [request] = outbox("p2@example.org", "confirm")
    token = _confirm_link(request.body)
    with store.transaction(write=False) as s:
        assert service.confirmed_address(s, token) == "p2@example.org"
        assert not verified.is_verified(s, "p2@example.org"), "reading the link confirms nothing"
    _run(service.confirm_by_link, token)
    assert {r.kind: r.status for r in outbox("p2@example.org") if r.kind != "confirm"} == \
        {"start": "sent", "press": "sent"}
    _run(service.send_press, created.game_id, "p1", tokens["p1"], ["p2"], "Again")
    assert [r.status for r in outbox("p2@example.org", "press")] == ["sent", "sent"]
    assert [r.status for r in outbox("p1@example.org", "start")] == [verified.HELD], "p1 did not confirm"


def test_a_tampered_confirmation_link_is_refused(db) -> None:  # noqa: ANN001
    token = verified._serializer().dumps("a@example.org")
    with store.transaction(write=False) as s:
        try:
            service.confirmed_address(s, token[:-2] + "xx")
        except service.Forbidden as exc:
            assert "not valid" in str(exc)
        else:
            raise AssertionError("a changed link must be refused")


def test_a_reply_from_the_address_with_its_seat_token_confirms_it(db, toy) -> None:  # noqa: ANN001
    created = _run(service.create_game, game="toy", seats=2)
    for seat, invite in created.invites.items():
        _run(service.join_game, created.game_id, seat, invite, name=seat, email=f"{seat}@example.org")
    [request] = outbox("p1@example.org", "confirm")
    assert request.headers["Reply-To"] == address(created.game_id, "p1")
    # a forged From with the token (were it known) does not confirm: the From must be the address
    send(message("STATUS", to=address(created.game_id, "p1"), sender="mallory@evil.test"))
    with store.transaction(write=False) as s:
        assert not verified.is_verified(s, "p1@example.org")
    send(message("STATUS", to=address(created.game_id, "p1"), sender="P1 <p1@example.org>"))
    with store.transaction(write=False) as s:
        assert verified.is_verified(s, "p1@example.org")
    assert outbox("p1@example.org", "start")[0].status == "sent", "what waited went out"
    assert outbox("p1@example.org", "reply")[-1].status == "sent"


def test_signing_in_verifies_the_address_and_joining_then_asks_nothing(db, toy) -> None:  # noqa: ANN001
    verify_addresses("ann@example.org")  # as redeeming a sign-in link does
    created = _run(service.create_game, game="toy", seats=2)
    for seat, invite in created.invites.items():
        _run(service.join_game, created.game_id, seat, invite, name=seat, email="Ann@Example.org")
    assert outbox("Ann@Example.org", "confirm") == [] and outbox("ann@example.org", "confirm") == []
    assert [r.status for r in outbox("Ann@Example.org", "start")] == ["sent", "sent"]
    with store.transaction(write=False) as s:
        assert s.exec(select(PlayerAccount.email)).all() == ["ann@example.org"]


def test_games_set_up_for_confirmed_players_mail_as_before(db, toy) -> None:  # noqa: ANN001
    new_game(seats=2)
    assert outbox(kind="confirm") == []
    assert {r.status for r in outbox(kind="start")} <= {"pending", "sent"}


def test_a_verification_rolled_back_is_not_remembered(db) -> None:  # noqa: ANN001
    with store.transaction() as s:
        nested = s.begin_nested()
        verified.verify_address(s, "x@example.org")
        assert verified.is_verified(s, "x@example.org")
        nested.rollback()
        assert not verified.is_verified(s, "x@example.org"), "the savepoint took the account with it"
