"""Chat webhooks cannot reach the server's own network (server-side request forgery, issue 11):
https only, every resolved address public, checked when saved and again at connect time, no
redirects, capped answers."""

from __future__ import annotations

import json
import socket
import threading
from http.server import BaseHTTPRequestHandler, HTTPServer

import pytest

from adjudicator import service, store
from adjudicator.service.people import webhooks
from tests.mail.conftest import outbox
from tests.support.play import PlayedGame
from workers import mailer

REFUSED = [
    "https://127.0.0.1/hook", "https://127.1.2.3:8443/x", "https://localhost/hook", "https://10.0.0.5/hook",
    "https://192.168.1.1/", "https://172.16.0.1/", "https://169.254.169.254/latest/meta-data/",
    "https://[::1]/hook", "https://[::ffff:127.0.0.1]/hook", "https://[fd00:ec2::254]/", "https://0.0.0.0/",
    "https://224.0.0.1/", "https://100.64.0.1/", "https://user:pw@example.org/hook",
    "http://example.org/hook", "ftp://example.org/x", "https://", "javascript:alert(1)",
]


def _save(game: PlayedGame, url: str) -> None:
    with store.transaction() as s:
        service.update_settings(s, game.game_id, "p1", game.tokens["p1"], "each", url)


@pytest.mark.parametrize("url", REFUSED)
def test_refused_when_saved(game: PlayedGame, url: str) -> None:
    with pytest.raises(service.ServiceError) as err:
        _save(game, url)
    assert "chat webhook" in str(err.value)


def test_a_public_https_url_is_accepted(game: PlayedGame, monkeypatch) -> None:
    def fake_dns(host, port, *a, **k):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("93.184.215.14", port))]

    monkeypatch.setattr(socket, "getaddrinfo", fake_dns)
    _save(game, "https://chat.example.org/hooks/abc?x=1")
    with store.transaction(write=False) as s:
        assert service.seat_settings(s, game.game_id, "p1", game.tokens["p1"])["chat_webhook"] == \
            "https://chat.example.org/hooks/abc?x=1"


def test_a_name_that_resolves_inside_is_refused_at_connect_time(monkeypatch) -> None:
    """DNS rebinding: the name was public when saved, points at the metadata service when used."""
    answers = {"93.184.215.14": 1}

    def rebinding(host, port, *a, **k):
        address = "93.184.215.14" if answers["93.184.215.14"] else "169.254.169.254"
        answers["93.184.215.14"] = 0
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port))]

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    url = webhooks.check_url("https://rebind.example.org/hook")
    connected: list[object] = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connected.append(a))
    with pytest.raises(mailer.WebhookRefused, match="link-local"):
        mailer.post_webhook(url, {"text": "x"})
    assert connected == [], "never connected"


def test_a_round_robin_name_with_one_internal_address_is_refused(monkeypatch) -> None:
    def mixed(host, port, *a, **k):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in ("93.184.215.14", "10.1.2.3")]

    monkeypatch.setattr(socket, "getaddrinfo", mixed)
    with pytest.raises(webhooks.WebhookUrlError, match="private"):
        webhooks.check_url("https://mixed.example.org/hook")


class _Redirect(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_POST(self) -> None:  # noqa: N802
        _Redirect.hits.append(self.path)
        self.rfile.read(int(self.headers["Content-Length"]))
        if self.path == "/big":
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"x" * (5 * webhooks.MAX_RESPONSE_BYTES))
            return
        self.send_response(302)
        self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_redirects_are_not_followed_and_answers_are_capped(monkeypatch) -> None:
    monkeypatch.setenv("PBEM_WEBHOOK_ALLOW_HTTP", "1")
    monkeypatch.setenv("PBEM_WEBHOOK_ALLOW_PRIVATE", "1")  # the test server is on loopback
    server = HTTPServer(("127.0.0.1", 0), _Redirect)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{server.server_port}"
        with pytest.raises(mailer.WebhookRefused, match="redirect"):
            mailer.post_webhook(base + "/hook", {"text": json.dumps("x")})
        assert _Redirect.hits == ["/hook"], "the redirect target was never asked"
        mailer.post_webhook(base + "/big", {"text": "x"})  # a big answer is read up to the cap only
    finally:
        server.shutdown()


def test_a_stored_internal_url_fails_its_row_without_a_request(game: PlayedGame, monkeypatch) -> None:
    """A URL saved before this check (or by hand in the database) is refused when used."""
    from adjudicator.store import OutboxMessage

    with store.transaction() as s:
        row = OutboxMessage(game_id=None, to="https://169.254.169.254/latest/meta-data/", subject="s",
                            body="b", headers={}, kind="step", channel="webhook", seat="p1")
        s.add(row)
        s.flush()
        row_id = row.id
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: pytest.fail("connected"))
    assert mailer.deliver(row_id) == "failed"
    failed = [m for m in outbox() if m.id == row_id][0]
    assert "link-local" in failed.last_error
