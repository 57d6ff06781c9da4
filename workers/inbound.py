"""The adapters' shared step: store one raw message through the service, enqueue its ingest task."""

from __future__ import annotations

import logging

from celery import Celery

from adjudicator import service, store

from .enqueue import enqueue

log = logging.getLogger(__name__)


def accept(raw: bytes, source: str, envelope_from: str | None = None, envelope_to: list[str] | None = None,
           peer: str = "", app: Celery | None = None) -> bool:
    """True if stored (False: a duplicate Message-ID). The ingest task runs after the commit."""
    with store.transaction() as s:
        tasks = service.receive_mail(s, raw, source, envelope_from, envelope_to, peer)
    enqueue(tasks, app=app)
    return bool(tasks)
