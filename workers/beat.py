"""The beat scheduler: Celery's own, plus a fresh broker connection after a failed send.

Celery's scheduler keeps one producer for its whole life. After a broker error (the embedded
SQLite broker locked or away) that producer's channel stays closed, and every later schedule entry
fails with "channel disconnected": beat runs on but sends nothing, so no deadline is swept and no
lost mail recovered until it is restarted (found by `pbem chaos`). Here a failed send drops the
producer and its connection; the next due entry opens new ones, retrying the broker at most two
seconds apart.
"""

from __future__ import annotations

import contextlib
import logging
from functools import cached_property
from typing import Any

from celery.beat import PersistentScheduler, ScheduleEntry, SchedulingError

from .consumer import RETRY_MAX_SECONDS

log = logging.getLogger(__name__)


class ReconnectingScheduler(PersistentScheduler):
    def apply_async(self, entry: ScheduleEntry, producer: Any = None, advance: bool = True, **kwargs: Any) -> Any:
        try:
            return super().apply_async(entry, producer=producer, advance=advance, **kwargs)
        except SchedulingError:
            self.drop_connection()
            raise

    @cached_property
    def producer(self) -> Any:
        """Celery's (a cached property of Scheduler), on a connection whose retries are at most
        RETRY_MAX_SECONDS apart: Celery's grow by two seconds up to 30, and after a minute's
        broker outage beat sent its next entry 14 s after the broker was back (found by `pbem
        chaos`)."""
        return self.Producer(self.broker_connection(), auto_declare=False)

    def broker_connection(self) -> Any:
        """The scheduler's connection, established (retried as said in `producer`)."""
        def retrying(exc: Exception, interval: float) -> None:
            log.error("beat: connection error: %s; trying again in %s s", exc, interval)

        return self.connection.ensure_connection(
            retrying, self.app.conf.broker_connection_max_retries,
            interval_start=1, interval_step=1, interval_max=RETRY_MAX_SECONDS)

    def drop_connection(self) -> None:
        """Forget the cached producer and connection (both cached properties of Scheduler)."""
        producer = self.__dict__.pop("producer", None)
        connection = self.__dict__.pop("connection", None)
        for closing in (getattr(producer, "release", None), getattr(connection, "release", None)):
            if closing is not None:
                with contextlib.suppress(Exception):  # it is broken already: only let it go
                    closing()
        log.warning("beat: a send failed; the next one uses a new broker connection")
