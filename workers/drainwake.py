"""Wake-ups of the inbox drain, coalesced: many stored mails, one broker message (issue 16).

A listener that published one ingest task per mail paid a broker write for each, and the worker a
broker read, an acknowledgement and a transaction for each. Here a stored mail only asks for a
drain (`request`); a thread of this process publishes one `drain_inbox` task at once, then at
most one more per WINDOW seconds for all the mails stored meanwhile. The drain processes every
`new` row it finds (service/mail/inboxdrain.py), so a mail stored before a publish is always found
by the drain that publish starts, or by an earlier one.

A wake-up is a hint, as every Celery message here: a publish that fails, or a process that dies
before it publishes, leaves the row `new`, and the recovery sweep hands it on.
"""

from __future__ import annotations

import logging
import os
import threading
import time

from celery import Celery

from .enqueue import enqueue

log = logging.getLogger(__name__)

WINDOW = 0.05  # seconds between two publishes: at most 20 drain messages a second


class DrainWaker:
    def __init__(self, app: Celery | None) -> None:
        self.app = app
        self.wanted = threading.Event()
        self.thread: threading.Thread | None = None
        self.pid = 0
        self.lock = threading.Lock()

    def request(self) -> None:
        """A mail was committed: make sure a drain is published after this call."""
        self.wanted.set()
        with self.lock:
            if self.thread is None or self.pid != os.getpid() or not self.thread.is_alive():
                self.pid = os.getpid()  # a forked child starts its own thread
                self.thread = threading.Thread(target=self._run, name="pbem-drain-wake", daemon=True)
                self.thread.start()

    def _run(self) -> None:
        while True:
            self.wanted.wait()
            self.wanted.clear()  # before the publish: a mail committed after this asks again
            try:
                enqueue([("drain",)], app=self.app)
            except Exception:  # the broker is down: the rows are stored, the recovery sweep has them
                log.exception("could not publish an inbox drain (the recovery sweep processes the mail)")
            time.sleep(WINDOW)


_wakers: dict[int, DrainWaker] = {}
_wakers_lock = threading.Lock()


def request_drain(app: Celery | None = None) -> None:
    """Ask for a drain on `app` (default: workers.celery_app.celery)."""
    with _wakers_lock:
        waker = _wakers.get(id(app))
        if waker is None:
            waker = _wakers[id(app)] = DrainWaker(app)
    waker.request()
