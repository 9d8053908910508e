"""Server test fixtures: a fresh migrated database per test, on SQLite and on PostgreSQL.

Named fixtures are people: `client` (a guest), `alice` and `bob` (logged in), `outsider`
(logged in, belongs to nothing; later games must show them nothing). They share one app.
PostgreSQL runs when TEST_DATABASE_URL is set; if it is set but unreachable the tests skip,
except under CI=true, where they fail.
"""

from __future__ import annotations

import asyncio
import os
import uuid
from collections.abc import Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
from argon2 import PasswordHasher
from litestar import Litestar
from litestar.testing import TestClient
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from deaddrop.server.accounts import passwords
from deaddrop.server.app import create_app
from deaddrop.server.db.engine import create_engine
from deaddrop.server.db.migrate import upgrade_head
from deaddrop.server.settings import Settings
from tests.server.visitor import Visitor
from tests.workers import create_database_if_missing

T = TypeVar("T")
BACKENDS = ("sqlite", "postgresql")
SECRET = "test-secret-key-that-is-long-enough-for-hmac"


@dataclass(frozen=True)
class Database:
    """Where one test's data lives."""

    backend: str
    url: str
    schema: str | None = None

    def settings(self, **overrides: Any) -> Settings:
        """App settings pointing at this database."""
        return Settings(
            database_url=self.url, secret_key=SECRET, database_schema=self.schema, **overrides
        )


def in_ci() -> bool:
    """Whether this run is CI, where a missing service is a failure, not a skip."""
    return os.environ.get("CI", "").lower() == "true"


@cache
def postgres_problem(url: str) -> str | None:
    """Why PostgreSQL at `url` cannot be used, or None when it answers."""

    async def probe() -> None:
        engine = create_engine(Settings(database_url=url, secret_key=SECRET))
        try:
            async with engine.connect() as connection:
                await connection.execute(text("SELECT 1"))
        finally:
            await engine.dispose()

    try:
        create_database_if_missing(url)  # under xdist: this worker's own database
        asyncio.run(asyncio.wait_for(probe(), timeout=10))
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


def service_url_or_skip(
    variable: str, service: str, problem_of: Callable[[str], str | None]
) -> str:
    """The URL in `variable`, or skip (fail under CI) when it is unset or `problem_of` it."""
    url = os.environ.get(variable)
    if not url:
        if in_ci():
            pytest.fail(f"CI=true but {variable} is not set")
        pytest.skip(f"{service} not configured: set {variable} to run the tests that need it")
    problem = problem_of(url)
    if problem is not None:
        message = f"{service} at {variable} is unreachable ({problem})"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return url


def postgres_url_or_skip() -> str:
    """TEST_DATABASE_URL, or skip (fail under CI) when it is unset or unreachable."""
    return service_url_or_skip("TEST_DATABASE_URL", "PostgreSQL", postgres_problem)


@cache
def redis_problem(url: str) -> str | None:
    """Why Redis at `url` cannot be used, or None when it answers."""
    from redis.asyncio import Redis

    async def probe() -> None:
        redis = Redis.from_url(url)
        try:
            await asyncio.wait_for(redis.ping(), 5)
        finally:
            await redis.aclose()

    try:
        asyncio.run(probe())
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


def redis_url_or_skip() -> str:
    """TEST_REDIS_URL, or skip (fail under CI) when it is unset or unreachable."""
    return service_url_or_skip("TEST_REDIS_URL", "Redis", redis_problem)


@pytest.fixture
def redis_url() -> str:
    """TEST_REDIS_URL, checked before any app, portal or process starts: a skip inside a test
    client's portal would break its teardown. Tests that take it are marked `services`."""
    return redis_url_or_skip()


def _run_sql(url: str, statement: str) -> None:
    async def run() -> None:
        engine = create_engine(Settings(database_url=url, secret_key=SECRET))
        try:
            async with engine.begin() as connection:
                await connection.execute(text(statement))
        finally:
            await engine.dispose()

    asyncio.run(run())


