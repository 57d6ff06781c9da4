"""IMAP polling against a real IMAP4rev1 server on loopback (a small in-test server speaking the
protocol over a socket), and a hypothesis run of thousands of malformed messages."""

from __future__ import annotations

import re
import socketserver
import threading
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlmodel import select

from adjudicator import service, store
from adjudicator.store import InboxMessage, OutboxMessage
from tests.mail.conftest import address, message
from tests.support.play import PlayedGame, new_game


class Mailbox(socketserver.StreamRequestHandler):
    """Enough of RFC 3501 (and RFC 2177 IDLE) for imapclient: CAPABILITY, LOGIN, SELECT,
    UID SEARCH UNSEEN, UID FETCH, UID STORE, IDLE/DONE, LOGOUT."""

    messages: dict[int, bytes] = {}
    seen: set[int] = set()
    idlers: list[Mailbox] = []  # connections waiting in IDLE, for `announce`

    def reply(self, line: str) -> None:
        with self.lock:
            self.wfile.write(line.encode() + b"\r\n")
            self.wfile.flush()

    @classmethod
    def announce(cls) -> None:
        """New mail: tell every connection in IDLE, as a server does."""
        for idler in list(cls.idlers):
            idler.reply(f"* {len(cls.messages)} EXISTS")

    def handle(self) -> None:
        self.lock = threading.Lock()
        self.reply("* OK IMAP4rev1 test server ready")
        while line := self.rfile.readline():
            tag, _, rest = line.decode().strip().partition(" ")
            cmd = rest.upper()
            if cmd.startswith("CAPABILITY"):
                self.reply("* CAPABILITY IMAP4rev1 IDLE")
            elif cmd.startswith("LOGIN"):
                if [w.strip('"') for w in rest.split()[1:]] != ["pbem", "secret"]:
                    self.reply(f"{tag} NO bad login")
                    continue
            elif cmd.startswith("SELECT"):
                self.reply(f"* {len(self.messages)} EXISTS")
                self.reply("* FLAGS (\\Seen)")
            elif cmd.startswith("UID SEARCH"):
                self.reply("* SEARCH " + " ".join(str(u) for u in self.messages if u not in self.seen))
            elif cmd.startswith("UID FETCH"):
                uid = int(rest.split()[2])
                raw = self.messages[uid]
                with self.lock:
                    self.wfile.write(f"* 1 FETCH (UID {uid} BODY[] {{{len(raw)}}}\r\n".encode() + raw + b")\r\n")
            elif cmd.startswith("UID STORE"):
                self.seen.add(int(rest.split()[2]))
            elif cmd.startswith("IDLE"):
                self.reply("+ idling")
                Mailbox.idlers.append(self)
                done = self.rfile.readline()
                Mailbox.idlers.remove(self)
                if done.strip().upper() != b"DONE":
                    self.reply(f"{tag} BAD expected DONE")
                    continue
            elif cmd.startswith("LOGOUT"):
                self.reply("* BYE")
                self.reply(f"{tag} OK LOGOUT completed")
                return
            self.reply(f"{tag} OK done")


def test_imap_polling(game: PlayedGame, monkeypatch) -> None:
    Mailbox.messages = {7: bytes(message("bid 2", to=address(game.game_id, "p1"))),
                        9: bytes(message("bid 1", to=address(game.game_id, "p2"), sender="p2@example.org"))}
    Mailbox.seen = set()
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Mailbox)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        monkeypatch.setenv("IMAP_HOST", "127.0.0.1")
        monkeypatch.setenv("IMAP_PORT", str(server.server_address[1]))
        monkeypatch.setenv("IMAP_SECURITY", "none")
        monkeypatch.setenv("IMAP_USER", "pbem")
        monkeypatch.setenv("IMAP_PASSWORD", "secret")
        from workers.tasks import poll_imap

        assert poll_imap() == 2
        assert Mailbox.seen == {7, 9}
        assert game.public().record_length == 2  # both sealed bids in: revealed (tasks inline)
        Mailbox.seen.clear()
        assert poll_imap() == 0  # fetched again: the Message-ID dedupe applies nothing twice
    finally:
        server.shutdown()


