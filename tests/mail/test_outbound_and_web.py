"""Outgoing mail (your-turn content, headers, digest, chat webhook) and the web side (inbound
webhook, dev mail page, press and settings page)."""

from __future__ import annotations

import json
import threading
from email import message_from_bytes, policy
from http.server import BaseHTTPRequestHandler, HTTPServer

from adjudicator import service, store
from tests.mail.conftest import address, message, outbox
from tests.support.play import PlayedGame, new_game
from workers.enqueue import enqueue


def test_your_turn_mail_has_everything_needed_to_answer(game: PlayedGame, mail_env) -> None:
    start = [m for m in outbox("p1@example.org") if m.kind == "start"][0]
    for part in ("## Your view of the board", "Legal orders now", "Example: reply to this mail with the line",
                 "Deadline:", address(game.game_id, "p1", tagged=True), "SIGNON", "committed as"):
        assert part in start.body, part
    enqueue(game.tasks)
    eml = sorted(mail_env.glob("*.eml"))[0]
    msg = message_from_bytes(eml.read_bytes(), policy=policy.default)
    assert msg["List-Id"] and msg["Auto-Submitted"] == "auto-generated" and msg["References"]
    assert msg.get_body(("html",)) is not None and "<script" not in msg.get_body(("html",)).get_content()


def test_end_mail_reveals_the_seed_and_how_to_verify(toy, db) -> None:
    game = new_game(seats=2, options={"rounds": 1})
    game.submit("p1", "bid 3")
    enqueue(game.submit("p2", "bid 1").tasks)
    game.submit("p1", "keep") if game.page("p1").prompt else None
    end = [m for m in outbox() if m.kind == "end"]
    assert end and "pbem verify" in end[0].body and "server seed is now public" in end[0].body


class _Hook(BaseHTTPRequestHandler):
    received: list[dict] = []

    def do_POST(self) -> None:  # noqa: N802
        body = self.rfile.read(int(self.headers["Content-Length"]))
        _Hook.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args) -> None:
        pass


def test_digest_and_chat_webhook(toy, db, monkeypatch) -> None:
    # the hook listens on loopback over http: allowed here only by the two operator settings
    monkeypatch.setenv("PBEM_WEBHOOK_ALLOW_HTTP", "1")
    monkeypatch.setenv("PBEM_WEBHOOK_ALLOW_PRIVATE", "1")
    server = HTTPServer(("127.0.0.1", 0), _Hook)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        game = new_game(seats=2)
        url = f"http://127.0.0.1:{server.server_port}/hook"
        with store.transaction() as s:
            service.update_settings(s, game.game_id, "p1", game.tokens["p1"], "digest", url, "Europe/Berlin")
        game.submit("p1", "bid 3")
        enqueue(game.submit("p2", "bid 1").tasks)
        held = outbox("p1@example.org")
        assert held[-1].status == "held" and "CET" in held[-1].body or "CEST" in held[-1].body
        assert _Hook.received and "text" in _Hook.received[-1] and "content" in _Hook.received[-1]
        with store.transaction() as s:
            tasks = service.send_digests(s)
        enqueue(tasks)
        digest = outbox("p1@example.org", "digest")
        assert len(digest) == 1 and digest[0].status == "sent" and "Daily digest" in digest[0].body
    finally:
        server.shutdown()


def _app(tmp_path, **config):
    from web import create_app

    return create_app({"TESTING": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'w.sqlite'}",
                       "SECRET_KEY": "k", "PBEM_VAR_DIR": str(tmp_path / "var"), **config})


def test_inbound_webhook_is_authenticated_and_csrf_exempt(tmp_path, toy) -> None:
    app = _app(tmp_path, PBEM_MAIL_WEBHOOK_SECRET="s3cret")
    client = app.test_client()
    game = new_game(seats=2)
    raw = bytes(message("bid 2", to=address(game.game_id, "p1")))
    assert client.post("/mail/inbound", data=raw, headers={"Authorization": "Bearer nope"}).status_code == 403
    resp = client.post("/mail/inbound", data=raw, content_type="message/rfc822",
                       headers={"Authorization": "Bearer s3cret"})
    assert resp.status_code == 202
    assert game.page("p1").receipt.order_text == "bid 2"
    again = client.post("/mail/inbound?secret=s3cret", data={"email": raw.decode()})
    assert again.status_code == 200 and again.json == {"stored": False}  # same Message-ID
    assert _app(tmp_path / "b").test_client().post("/mail/inbound", data=raw).status_code == 404
    store.configure(None)


