"""Bounds on press and broadcast (per seat, per game, per recipient) and on anonymous game creation
and joins (per client network), each refused with the time it may be done again; retention
(`pbem prune`). Issue 26."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sqlmodel import select

from adjudicator import service, store
from adjudicator.cli.main import main as pbem
from adjudicator.service.common import clientbounds, verified
from adjudicator.service.mail.bounces import message_id_for
from adjudicator.service.people import pressbounds
from adjudicator.service.upkeep import retention
from adjudicator.store import ClientAction, InboxMessage, OutboxMessage, Press
from tests.support.play import new_game

T0 = datetime(2026, 11, 27, 10, 0, 20, tzinfo=UTC)


def _press(game, seat: str, to: list[str], at: datetime, text: str = "hi") -> None:  # noqa: ANN001
    with store.transaction() as s:
        service.send_press(s, game.game_id, seat, game.tokens[seat], to, text, now=at)


def _refused(game, seat: str, to: list[str], at: datetime) -> service.TooMany:  # noqa: ANN001
    with pytest.raises(service.TooMany) as caught, store.transaction() as s:
        service.send_press(s, game.game_id, seat, game.tokens[seat], to, "one more", now=at)
    return caught.value


def _press_count() -> int:
    with store.transaction(write=False) as s:
        return len(s.exec(select(Press.id)).all())


def test_press_per_seat_is_bounded_and_the_refusal_says_when(db, toy, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(pressbounds, "PER_SEAT", 3)
    game = new_game(seats=3)
    for i in range(3):
        _press(game, "p1", ["p2"], T0 + timedelta(minutes=i))
    error = _refused(game, "p1", ["p3"], T0 + timedelta(minutes=10))
    assert "you sent 3 messages in the last hour" in str(error)
    assert "You may send it again from 2026-11-27 11:01 UTC" in str(error)  # the oldest of the 3, an hour on
    assert error.retry_at == datetime(2026, 11, 27, 11, 1, tzinfo=UTC)
    assert _press_count() == 3, "a refused message is not stored"
    _press(game, "p2", ["p1"], T0 + timedelta(minutes=10))  # another seat is not bounded by p1's
    _press(game, "p1", ["p2"], error.retry_at)  # and at the time said, p1 may again


def test_press_per_game_and_per_recipient(db, toy, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(pressbounds, "PER_RECIPIENT", 2)
    game = new_game(seats=3)
    _press(game, "p1", ["p3"], T0)
    _press(game, "p2", ["p3"], T0 + timedelta(minutes=5))
    error = _refused(game, "p1", ["p2", "p3"], T0 + timedelta(minutes=6))
    assert "p3 received 2 press messages in the last hour" in str(error) and "11:01 UTC" in str(error)
    _press(game, "p1", ["p2"], T0 + timedelta(minutes=6))  # p2 may still receive
    monkeypatch.setattr(pressbounds, "PER_GAME", 3)
    error = _refused(game, "p3", ["p1"], T0 + timedelta(minutes=7))
    assert "this game carried 3 press messages in the last hour" in str(error)


def test_the_moderators_broadcasts_are_bounded_per_game(db, toy, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(pressbounds, "BROADCASTS", 2)
    game = new_game(seats=2)
    for i in range(2):
        with store.transaction() as s:
            service.broadcast(s, game.game_id, game.admin_token, f"news {i}", now=T0 + timedelta(minutes=i))
    with pytest.raises(service.TooMany) as caught, store.transaction() as s:
        service.broadcast(s, game.game_id, game.admin_token, "news 3", now=T0 + timedelta(minutes=30))
    assert "you sent 2 messages in the last hour" in str(caught.value) and "11:01" in str(caught.value)


def test_press_refused_by_mail_says_when(db, toy, monkeypatch, tmp_path) -> None:  # noqa: ANN001
    from tests.mail.conftest import address, message, outbox, send

    monkeypatch.setenv("PBEM_EAGER", "1")
    monkeypatch.setenv("PBEM_MAIL_DIR", str(tmp_path / "mail"))
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    monkeypatch.setattr(pressbounds, "PER_SEAT", 1)
    game = new_game(seats=2)
    now = service.utcnow()
    _press(game, "p1", ["p2"], now)
    send(message("PRESS TO p2\nagain\nENDPRESS", to=address(game.game_id, "p1")))
    reply = outbox("p1@example.org", "reply")[-1]
    assert "Not sent: you sent 1 messages in the last hour" in reply.body
    assert "You may send it again from" in reply.body
    assert len(outbox("p2@example.org", "press")) == 1


# ------------------------------------------------------------------------------ client networks

def _create(client: str, signed_in: bool = False, at: datetime | None = None) -> str:
    with store.transaction() as s:
        created = service.create_game(s, game="toy", seats=2, client=client, signed_in=signed_in)
        if at is not None:  # the count as if made at `at`
            for row in s.exec(select(ClientAction)).all():
                if row.at > at:
                    row.at = at
                    s.add(row)
        return created.game_id


def test_anonymous_creation_is_bounded_per_network(db, toy, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setitem(clientbounds.BOUNDS, "create", (3, 5))
    for i in range(3):
        _create(f"203.0.113.{i + 1}")  # one /24: one network
    with pytest.raises(service.TooMany) as caught:
        _create("203.0.113.200")
    assert "3 games were created from your network in the last hour" in str(caught.value)
    assert "Try again from" in str(caught.value) and "Signed-in players may do more." in str(caught.value)
    _create("198.51.100.7")  # another network is not held back
    for _ in range(2):  # a signed-in player's bound is higher
        _create("203.0.113.9", signed_in=True)
    with pytest.raises(service.TooMany):
        _create("203.0.113.9", signed_in=True)
    with store.transaction(write=False) as s:
        tags = set(s.exec(select(ClientAction.network)).all())
    assert "203.0.113" not in "".join(tags), "the network is kept as a keyed hash only"


def test_an_ipv6_56_is_one_network_and_joins_are_bounded(db, toy, monkeypatch) -> None:  # noqa: ANN001
    monkeypatch.setitem(clientbounds.BOUNDS, "join", (2, 4))
    games = []
    for _ in range(2):
        with store.transaction() as s:
            games.append(service.create_game(s, game="toy", seats=2))
    joins = [(c.game_id, seat, invite) for c in games for seat, invite in c.invites.items()]
    for i, (game_id, seat, invite) in enumerate(joins[:2]):
        with store.transaction() as s:
            service.join_game(s, game_id, seat, invite, "x", client=f"2001:db8:ab00:{i}::1")
    with pytest.raises(service.TooMany) as caught, store.transaction() as s:
        service.join_game(s, joins[2][0], joins[2][1], joins[2][2], "x", client="2001:db8:ab00:ff::2")
    assert "2 seats were taken from your network in the last hour" in str(caught.value)
    with store.transaction() as s:  # the refused invitation still works, from elsewhere
        service.join_game(s, joins[2][0], joins[2][1], joins[2][2], "x", client="2001:db8:ac00::1")


# ------------------------------------------------------------------------------ retention

RAW = (b"From: a@b.test\r\nTo: pbem@pbem.test\r\nSubject: junk\r\nMessage-ID: <big@x>\r\n\r\n" + b"x" * 20_000)


def test_prune_trims_and_deletes_dropped_mail_and_keeps_message_ids(db) -> None:  # noqa: ANN001
    now = datetime(2026, 11, 27, tzinfo=UTC)
    with store.transaction() as s:
        s.add(InboxMessage(message_id="<old@x>", raw=RAW, status="dropped", received_at=now - timedelta(days=31)))
        s.add(InboxMessage(message_id="<new@x>", raw=RAW, status="dropped", received_at=now - timedelta(days=29)))
        s.add(InboxMessage(message_id="<done@x>", raw=RAW, status="done", received_at=now - timedelta(days=31)))
        for i, (status, age) in enumerate([("sent", 91), ("sent", 89), ("failed", 120), (verified.HELD, 31),
                                           (verified.HELD, 29)]):
            s.add(OutboxMessage(to=f"r{i}@example.org", subject="s", body="secret words", status=status,
                                created_at=now - timedelta(days=age)))
    with store.transaction() as s:
        result = retention.prune(s, now)
    assert (result.deleted_inbox, result.trimmed_inbox, result.pruned_outbox, result.deleted_held) == (1, 1, 1, 1)
    with store.transaction(write=False) as s:
        inbox = {r.message_id: bytes(r.raw) for r in s.exec(select(InboxMessage)).all()}
        out = {r.to: r for r in s.exec(select(OutboxMessage)).all()}
    assert set(inbox) == {"<new@x>", "<done@x>"}
    assert inbox["<new@x>"] == RAW[: RAW.index(b"\r\n\r\n") + 4 + 4096] and inbox["<done@x>"] == RAW
    assert out["r0@example.org"].body == "" and out["r1@example.org"].body == "secret words"
    assert out["r2@example.org"].body == "secret words", "a failed mail may be retried: kept whole"
    assert set(out) == {"r0@example.org", "r1@example.org", "r2@example.org", "r4@example.org"}
    old = out["r0@example.org"]
    assert message_id_for(old.id or 0, int(old.created_at.timestamp())).startswith("<")
    assert old.created_at == now - timedelta(days=91), "the row keeps what its Message-ID is made of"
    with store.transaction() as s:
        assert retention.prune(s, now).pruned_outbox == 0, "nothing twice"


def test_a_dropped_mail_is_trimmed_when_dropped(db, monkeypatch, tmp_path) -> None:  # noqa: ANN001
    monkeypatch.setenv("PBEM_MAIL_DNS", "0")
    with store.transaction() as s:
        [(_kind, inbox_id)] = service.receive_mail(s, RAW, "smtp", "a@b.test", ["pbem@pbem.test"], "127.0.0.1")
    with store.transaction() as s:
        service.process_mail(s, inbox_id)
    with store.transaction(write=False) as s:
        row = s.exec(select(InboxMessage)).one()
    assert row.status == "dropped" and len(bytes(row.raw)) == RAW.index(b"\r\n\r\n") + 4 + 4096


def test_pbem_prune_and_the_daily_beat(db, capsys) -> None:  # noqa: ANN001
    with store.transaction() as s:
        s.add(OutboxMessage(to="r@example.org", body="old", status="sent",
                            created_at=service.utcnow() - timedelta(days=10)))
    assert pbem(["prune", "--outbox-days", "30"]) == 0
    assert "0 bodies removed" in capsys.readouterr().out
    assert pbem(["prune", "--outbox-days", "5"]) == 0
    assert "1 bodies removed" in capsys.readouterr().out
    from workers.celery_app import celery
    from workers.tasks import prune as prune_task

    entry = celery.conf.beat_schedule["prune"]
    assert entry["task"] == "workers.tasks.prune" and entry["schedule"] == 24 * 3600
    with store.transaction() as s:
        s.add(OutboxMessage(to="q@example.org", body="older", status="sent",
                            created_at=service.utcnow() - timedelta(days=100)))
    assert "1 bodies removed" in prune_task()  # what the beat runs daily: the default 90 days