def test_imap_idle_fetches_as_soon_as_the_server_announces_mail(game: PlayedGame, monkeypatch) -> None:
    from workers.imap import start_idle

    Mailbox.messages = {3: bytes(message("bid 2", to=address(game.game_id, "p1")))}
    Mailbox.seen, Mailbox.idlers = set(), []
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Mailbox)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    for key, value in {"IMAP_HOST": "127.0.0.1", "IMAP_PORT": str(server.server_address[1]),
                       "IMAP_SECURITY": "none", "IMAP_USER": "pbem", "IMAP_PASSWORD": "secret",
                       "PBEM_IMAP_IDLE_SECONDS": "600"}.items():
        monkeypatch.setenv(key, value)
    fetched: list[int] = []
    thread, stop = start_idle(fetched.append)
    try:
        wait(lambda: Mailbox.idlers, "the listener to wait in IDLE")
        assert fetched == [1] and Mailbox.seen == {3}  # what was there before it listened
        Mailbox.messages[4] = bytes(message("bid 1", to=address(game.game_id, "p2"), sender="p2@example.org"))
        Mailbox.announce()
        wait(lambda: fetched == [1, 1], "the announced message to be fetched")
        assert Mailbox.seen == {3, 4}
        wait(lambda: game.public().record_length == 2, "both sealed bids to be revealed")
    finally:
        stop.set()
        thread.join(10)
        server.shutdown()
    assert not thread.is_alive()


def wait(check, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


# ------------------------------------------------------------------------------- fuzzing

_header = st.sampled_from(["From", "To", "Subject", "Message-ID", "Content-Type", "Content-Transfer-Encoding",
                           "Auto-Submitted", "Cc", "MIME-Version", "X-\x00odd", "Références"])
_value = st.one_of(st.text(max_size=60), st.sampled_from([
    "multipart/mixed; boundary=x", "text/html; charset=bogus", "base64", "quoted-printable",
    "=?utf-8?b?!!!?=", "<>", "game-gzzzzzz+p1-aaaaaaaaaaaa@pbem.test", "text/plain; charset=utf-16"]))


@st.composite
def malformed(draw, to: str) -> bytes:
    lines = [f"{draw(_header)}: {draw(_value)}" for _ in range(draw(st.integers(0, 6)))]
    if draw(st.booleans()):
        lines.append(f"To: {to}")
    body = draw(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(lambda t: t.encode("utf-8", "replace")),
                          st.sampled_from([b"--x\r\nContent-Type: text/plain\r\n\r\nbid 1\r\n--x--", b"PRESS TO",
                                           b"SIGNON a b", b"bid 2\r\nbid 9", b"<html><p>keep", b"=\xff=ZZ"])))
    sep = draw(st.sampled_from([b"\r\n", b"\n", b"\r"]))
    return sep.join(line.encode("utf-8", "surrogateescape") for line in lines) + sep + sep + body


@pytest.mark.slow
def test_thousands_of_malformed_messages(sqlite_db, toy) -> None:
    game = new_game(seats=2)
    to = address(game.game_id, "p1")
    seen: list[int] = []

    @settings(max_examples=3000, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(raw=malformed(to))
    def one(raw: bytes) -> None:
        with store.transaction() as s:
            tasks = service.receive_mail(s, raw, "smtp", "x@client.test", [], "127.0.0.1")
        for _kind, inbox_id in tasks:
            with store.transaction() as s:
                service.process_mail(s, inbox_id)
            seen.append(inbox_id)

    one()
    with store.transaction(write=False) as s:
        rows = s.exec(select(InboxMessage).where(InboxMessage.id.in_(seen))).all()  # type: ignore[attr-defined]
        reply_rows = s.exec(select(OutboxMessage).where(OutboxMessage.kind == "reply")).all()
    assert len(seen) > 1000
    assert {r.status for r in rows} <= {"done", "dropped"}
    assert all(r.outcome for r in rows)  # every drop is logged with its reason
    done = sum(r.status == "done" for r in rows)
    # one reply per answered message (In-Reply-To names it), none for a drop
    assert len(reply_rows) == done
    assert not any(re.search("Traceback", r.outcome) for r in rows)


def test_the_beat_polls_only_a_configured_mailbox_not_watched_in_idle(monkeypatch) -> None:
    from workers.celery_app import _imap_schedule

    monkeypatch.delenv("IMAP_HOST", raising=False)
    assert _imap_schedule() == {}
    monkeypatch.setenv("IMAP_HOST", "imap.example.org")
    monkeypatch.setenv("PBEM_IMAP_SECONDS", "30")
    assert _imap_schedule()["poll-imap"]["schedule"] == 30.0
    monkeypatch.setenv("IMAP_MODE", "idle")
    assert _imap_schedule() == {}
