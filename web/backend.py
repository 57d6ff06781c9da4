"""The one place where the web layer meets the layers below it.

The blueprints import the service's use cases from its facade (`adjudicator.service`, nothing
below it: tests/test_service_facade.py) and run them here: `call(service.submit, ...)` runs one in
a transaction and enqueues the tasks it returned only after the commit succeeded; `read` and
`read_raw` run a read. They take the function itself, never its name, so a renamed use case
fails at import and its arguments are checked by a type checker. Only this module knows `workers`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Concatenate, ParamSpec, TypeVar

from flask import Flask, current_app, g, has_app_context
from sqlalchemy.exc import DBAPIError

if TYPE_CHECKING:
    from sqlmodel import Session

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def init_app(app: Flask) -> None:
    """Open the database (creating tables), configure the Celery app of `workers/`."""
    from adjudicator import store

    store.configure(app.config["DATABASE_URL"])
    _init_db_or_later(app)
    try:
        from workers.celery_app import celery
    except ImportError:  # a web-only deployment without the workers package
        celery = None
    if celery is not None:
        # The Celery app of workers/ is configured from the environment (broker, queue); Flask
        # config may add to it under CELERY = {...}. Tasks never need a Flask app context.
        if app.config.get("CELERY"):
            celery.conf.update(app.config["CELERY"])
        app.extensions["celery"] = celery
    # PBEM_ENQUEUE (a callable taking the task list) lets an embedding or a test replace the
    # Celery hand-off; by default tasks go to `workers.enqueue`.
    enqueue_fn = app.config.get("PBEM_ENQUEUE") or (
        _enqueue_with_workers if celery is not None else _enqueue_missing)
    app.extensions["pbem"] = {"enqueue": enqueue_fn}


def _init_db_or_later(app: Flask) -> None:
    """Check the schema now, or, if the database cannot be reached, at the first request that
    finds it back. A web worker that refused to boot while the database restarts made gunicorn
    stop altogether ("Worker failed to boot"), so the site stayed down after the database was
    back (found by `pbem chaos`); meanwhile requests get the error page."""
    from sqlalchemy.exc import OperationalError

    from adjudicator import store

    try:
        store.init_db()
        return
    except OperationalError as exc:
        log.warning("database not reachable at start (%s); the schema is checked at a later request",
                    type(exc).__name__)
    pending = {"init": True}

    @app.before_request
    def _init_db_when_back() -> None:
        if pending["init"]:
            store.init_db()  # raises while the database is still away: the error page
            pending["init"] = False


def errors():
    """The service's error classes (NotFound, Forbidden, StaleOrder, BadOrder, ...)."""
    from adjudicator import service

    return service


def _enqueue_with_workers(tasks: list[Any]) -> None:
    from workers.enqueue import enqueue as workers_enqueue

    workers_enqueue(tasks)


def _enqueue_missing(tasks: list[Any]) -> None:
    log.error("no workers package: %d task(s) not enqueued: %r", len(tasks), tasks)


def _tasks_of(result: Any) -> list[Any]:
    if result is None:
        return []
    tasks = getattr(result, "tasks", None)
    if tasks is not None:
        return list(tasks)
    if isinstance(result, list) and all(isinstance(t, tuple) for t in result):
        return list(result)
    return []


def enqueue(tasks: Iterable[Any]) -> None:
    tasks = list(tasks)
    if not tasks:
        return
    try:
        current_app.extensions["pbem"]["enqueue"](tasks)
    except Exception:
        # The change is committed already; a page must not claim it failed. The deadline sweep
        # re-issues reveals of complete groups; the recovery sweep (adjudicator/service/upkeep/recovery.py)
        # sends the outbox rows whose task was not enqueued.
        log.exception("could not enqueue %d task(s) after the commit: %r", len(tasks), tasks)
        if current_app.testing:
            raise


def call(fn: Callable[Concatenate[Session, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
    """Run `fn(session, *args, **kwargs)` (a use case of the service) in one transaction; enqueue
    its tasks after the commit."""
    from adjudicator import store

    def attempt(first: bool) -> R:
        with store.transaction() as session, _in_transaction(session), _page_language(lazy=True):
            return _calling(fn, session, args, kwargs, first)

    result = _twice_if_gone(attempt)
    enqueue(_tasks_of(result))
    return result


class _ConnectionGone(Exception):
    """A statement found the pooled connection dead (a database restart): nothing was committed."""


def _calling(fn: Callable[..., R], session: Any, args: Any, kwargs: Any, first: bool) -> R:
    try:
        return fn(session, *args, **kwargs)
    except DBAPIError as exc:
        # only an error raised before the commit: a connection lost in COMMIT may have committed
        if first and exc.connection_invalidated:
            raise _ConnectionGone from exc
        raise


def _twice_if_gone(attempt: Callable[[bool], R]) -> R:
    """`attempt(True)`, and once more on a new connection if its connection was found dead. Pooled
    PostgreSQL connections in steady use are not tried before each use (store/db.py), so the
    first request after a database restart meets the dead one; it must not fail for that."""
    try:
        return attempt(True)
    except _ConnectionGone as exc:
        log.warning("database connection lost (%s); the transaction runs again on a new one", exc.__cause__)
    return attempt(False)


@contextmanager
def _in_transaction(session: Any) -> Iterator[None]:
    """While a write runs, the page's language (read_raw) is read in its transaction: one
    connection and one transaction per order POST instead of two."""
    g.pbem_session = session
    try:
        yield
    finally:
        g.pop("pbem_session", None)


def read(fn: Callable[Concatenate[Session, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
    """A read-only service call (same transaction handling, nothing to enqueue)."""
    from adjudicator import store

    def attempt(first: bool) -> R:
        with _page_language(), store.transaction(write=False) as session:
            return _calling(fn, session, args, kwargs, first)

    return _twice_if_gone(attempt)


def read_raw(fn: Callable[Concatenate[Session, P], R], *args: P.args, **kwargs: P.kwargs) -> R:
    """`read` without choosing the page's language first (the locale selector itself uses it)."""
    from adjudicator import store

    current = g.get("pbem_session") if has_app_context() else None
    if current is not None:
        return fn(current, *args, **kwargs)

    def attempt(first: bool) -> R:
        with store.transaction(write=False) as session:
            return _calling(fn, session, args, kwargs, first)

    return _twice_if_gone(attempt)


def _page_language(lazy: bool = False):  # type: ignore[no-untyped-def]
    """Service messages (order errors, refusals) in the language the page is rendered in.
    `lazy`: looked up at the first message only, in the write's own transaction (`read_raw`):
    an order POST that succeeds redirects without a word to translate, so it saves the query."""
    from adjudicator import i18n

    from .pagelanguage import page_language

    return i18n.language(page_language if lazy else page_language())

