"""Shared fixtures. Keep this file small: put helpers in tests/support/ and import them here."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# One server key for the test process and every worker it starts (they inherit the environment),
# so e-mail credentials made in one process are accepted in another.
os.environ.setdefault("SECRET_KEY", "pbem-test-server-key")
if str(ROOT) not in sys.path:  # so that `import tests.support...` works under the pytest script
    sys.path.insert(0, str(ROOT))

import pytest  # noqa: E402

from adjudicator import store  # noqa: E402
from tests.support.databases import Database, postgres_database, sqlite_database  # noqa: E402
from tests.support.toygame import TOY, ToyGame, register_toy  # noqa: E402


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`long` tests (a full-length game through the browser, ...) have a short version that always
    runs; the long one runs with PBEM_LONG_TESTS=1, so the suite stays within CI's time."""
    if os.environ.get("PBEM_LONG_TESTS") == "1":
        return
    skip = pytest.mark.skip(reason="a long run (its short version runs); PBEM_LONG_TESTS=1 runs it")
    for item in items:
        if item.get_closest_marker("long"):
            item.add_marker(skip)


@pytest.fixture
def toy() -> ToyGame:
    """The toy sealed-bid game, registered as "toy"."""
    register_toy()
    return TOY


@contextmanager
def _store_on(context: AbstractContextManager[Database]) -> Iterator[Database]:
    """The store configured on the database `context` gives, its tables created; unset after."""
    with context as database:
        store.configure(database.url)
        try:
            store.init_db()
            yield database
        finally:
            store.configure(None)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """The store pointed at a fresh database: a temp SQLite file, then a fresh PostgreSQL schema
    (skipped with the reason if the server is unreachable, failed if PBEM_REQUIRE_SERVICES=1)."""
    with _store_on(sqlite_database(tmp_path) if request.param == "sqlite" else postgres_database()) as database:
        yield database


@pytest.fixture
def sqlite_db(tmp_path: Path) -> Iterator[Database]:
    """SQLite only (tests about file-based behaviour, the embedded worker)."""
    with _store_on(sqlite_database(tmp_path)) as database:
        yield database


@pytest.fixture
def pg_db() -> Iterator[Database]:
    """PostgreSQL only (row locks, SKIP LOCKED, several processes on one database)."""
    with _store_on(postgres_database()) as database:
        yield database


@pytest.fixture(autouse=True)
def _content_libraries_restored() -> Iterator[None]:
    """Boards and decks a test installs live in process-wide libraries (as on a server); each test
    starts from the built-in ones only."""
    from adjudicator.engine import all_games
    from adjudicator.service.common import content

    libraries = [o.library for g in all_games().values() for o in g.info.options if o.library is not None]
    saved = [(lib, dict(lib._items), dict(lib._current)) for lib in libraries]
    loaded = dict(content._loaded_up_to)
    yield
    for lib, items, current in saved:
        lib._items, lib._current = items, current
    content._loaded_up_to.clear()
    content._loaded_up_to.update(loaded)
