"""The one place where the web layer meets the layers below it.

Everything the blueprints need from `adjudicator.store`, `adjudicator.service` and `workers` is
reached through here, so a renamed function is fixed once. `call()` runs a service function in a
transaction and enqueues the tasks it returned only after the commit succeeded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from flask import Flask, current_app, g, has_app_context
from sqlalchemy.exc import DBAPIError

log = logging.getLogger(__name__)


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


def service():
    from adjudicator import service as svc

    return svc


def errors():
    """The service's error classes (NotFound, Forbidden, StaleOrder, BadOrder, ...)."""
    return service()


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
        # re-issues reveals of complete groups; the recovery sweep (adjudicator/service/recovery.py)
        # sends the outbox rows whose task was not enqueued.
        log.exception("could not enqueue %d task(s) after the commit: %r", len(tasks), tasks)
        if current_app.testing:
            raise


def call(fn: Callable[..., Any] | str, *args: Any, **kwargs: Any) -> Any:
    """Run `service.<fn>(session, *args, **kwargs)` in one transaction; enqueue its tasks after."""
    from adjudicator import store

    if isinstance(fn, str):
        fn = getattr(service(), fn)
    def attempt(first: bool) -> Any:
        with store.transaction() as session, _in_transaction(session), _page_language(lazy=True):
            return _calling(fn, session, args, kwargs, first)

    result = _twice_if_gone(attempt)
    enqueue(_tasks_of(result))
    return result


class _ConnectionGone(Exception):
    """A statement found the pooled connection dead (a database restart): nothing was committed."""


def _calling(fn: Callable[..., Any], session: Any, args: Any, kwargs: Any, first: bool) -> Any:
    try:
        return fn(session, *args, **kwargs)
    except DBAPIError as exc:
        # only an error raised before the commit: a connection lost in COMMIT may have committed
        if first and exc.connection_invalidated:
            raise _ConnectionGone from exc
        raise


def _twice_if_gone(attempt: Callable[[bool], Any]) -> Any:
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


def read(fn: Callable[..., Any] | str, *args: Any, **kwargs: Any) -> Any:
    """A read-only service call (same transaction handling, nothing to enqueue)."""
    from adjudicator import store

    if isinstance(fn, str):
        fn = getattr(service(), fn)
    def attempt(first: bool) -> Any:
        with _page_language(), store.transaction(write=False) as session:
            return _calling(fn, session, args, kwargs, first)

    return _twice_if_gone(attempt)


def read_raw(fn: Callable[..., Any] | str, *args: Any, **kwargs: Any) -> Any:
    """`read` without choosing the page's language first (the locale selector itself uses it)."""
    from adjudicator import store

    if isinstance(fn, str):
        fn = getattr(service(), fn)
    current = g.get("pbem_session") if has_app_context() else None
    if current is not None:
        return fn(current, *args, **kwargs)

    def attempt(first: bool) -> Any:
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


# Checks of secret links on GET pages. The service contract has no read-only "is this invite /
# admin link valid" call, so these use the service's own auth helpers (constant-time token
# comparison in adjudicator.service.tokens) unless the service grows a dedicated function.

def check_invite(session: Any, game_id: str, seat: str, invite_token: str) -> dict[str, Any]:
    svc = service()
    fn = getattr(svc, "check_invite", None)
    if callable(fn):
        return fn(session, game_id, seat, invite_token) or {}
    from adjudicator.service import core
    from adjudicator.service.tokens import token_matches

    g = core.find_game(session, game_id)
    try:
        row = core.seat_row(session, g, seat)
    except svc.NotFound:
        raise svc.Forbidden("invalid invitation") from None
    if not token_matches(row.invite_token_hash, invite_token):
        raise svc.Forbidden("invalid invitation")
    return {"title": g.title, "status": g.status, "game": g.game_type}


def admin_page(session: Any, game_id: str, admin_token: str) -> Any:
    """The public page of a game, after checking the moderator token."""
    svc = service()
    fn = getattr(svc, "admin_page", None)
    if callable(fn):
        return fn(session, game_id, admin_token)
    from adjudicator.service import core

    core.auth_admin(core.find_game(session, game_id), admin_token)
    return svc.public_game(session, game_id)
