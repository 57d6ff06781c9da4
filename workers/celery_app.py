"""The Celery application.

Broker: CELERY_BROKER_URL, else REDIS_URL, else an embedded broker that needs no server (kombu's
SQLAlchemy transport on a SQLite file in var/). Environment knobs:

- PBEM_SWEEP_SECONDS: beat interval of the deadline sweep (default 60)
- PBEM_RECOVERY_SECONDS: beat interval of the recovery sweep (default 30; see
  adjudicator/service/upkeep/recovery.py for PBEM_RECOVERY_GRACE_SECONDS and PBEM_RECOVERY_MAX_ATTEMPTS)
- PBEM_DIGEST_SECONDS: interval of the daily digest (default 86400)
- IMAP_HOST (+ IMAP_* settings, see workers/imap.py), PBEM_IMAP_SECONDS: poll a mailbox
  (IMAP_MODE=idle: no polling here; `pbem imap` or `pbem run` watches it in IMAP IDLE)
- PBEM_CELERY_QUEUE: queue name (default "pbem"; tests use their own so they never share one)
- PBEM_PLUGINS: comma-separated modules imported at start (extra games, e.g. the tests' toy game)
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path
from typing import Any

from celery import Celery

from .sqlitebroker import SQLALCHEMY_PREFIXES, is_embedded

EMBEDDED_BROKER = "sqla+sqlite:///var/broker.sqlite"
# The embedded broker (workers/sqlitebroker.py) is kombu's SQLAlchemy transport whose consumers are
# woken after each publish, through Celery's `broker_transport` setting ("the fully qualified path to
# your own transport implementation") and `after_task_publish` signal, and create_engine options
# through `broker_transport_options`. A URL's own `sqla+` prefix wins over that setting, and the
# worker's URL comes from CELERY_BROKER_URL, which wins over the `broker_url` setting: so the URL
# without its prefix goes to `broker_read_url` and `broker_write_url`, the settings Celery opens
# every connection with (a worker that kept the prefix lost every wake-up: mail latency p50
# 1,004 ms instead of 42 ms).
EMBEDDED_TRANSPORT = "workers.sqlitebroker:Transport"


def _embedded_transport(app: Celery) -> None:
    from .sqlitebroker import transport_options, wake_after_publish

    url = str(app.conf.broker_url or "")  # CELERY_BROKER_URL first, as Celery reads it
    for prefix in SQLALCHEMY_PREFIXES:
        if url.startswith(prefix):
            plain = url.removeprefix(prefix)
            app.conf.update(broker_transport=EMBEDDED_TRANSPORT, broker_read_url=plain, broker_write_url=plain)
            wake_after_publish(plain)
            if plain.startswith("sqlite"):
                # connect_args' timeout goes to the creator (SQLAlchemy ignores connect_args with one)
                options = dict(app.conf.broker_transport_options or {})
                timeout = float(options.pop("connect_args", {}).get("timeout", 5.0))
                app.conf.broker_transport_options = {**transport_options(plain, timeout), **options}


def broker_url() -> str:
    url = os.environ.get("CELERY_BROKER_URL") or os.environ.get("REDIS_URL")
    if url:
        return url
    Path("var").mkdir(exist_ok=True)
    return EMBEDDED_BROKER


def load_plugins() -> None:
    for name in filter(None, (p.strip() for p in os.environ.get("PBEM_PLUGINS", "").split(","))):
        importlib.import_module(name)


def _imap_schedule() -> dict[str, Any]:
    """Poll a mailbox only when one is configured (IMAP_HOST) and not watched in IDLE
    (IMAP_MODE=idle, see workers/imap.py); PBEM_IMAP_SECONDS sets the interval."""
    if not os.environ.get("IMAP_HOST") or os.environ.get("IMAP_MODE", "poll").strip().lower() == "idle":
        return {}
    return {"poll-imap": {"task": "workers.tasks.poll_imap",
                          "schedule": float(os.environ.get("PBEM_IMAP_SECONDS", "60"))}}


# On Redis a task's priority picks the list it waits in, and a worker takes from the first non-empty
# one (0 first): the short tasks that start or recover work go ahead of a backlog of mail. Under a
# deadline burst with thousands of deliveries queued, the deadline chunks waited behind them until
# they expired unrun (found by `pbem chaos`: 916 of 1,000 games not adjudicated a minute after the
# last fault). Inbound orders come before outbound mail. Other brokers keep one FIFO queue.
FIRST, ORDERS, MAIL, LAST = 0, 3, 6, 9
PRIORITIES = {
    "workers.tasks.sweep_deadlines": FIRST, "workers.tasks.sweep_games": FIRST,
    "workers.tasks.sweep_game": FIRST, "workers.tasks.reveal_group": FIRST, "workers.tasks.recover": FIRST,
    "workers.tasks.poll_imap": FIRST, "workers.tasks.send_digests": FIRST,
    "workers.tasks.ingest_message": ORDERS, "workers.tasks.drain_inbox": ORDERS,
    "workers.tasks.deliver_batch": MAIL, "workers.tasks.deliver_outbox": MAIL,
    "workers.tasks.prune": MAIL,  # daily housekeeping: behind everything a player waits for
    # the substitute's moves (half a second of CPU each): a burst of games in civil disorder must
    # not hold up the deadlines' mail; a move a few minutes late is nothing in correspondence play
    "workers.tasks.play_substitutes": LAST,
}


def first_queue(queue: str) -> str:
    return f"{queue}.first"


def _first_queue(app: Celery) -> None:
    """The embedded broker has no priorities: there the tasks that start or recover work go to a
    queue of their own, which a worker reads in turn with the main one (kombu's fair cycle over its
    queues), so a deadline chunk waits behind at most one task per worker instead of the whole
    backlog of mail (found by `pbem chaos`: on one FIFO queue the chunks expired unrun behind ~500
    deliveries and the embedded run drained 194 s after the last fault). A worker started without
    `-Q` reads both (give a worker its queue with PBEM_CELERY_QUEUE, not `-Q`)."""
    from kombu import Queue

    main = app.conf.task_default_queue
    app.conf.task_queues = (Queue(main, routing_key=main), Queue(first_queue(main), routing_key=first_queue(main)))
    routes = dict(app.conf.task_routes or {})
    for name, priority in PRIORITIES.items():
        if priority == FIRST:
            routes[name] = {**routes.get(name, {}), "queue": first_queue(main)}
    app.conf.task_routes = routes


def make_celery(config: dict[str, Any] | None = None) -> Celery:
    queue = os.environ.get("PBEM_CELERY_QUEUE", "pbem")
    app = Celery("pbem", include=["workers.tasks"])
    app.conf.update(
        broker_url=broker_url(),
        task_default_queue=queue,
        task_ignore_result=True,
        # A task lost with its worker runs again: acknowledged only when done, and given back to
        # the queue (not acknowledged as failed) when its child dies. Every task is idempotent;
        # the recovery sweep is the backstop for a task lost with the broker.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        task_routes={name: {"priority": priority} for name, priority in PRIORITIES.items()},
        broker_connection_retry_on_startup=True,
        beat_schedule={
            "sweep-deadlines": {
                "task": "workers.tasks.sweep_deadlines",
                "schedule": float(os.environ.get("PBEM_SWEEP_SECONDS", "60")),
            },
            "recover": {
                "task": "workers.tasks.recover",
                "schedule": float(os.environ.get("PBEM_RECOVERY_SECONDS", "30")),
            },
            "send-digests": {
                "task": "workers.tasks.send_digests",
                "schedule": float(os.environ.get("PBEM_DIGEST_SECONDS", str(24 * 3600))),
            },
            "prune": {  # retention (adjudicator/service/upkeep/retention.py)
                "task": "workers.tasks.prune",
                "schedule": float(os.environ.get("PBEM_PRUNE_SECONDS", str(24 * 3600))),
            },
            **_imap_schedule(),
        },
        beat_schedule_filename=os.environ.get("PBEM_BEAT_SCHEDULE", "var/celerybeat-schedule"),
        beat_scheduler="workers.beat:ReconnectingScheduler",  # reconnects after a broker error
        # back within seconds after a broker outage, and a recovery wake-up at every (re)connection
        # (workers/consumer.py)
        worker_consumer="workers.consumer:Consumer",
        timezone="UTC",
    )
    if config:
        app.conf.update(config)
    _embedded_transport(app)
    from .consumer import WakeRecovery

    app.steps["consumer"].add(WakeRecovery)
    if is_embedded(app):
        _first_queue(app)
    if is_embedded(app) and "worker_pool" not in (config or {}):
        # The embedded broker has no event loop, so a prefork worker uses billiard's blocking pool,
        # whose children share one lock on the task pipe: a child killed while waiting for work
        # (OOM killer, SIGKILL) dies holding it and the worker never runs another task (found by
        # `pbem chaos`). One process per worker (`--pool solo`, as `pbem run` starts it) has no
        # such lock; `--pool` on the command line still overrides this.
        app.conf.worker_pool = "solo"
    load_plugins()
    return app


celery = make_celery()
