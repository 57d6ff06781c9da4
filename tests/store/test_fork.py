"""A forked process (a Celery prefork child, a gunicorn worker) opens its own database connections
and never uses the ones its parent pooled (issue 15: shared connections across fork lost work)."""

from __future__ import annotations

import json
import os

import pytest
from sqlalchemy import text

from adjudicator import store


def _session_id() -> str:
    """Which server session (PostgreSQL backend pid) or which connection object (SQLite) serves us."""
    with store.transaction(write=False) as s:
        if store.is_sqlite():
            return str(id(s.connection().connection.dbapi_connection))
        return str(s.connection().execute(text("SELECT pg_backend_pid()")).scalar())


def _in_child() -> dict[str, object]:
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report what it finds and uses, then leave at once
        try:
            report = {"pooled": store.get_engine().pool.checkedin(), "session": _session_id()}
            os.write(write, json.dumps(report).encode())
        finally:
            os._exit(0)
    os.close(write)
    with os.fdopen(read) as f:
        data = f.read()
    os.waitpid(pid, 0)
    return json.loads(data)


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork")
def test_a_forked_child_gets_fresh_connections(db) -> None:  # noqa: ANN001 - fixture
    parent = _session_id()
    assert store.get_engine().pool.checkedin() >= 1  # the parent keeps a pooled connection
    child = _in_child()
    assert child["pooled"] == 0  # nothing inherited from the parent's pool
    if db.backend == "postgres":
        assert child["session"] != parent
    assert _session_id() == parent  # and the child did not close or disturb the parent's


def test_the_celery_child_hook_drops_the_inherited_pool(db) -> None:  # noqa: ANN001 - fixture
    from workers.tasks import _fresh_connections

    parent = _session_id()
    _fresh_connections()  # what a prefork child runs first (worker_process_init)
    assert store.get_engine().pool.checkedin() == 0
    if db.backend == "postgres":
        assert _session_id() != parent


def test_celery_gives_a_lost_task_back_to_the_queue() -> None:
    from workers.celery_app import celery

    assert celery.conf.task_acks_late and celery.conf.task_reject_on_worker_lost
    assert celery.conf.beat_schedule["recover"]["task"] == "workers.tasks.recover"
