"""Each pytest-xdist worker on services of its own: a PostgreSQL database and a Redis db number.

`make test` runs the suite on several workers (`-n`, Makefile). Every test already keeps its
data apart (its own PostgreSQL schema, its own Redis keys and channels), but one database and
one Redis db for all workers, and for other runs on the machine, still meant one catalogue and
one keyspace to share: a worker's `CREATE SCHEMA` or `FLUSH` could meet another's. So worker
`gw<n>` rewrites TEST_DATABASE_URL to the database `<name>_gw<n>` on the same server (created
on first use) and TEST_REDIS_URL to the db number after the given one plus n. Without xdist
nothing changes: the URLs are used as given.
"""

from __future__ import annotations

import contextlib
import os
from urllib.parse import urlsplit, urlunsplit

from sqlalchemy.engine import make_url

REDIS_DATABASES = 16
"""Redis's default number of databases (`databases` in redis.conf)."""


def worker_number(worker: str) -> int:
    """0 for "gw0", 1 for "gw1", ..."""
    return int(worker.removeprefix("gw"))


def postgres_url_for(url: str, worker: str) -> str:
    """The worker's own database on the server of `url`: `<database>_<worker>`."""
    parsed = make_url(url)
    own = parsed.set(database=f"{parsed.database or 'postgres'}_{worker}")
    return own.render_as_string(hide_password=False)


def redis_url_for(url: str, worker: str) -> str:
    """The worker's own Redis db number: the one after `url`'s (default 0) plus its number."""
    parts = urlsplit(url)
    path = parts.path.strip("/")
    base = int(path) if path.isdigit() else 0
    number = (base + 1 + worker_number(worker)) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{number}"))


_given: dict[str, str] = {}
"""The worker's own database URL -> the TEST_DATABASE_URL it was derived from."""


def isolate_this_worker(worker: str) -> None:
    """Point TEST_DATABASE_URL and TEST_REDIS_URL at this xdist worker's own."""
    database = os.environ.get("TEST_DATABASE_URL")
    if database and database not in _given:
        own = postgres_url_for(database, worker)
        _given[own] = database
        os.environ["TEST_DATABASE_URL"] = own
    redis = os.environ.get("TEST_REDIS_URL")
    if redis:
        os.environ["TEST_REDIS_URL"] = redis_url_for(redis, worker)


def create_database_if_missing(url: str) -> None:
    """Create the worker's database `url` names, connecting to the one it was derived from.

    Does nothing for any other URL (not under xdist: the one given). PostgreSQL trusts the
    local user `postgres` (the tests' URLs carry no password), who may create databases.
    """
    shared = _given.get(url)
    if shared is None:
        return
    import psycopg
    from psycopg import errors, sql

    name = str(make_url(url).database)
    plain = make_url(shared).set(drivername="postgresql")
    with psycopg.connect(plain.render_as_string(hide_password=False), autocommit=True) as db:
        found = db.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if found is not None:
            return
        # Another run on this machine may have created it since.
        with contextlib.suppress(errors.DuplicateDatabase, errors.UniqueViolation):
            db.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
