"""Group commit in the SMTP listener (workers/groupcommit.py, issue 16): the mails that arrive
while a store is under way are stored in one transaction; each is answered "250" only after that
commit, a bad mail gets its "451" alone, and duplicates behave as with one mail per transaction."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import event

from adjudicator import service, store
from tests.mail.conftest import address, inbox, message, outbox
from tests.support.play import PlayedGame
from workers import groupcommit, inbound
from workers.smtp import Handler


def _mail(raw: bytes) -> groupcommit.Mail:
    return groupcommit.Mail(raw, "smtp", "sender@client.test", ["pbem@pbem.test"], "127.0.0.1")


def _orders(game: PlayedGame, count: int) -> list[bytes]:
    return [bytes(message(f"bid {i % 3}", to=address(game.game_id, f"p{i % 2 + 1}"),
                          sender=f"p{i % 2 + 1}@example.org")) for i in range(count)]


@pytest.fixture
def commits() -> Iterator[list[int]]:
    """The commits of the store's engine (their number)."""
    seen: list[int] = []

    def on_commit(_conn: Any) -> None:
        seen.append(1)

    engine = store.get_engine()
    event.listen(engine, "commit", on_commit)
    yield seen
    event.remove(engine, "commit", on_commit)


@pytest.fixture
def drains(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Workers mode (no inline processing): the drain requests instead of the broker."""
    monkeypatch.setenv("PBEM_EAGER", "0")
    requested: list[object] = []
    monkeypatch.setattr(inbound, "request_drain", lambda app=None: requested.append(app))
    return requested


def _answers(raws: list[bytes]) -> tuple[list[str], list[int]]:
    """The listener's answers to `raws` and the sizes of the groups stored: the first mail is
    sent alone and its store held until every other mail waits, so the rest form one group."""
    sizes: list[int] = []
    storing = threading.Event()
    real = groupcommit.store_group

    def held(group: list[groupcommit.Mail], app: Any = None) -> None:
        if not sizes:
            storing.set()
            waiting = groupcommit._committers[id(None)].queue
            while waiting.qsize() < len(raws) - 1:
                threading.Event().wait(0.01)
        sizes.append(len(group))
        real(group, app)

    async def send_all() -> list[str]:
        handler = Handler()
        session = SimpleNamespace(peer=("127.0.0.1", 4000))

        def send(raw: bytes) -> Any:
            return handler.handle_DATA(None, session, SimpleNamespace(
                original_content=raw, content=raw, mail_from="sender@client.test", rcpt_tos=["pbem@pbem.test"]))

        first = asyncio.ensure_future(send(raws[0]))
        await asyncio.get_running_loop().run_in_executor(None, storing.wait)
        rest = asyncio.gather(*[send(raw) for raw in raws[1:]])
        return [await first, *await rest]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(groupcommit, "store_group", held)
        return asyncio.run(send_all()), sizes


def test_a_group_is_one_transaction_and_one_drain(game: PlayedGame, commits: list[int],
                                                  drains: list[object]) -> None:
    group = [_mail(raw) for raw in _orders(game, 5)]
    commits.clear()  # the reads that built the mails
    groupcommit.store_group(group)
    assert len(commits) == 1 and len(drains) == 1
    assert [m.done.result() for m in group] == [True] * 5
    assert [r.status for r in inbox()] == ["new"] * 5


def test_mails_arriving_during_a_store_wait_and_go_together(game: PlayedGame, drains: list[object]) -> None:
    answers, sizes = _answers(_orders(game, 6))
    assert sizes == [1, 5]
    assert all(a.startswith("250") for a in answers)
    assert len(inbox()) == 6


def test_a_bad_mail_gets_451_and_the_others_of_its_group_are_stored(
        game: PlayedGame, monkeypatch: pytest.MonkeyPatch) -> None:
    raws = _orders(game, 5)
    real, real_many = service.receive_mail, service.receive_mails

    def receive(s: Any, raw: bytes, *args: Any) -> Any:
        if raw == raws[3]:
            raise RuntimeError("a bug storing this one mail")
        return real(s, raw, *args)

    def receive_many(s: Any, mails: list[Any]) -> Any:  # the group's store meets the same bug
        if any(m.raw == raws[3] for m in mails):
            raise RuntimeError("a bug storing this one mail")
        return real_many(s, mails)

    monkeypatch.setattr(service, "receive_mail", receive)
    monkeypatch.setattr(service, "receive_mails", receive_many)
    answers, sizes = _answers(raws)
    assert sizes == [1, 4]
    assert [a[:3] for a in answers] == ["250", "250", "250", "451", "250"]
    assert len(inbox()) == 4 and {r.status for r in inbox()} == {"done"}  # processed inline (eager)


def test_no_mail_is_acknowledged_before_its_commit(game: PlayedGame, drains: list[object]) -> None:
    group = [_mail(raw) for raw in _orders(game, 3)]
    resolved_at_commit: list[bool] = []

    def failing_commit(_conn: Any) -> None:
        if not resolved_at_commit:  # the group's commit (each mail's own follows)
            resolved_at_commit.extend(m.done.done() for m in group)
        raise OSError("disk full")

    engine = store.get_engine()
    event.listen(engine, "commit", failing_commit)
    try:
        groupcommit.store_group(group)
    finally:
        event.remove(engine, "commit", failing_commit)
    assert resolved_at_commit and not any(resolved_at_commit)
    assert all(isinstance(m.done.exception(), OSError) for m in group)  # every one: "451"
    assert inbox() == [] and drains == []


def test_a_failed_commit_answers_451_to_the_whole_group(game: PlayedGame) -> None:
    engine = store.get_engine()

    def failing_commit(_conn: Any) -> None:
        raise OSError("disk full")

    raws = _orders(game, 4)
    event.listen(engine, "commit", failing_commit)
    try:
        answers, sizes = _answers(raws)
    finally:
        event.remove(engine, "commit", failing_commit)
    assert sizes == [1, 3] and all(a.startswith("451") for a in answers)
    assert inbox() == []


def test_duplicates_within_a_group_are_stored_once(game: PlayedGame, drains: list[object]) -> None:
    raw = bytes(message("bid 1", to=address(game.game_id, "p1"), mid="<twice@client.test>"))
    forged = bytes(message("bid 2", to=address(game.game_id, "p1"), mid="<twice@client.test>"))
    group = [_mail(raw), _mail(raw), _mail(forged)]
    groupcommit.store_group(group)
    # as with one transaction each before the drain: the copies hand the stored row on again
    assert [m.done.result() for m in group] == [True, True, True]
    [row] = inbox()
    assert bytes(row.raw) == raw and row.status == "new"


def test_a_duplicate_of_a_processed_mail_in_a_group_is_not_applied(game: PlayedGame) -> None:
    raw = bytes(message("bid 1", to=address(game.game_id, "p1"), mid="<again@client.test>"))
    first = [_mail(raw)]
    groupcommit.store_group(first)  # processed inline (eager): replied to
    group = [_mail(raw), _mail(_orders(game, 1)[0]), _mail(raw)]
    groupcommit.store_group(group)
    assert first[0].done.result() is True
    assert [m.done.result() for m in group] == [False, True, False]
    assert len(inbox()) == 2 and len(outbox("p1@example.org", "reply")) == 2


def test_a_mail_whose_session_gave_up_is_left_out(game: PlayedGame, drains: list[object]) -> None:
    group = [_mail(raw) for raw in _orders(game, 3)]
    assert group[1].done.cancel()  # the session's wait was cancelled (the client went away)
    groupcommit.store_group(group)
    assert group[0].done.result() is True and group[2].done.result() is True
    assert len(inbox()) == 2
