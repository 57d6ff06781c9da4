"""Group commit for the SMTP listener (issue 16): the mails whose DATA arrives while a store is
under way wait, and are stored together in one transaction (on SQLite one turn of the writers'
lock and one COMMIT/fsync for the group, not one per mail), then one drain is requested.

One committer thread per app and process, fed by a queue: each mail's future is resolved only
after the commit that holds it (True: stored or handed on, False: a duplicate of a processed
message), so a session hears "250" only for a mail that is durable. If the group's transaction
fails, for one bad mail or at its COMMIT, nothing of it stays and each mail is stored again on
its own (workers/inbound.accept's transaction): the bad one gets its exception ("451"), the
others their answer. A group is bounded (MAX_MAILS, MAX_BYTES) so one transaction stays short.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
from concurrent.futures import Future
from dataclasses import dataclass, field

from celery import Celery

from adjudicator import service, store
from adjudicator.service import Task

from .inbound import accept, hand_on

log = logging.getLogger(__name__)

MAX_MAILS = 32  # mails in one transaction
MAX_BYTES = 8 * 1024 * 1024  # raw bytes in one transaction (the mail that crosses it is the last)


@dataclass
class Mail:
    raw: bytes
    source: str
    envelope_from: str
    envelope_to: list[str]
    peer: str
    done: Future[bool] = field(default_factory=Future)


def store_group(group: list[Mail], app: Celery | None = None) -> None:
    """Store `group` in one transaction and resolve each mail's future after its commit; if that
    transaction fails, store each mail alone. A mail whose session gave up waiting (its future
    cancelled: it never hears "250", its sender sends it again) is left out."""
    group = [m for m in group if m.done.set_running_or_notify_cancel()]  # from here on, not cancellable
    if not group:
        return
    try:
        arrived = [service.arrived_mail(m.raw, m.source, m.envelope_from, m.envelope_to, m.peer) for m in group]
        # headers read before the writers' lock; one read and one INSERT for the group under it
        stored: list[list[Task]] = store.run_in_transaction(lambda s: service.receive_mails(s, arrived))
    except Exception:
        if len(group) > 1:
            log.warning("a group of %d inbound mails could not be stored together: storing each alone",
                        len(group), exc_info=True)
        for mail in group:
            _store_alone(mail, app)
        return
    hand_on(stored, app)
    for mail, tasks in zip(group, stored, strict=True):
        mail.done.set_result(bool(tasks))


def _store_alone(mail: Mail, app: Celery | None) -> None:
    try:
        mail.done.set_result(accept(mail.raw, mail.source, mail.envelope_from, mail.envelope_to, mail.peer, app))
    except Exception as exc:  # noqa: BLE001 - the listener answers "try again later"
        mail.done.set_exception(exc)


class Committer:
    def __init__(self, app: Celery | None) -> None:
        self.app = app
        self.queue: queue.SimpleQueue[Mail] = queue.SimpleQueue()
        self.thread: threading.Thread | None = None
        self.pid = 0
        self.lock = threading.Lock()

    def submit(self, mail: Mail) -> Future[bool]:
        with self.lock:
            if self.thread is None or self.pid != os.getpid() or not self.thread.is_alive():
                if self.pid != os.getpid():  # a forked child: the parent's queue is not ours
                    self.queue = queue.SimpleQueue()
                self.pid = os.getpid()
                self.thread = threading.Thread(target=self._run, name="pbem-group-commit", daemon=True)
                self.thread.start()
            self.queue.put(mail)
        return mail.done

    def next_group(self) -> list[Mail]:
        """The oldest waiting mail and those queued behind it, up to the bounds (blocks for the first)."""
        group = [self.queue.get()]
        size = len(group[0].raw)
        while len(group) < MAX_MAILS and size < MAX_BYTES:
            try:
                mail = self.queue.get_nowait()
            except queue.Empty:
                break
            group.append(mail)
            size += len(mail.raw)
        return group

    def _run(self) -> None:
        while True:
            group = self.next_group()
            try:
                store_group(group, self.app)
            except BaseException as exc:  # a bug here must not leave a session waiting forever
                log.exception("inbound group commit failed")
                for mail in group:
                    if not mail.done.done():
                        mail.done.set_exception(exc)


_committers: dict[int, Committer] = {}
_committers_lock = threading.Lock()


def submit(mail: Mail, app: Celery | None = None) -> Future[bool]:
    """Queue `mail` for the next group of `app`'s committer; its future resolves after the commit."""
    with _committers_lock:
        committer = _committers.get(id(app))
        if committer is None:
            committer = _committers[id(app)] = Committer(app)
    return committer.submit(mail)
