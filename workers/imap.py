"""Polling a mailbox over IMAP (a Celery beat task, every PBEM_IMAP_SECONDS): unseen messages are
stored in the inbox and marked \\Seen; the Message-ID dedupe makes a repeated fetch harmless.

Settings: IMAP_HOST, IMAP_PORT (993, or 143), IMAP_SECURITY (ssl | starttls | none; ssl on 993),
IMAP_USER, IMAP_PASSWORD, IMAP_FOLDER (INBOX). The standard library has no IDLE, so this polls.
"""

from __future__ import annotations

import imaplib
import logging
import os
import ssl

from .inbound import accept

log = logging.getLogger(__name__)
MAX_PER_POLL = 200


def connect() -> imaplib.IMAP4:
    host = os.environ["IMAP_HOST"]
    port = int(os.environ.get("IMAP_PORT", "993"))
    security = os.environ.get("IMAP_SECURITY", "ssl" if port == 993 else "starttls").lower()
    context = ssl.create_default_context()
    if security == "ssl":
        client: imaplib.IMAP4 = imaplib.IMAP4_SSL(host, port, ssl_context=context, timeout=30)
    else:
        client = imaplib.IMAP4(host, port, timeout=30)
        if security == "starttls":
            client.starttls(context)
    client.login(os.environ.get("IMAP_USER", ""), os.environ.get("IMAP_PASSWORD", ""))
    return client


def poll_once(client: imaplib.IMAP4 | None = None) -> int:
    """Store every unseen message; returns how many were new."""
    own = client is None
    client = client or connect()
    stored = 0
    try:
        client.select(os.environ.get("IMAP_FOLDER", "INBOX"))
        _typ, data = client.uid("SEARCH", "UNSEEN")
        uids = (data[0] or b"").split()[:MAX_PER_POLL]
        for uid in uids:
            _typ, parts = client.uid("FETCH", uid, "(BODY.PEEK[])")
            raw = next((p[1] for p in parts or [] if isinstance(p, tuple) and len(p) == 2), None)
            if raw is None:
                continue
            if accept(bytes(raw), "imap"):
                stored += 1
            # marked only after the commit: a crash in between means a harmless re-fetch
            client.uid("STORE", uid, "+FLAGS", "(\\Seen)")
    finally:
        if own:
            try:
                client.logout()
            except (OSError, imaplib.IMAP4.error):
                pass
    return stored


__all__ = ["connect", "poll_once"]