def test_inbound_webhook_takes_mails_up_to_the_documented_512_kib(tmp_path, toy) -> None:
    app = _app(tmp_path, PBEM_MAIL_WEBHOOK_SECRET="s3cret")
    client = app.test_client()
    game = new_game(seats=2)
    body = "bid 2\n" + "// padding padding padding\n" * 15_000  # about 420 KB, above the app's 256 KiB cap
    raw = bytes(message(body, to=address(game.game_id, "p1")))
    assert 256 * 1024 < len(raw) < 512 * 1024
    resp = client.post("/mail/inbound?secret=s3cret", data=raw)
    assert resp.status_code == 202 and resp.json == {"stored": True}
    too_big = client.post("/mail/inbound?secret=s3cret", data=b"x" * (2 * 512 * 1024 + 65 * 1024))
    assert too_big.status_code == 413
    store.configure(None)


def test_dev_mail_page_only_in_the_embedded_setup(tmp_path, toy) -> None:
    app = _app(tmp_path, PBEM_DEV_MAIL=True, PBEM_BIND_HOST="127.0.0.1")
    enqueue(new_game(seats=2).tasks)
    page = app.test_client().get("/dev/mail")
    assert page.status_code == 200 and b"the game has started" in page.data
    name = page.data.split(b'/dev/mail/')[1].split(b'"')[0].decode()
    one = app.test_client().get(f"/dev/mail/{name}")
    assert one.status_code == 200 and b"Reply-To" in one.data
    spanish = app.test_client().get("/dev/mail?lang=es").get_data(as_text=True)
    assert "Correo enviado por este servidor" in spanish and "Asunto" in spanish
    assert "Todo el correo" in app.test_client().get(f"/dev/mail/{name}?lang=es").get_data(as_text=True)
    assert _app(tmp_path / "b").test_client().get("/dev/mail").status_code == 404
    # from another machine, or through a proxy: absent
    client = app.test_client()
    assert client.get("/dev/mail", environ_base={"REMOTE_ADDR": "203.0.113.9"}).status_code == 404
    assert client.get(f"/dev/mail/{name}", headers={"X-Forwarded-For": "203.0.113.9"}).status_code == 404
    store.configure(None)


def test_dev_mail_page_absent_unless_development_mode_on_loopback(tmp_path, toy) -> None:
    for n, config in enumerate([
        {"PBEM_DEV_MAIL": True, "PBEM_BIND_HOST": "0.0.0.0"},  # development mode, public bind
        {"PBEM_DEV_MAIL": True, "PBEM_BIND_HOST": ""},  # a WSGI server: bind unknown
        {"PBEM_DEV_MAIL": False, "PBEM_BIND_HOST": "127.0.0.1"},  # production mode on loopback
        {"DEBUG": True, "PBEM_BIND_HOST": "::1"},  # debug alone is not development mail mode
    ]):
        app = _app(tmp_path / str(n), **config)
        enqueue(new_game(seats=2).tasks)
        assert app.test_client().get("/dev/mail").status_code == 404, config
        store.configure(None)
    from adjudicator.cli.run import _loopback
    from web.mail import is_loopback

    for host, expected in [("127.0.0.1", True), ("localhost", True), ("[::1]", True), ("0.0.0.0", False),
                           ("192.168.1.4", False), ("example.org", False)]:
        assert is_loopback(host) is expected and _loopback(host) is expected


def test_press_and_settings_page(tmp_path, toy) -> None:
    app = _app(tmp_path, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    game = new_game(seats=3)
    base = f"/play/{game.game_id}/p1/{game.tokens['p1']}/mail"
    assert client.post(base, data={"action": "press", "to": ["p2"], "text": "psst"}).status_code == 303
    assert b"psst" in client.get(base).data
    other = client.get(f"/play/{game.game_id}/p3/{game.tokens['p3']}/mail").data
    assert b"psst" not in other  # private press: recipients only
    assert client.post(base, data={"action": "settings", "mail_mode": "off"}).status_code == 303
    assert client.post(base, data={"action": "settings", "mail_mode": "each",
                                   "chat_webhook": "ftp://x"}).status_code == 400
    store.configure(None)


def test_moderator_sees_inbound_mail_with_its_signals(tmp_path, toy) -> None:
    app = _app(tmp_path)
    game = new_game(seats=2)
    from tests.mail.conftest import send

    send(message("bid 1", to=address(game.game_id, "p1"), sender="mallory@evil.test"))
    page = app.test_client().get(f"/admin/{game.game_id}/{game.admin_token}")
    assert page.status_code == 200 and b"mallory@evil.test" in page.data and b"DKIM" in page.data
    store.configure(None)