REAL_PASSWORD_TESTS = frozenset({"test_signup.py", "test_login.py", "test_password.py"})
"""The tests of the accounts' passwords themselves: they hash with the product's parameters."""


@pytest.fixture(autouse=True)
def quick_passwords(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Cheap argon2 parameters for the tests that sign people up but test no passwords: the
    product's (64 MiB, three passes) cost a core a tenth of a second a hash, a sign-up, a
    log-in, a password check, and most tests sign up two people or more."""
    if request.path.name not in REAL_PASSWORD_TESTS:
        monkeypatch.setattr(passwords, "_hasher", PasswordHasher(time_cost=1, memory_cost=1024))


@pytest.fixture(params=BACKENDS)
def empty_database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """An empty database of each backend: a new SQLite file, or a new PostgreSQL schema."""
    if request.param == "sqlite":
        yield Database("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'test.sqlite3'}")
        return
    url = postgres_url_or_skip()
    schema = f"dd_test_{uuid.uuid4().hex[:12]}"
    _run_sql(url, f'CREATE SCHEMA "{schema}"')
    try:
        yield Database("postgresql", url, schema)
    finally:
        _run_sql(url, f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def database(empty_database: Database) -> Database:
    """A database of each backend, migrated to the newest revision."""

    async def migrate() -> None:
        engine = create_engine(empty_database.settings())
        try:
            await upgrade_head(engine)
        finally:
            await engine.dispose()

    asyncio.run(migrate())
    return empty_database


@pytest.fixture
def settings(database: Database) -> Settings:
    """App settings for this test's database."""
    return database.settings()


@pytest.fixture
def app(settings: Settings) -> Litestar:
    """The application under test."""
    return create_app(settings)


@pytest.fixture
def server(app: Litestar) -> Iterator[TestClient[Litestar]]:
    """The running app (lifespan entered); other clients share its event loop."""
    with TestClient(app) as host:
        yield host


@pytest.fixture
def new_visitor(server: TestClient[Litestar]) -> Callable[[], Visitor]:
    """Make another browser on the running app."""

    def make() -> Visitor:
        http = TestClient(server.app)
        # Share the running app's event loop: its database pool belongs to that loop.
        http.blocking_portal = server.blocking_portal
        return Visitor(http)

    return make


@pytest.fixture
def run_db(
    server: TestClient[Litestar],
) -> Callable[[Callable[[AsyncSession], Awaitable[T]]], T]:
    """Run `fn(session)` on the app's own database, in the app's event loop."""
    sessionmaker: async_sessionmaker[AsyncSession] = server.app.state.sessionmaker

    def run(fn: Callable[[AsyncSession], Awaitable[T]]) -> T:
        async def call() -> T:
            async with sessionmaker() as session:
                return await fn(session)

        return server.blocking_portal.call(call)

    return run


@pytest.fixture
def client(new_visitor: Callable[[], Visitor]) -> Visitor:
    """A guest."""
    return new_visitor()


def _signed_up(new_visitor: Callable[[], Visitor], username: str, display_name: str) -> Visitor:
    visitor = new_visitor()
    response = visitor.sign_up(username, display_name)
    assert response.status_code == 200, response.text
    return visitor


@pytest.fixture
def alice(new_visitor: Callable[[], Visitor]) -> Visitor:
    """Alice, signed up and logged in."""
    return _signed_up(new_visitor, "alice", "Alice Liddell")


@pytest.fixture
def bob(new_visitor: Callable[[], Visitor]) -> Visitor:
    """Bob, signed up and logged in."""
    return _signed_up(new_visitor, "bob", "Bob Marley")


@pytest.fixture
def outsider(new_visitor: Callable[[], Visitor]) -> Visitor:
    """Someone with an account who is in nobody's game."""
    return _signed_up(new_visitor, "outsider", "Olive Outsider")
