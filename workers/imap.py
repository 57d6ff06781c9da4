"""Fetching inbound mail from an IMAP mailbox (imapclient): unseen messages are stored in the inbox
and marked \\Seen; the Message-ID dedupe makes a repeated fetch harmless.

Two ways, chosen by IMAP_MODE:
- `poll` (default): a Celery beat task every PBEM_IMAP_SECONDS (60) fetches what is unseen.
- `idle`: `pbem imap` (or `pbem run`) keeps one connection open in IMAP IDLE, so the server tells
  us at once when mail arrives; it fetches then, and also every PBEM_IMAP_IDLE_SECONDS (300) in
  case a notice was lost. It reconnects after errors, waiting longer each time (up to 5 minutes).

Settings: IMAP_HOST, IMAP_PORT (993, or 143), IMAP_SECURITY (ssl | starttls | none; ssl on 993),
IMAP_USER, IMAP_PASSWORD, IMAP_FOLDER (INBOX).
"""

from __future__ import annotations

import logging
import os
import ssl
import threading
from collections.abc import Callable

from imapclient import IMAPClient
from imapclient.exceptions import IMAPClientError

from .inbound import accept

log = logging.getLogger(__name__)
MAX_PER_POLL = 200
SEEN = b"\\Seen"


def imap_mode() -> str:
    """`idle` or `poll`; only meaningful when IMAP_HOST is set."""
    return "idle" if os.environ.get("IMAP_MODE", "poll").strip().lower() == "idle" else "poll"


def connect() -> IMAPClient:
    host = os.environ["IMAP_HOST"]
    port = int(os.environ.get("IMAP_PORT", "993"))
    security = os.environ.get("IMAP_SECURITY", "ssl" if port == 993 else "starttls").lower()
    context = ssl.create_default_context()
    client = IMAPClient(host, port=port, ssl=security == "ssl", ssl_context=context, timeout=60)
    if security == "starttls":
        client.starttls(context)
    client.login(os.environ.get("IMAP_USER", ""), os.environ.get("IMAP_PASSWORD", ""))
    client.select_folder(os.environ.get("IMAP_FOLDER", "INBOX"))
    return client


def fetch_unseen(client: IMAPClient) -> int:
    """Store every unseen message of the selected folder; returns how many were new."""
    stored = 0
    for uid in client.search(["UNSEEN"])[:MAX_PER_POLL]:
        parts = client.fetch([uid], ["BODY.PEEK[]"]).get(uid) or {}
        raw = parts.get(b"BODY[]")
        if raw is None:
            continue
        if accept(bytes(raw), "imap"):
            stored += 1
        # marked only after the commit: a crash in between means a harmless re-fetch
        client.add_flags([uid], [SEEN])
    return stored


def poll_once(client: IMAPClient | None = None) -> int:
    """One poll (the beat task): connect, store what is unseen, log out."""
    own = client is None
    client = client or connect()
    try:
        return fetch_unseen(client)
    finally:
        if own:
            try:
                client.logout()
            except (OSError, IMAPClientError):
                pass


def _arrived(responses: list[tuple]) -> bool:
    return any(len(r) > 1 and r[1] in (b"EXISTS", b"RECENT") for r in responses)


def idle_loop(stop: threading.Event, on_fetch: Callable[[int], None] | None = None) -> None:
    """Until `stop` is set: wait in IDLE, fetch on news (and every PBEM_IMAP_IDLE_SECONDS)."""
    recheck = float(os.environ.get("PBEM_IMAP_IDLE_SECONDS", "300"))
    backoff = 1.0
    while not stop.is_set():
        try:
            client = connect()
        except (OSError, IMAPClientError) as exc:
            log.warning("IMAP connection failed (%s); retrying in %.0f s", exc, backoff)
            stop.wait(backoff)
            backoff = min(backoff * 2, 300.0)
            continue
        backoff = 1.0
        try:
            fetched = fetch_unseen(client)  # what arrived while we were not listening
            if on_fetch:
                on_fetch(fetched)
            while not stop.is_set():
                client.idle()
                waited, responses = 0.0, []
                # short checks so that a stop request is noticed within a second
                while not stop.is_set() and waited < recheck and not _arrived(responses):
                    responses += client.idle_check(timeout=1)
                    waited += 1
                client.idle_done()
                if stop.is_set():
                    break
                fetched = fetch_unseen(client)
                if on_fetch:
                    on_fetch(fetched)
        except (OSError, IMAPClientError) as exc:
            log.warning("IMAP connection lost (%s); reconnecting", exc)
        finally:
            try:
                client.logout()
            except (OSError, IMAPClientError):
                pass


def start_idle(on_fetch: Callable[[int], None] | None = None) -> tuple[threading.Thread, threading.Event]:
    """The IDLE listener in a background thread; set the event to stop it."""
    stop = threading.Event()
    thread = threading.Thread(target=idle_loop, args=(stop, on_fetch), name="imap-idle", daemon=True)
    thread.start()
    return thread, stop


__all__ = ["connect", "fetch_unseen", "idle_loop", "imap_mode", "poll_once", "start_idle"]
