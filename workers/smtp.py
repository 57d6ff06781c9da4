"""The built-in SMTP listener (aiosmtpd): every message is stored in the inbox, together with the
mails that arrive meanwhile (workers/groupcommit.py), and an inbox drain is requested. Only
recipients on PBEM_MAIL_DOMAIN are accepted (no relaying).

Settings: PBEM_SMTP_HOST (127.0.0.1), PBEM_SMTP_PORT (2525). The listener accepts up to four
times PBEM_MAIL_MAX_BYTES at the protocol level; the service answers anything over the cap
itself ("too big"), so a player learns why instead of getting a bounce.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import Any

from aiosmtpd.controller import Controller
from celery import Celery

from adjudicator.mail import config
from adjudicator.store.outage import report, storage_problem

from .groupcommit import Mail, submit

log = logging.getLogger(__name__)


class Handler:
    def __init__(self, app: Celery | None = None) -> None:
        self.app = app

    async def handle_RCPT(self, server: Any, session: Any, envelope: Any, address: str, rcpt_options: list[str]) -> str:
        if not address.lower().endswith("@" + config.domain().lower()):
            return "550 5.7.1 not a pbem address here"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        peer = session.peer[0] if isinstance(session.peer, tuple) else str(session.peer or "")
        mail = Mail(raw, "smtp", envelope.mail_from or "", list(envelope.rcpt_tos), peer)
        try:  # stored with the mails that arrive meanwhile, answered after their commit (groupcommit.py)
            await asyncio.wrap_future(submit(mail, self.app))
        except Exception as exc:
            problem = storage_problem(exc)
            if problem is None:
                log.exception("could not store an inbound message")
                return "451 4.3.0 try again later"  # the sender's server retries; nothing is lost
            report(problem, "inbound mails")
            return "451 4.3.0 the server cannot store mail right now; nothing was kept, try again later"
        return "250 2.0.0 accepted"


def start(host: str | None = None, port: int | None = None, app: Celery | None = None) -> Controller:
    host = host or os.environ.get("PBEM_SMTP_HOST", "127.0.0.1")
    port = int(port if port is not None else os.environ.get("PBEM_SMTP_PORT", "2525"))
    controller = Controller(Handler(app), hostname=host, port=port,
                            data_size_limit=4 * config.max_message_bytes())
    controller.start()
    log.info("SMTP listener on %s:%s", host, port)
    return controller
