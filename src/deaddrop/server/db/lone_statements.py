"""A PostgreSQL engine's statements that stand alone, sent on asyncpg connections of their own.

On a SQLite file a request that reads before it writes takes no pooled connection
(db/inline_reads.py, db/shared_commits.py). On PostgreSQL such a request still checked one out
of SQLAlchemy's pool for statements that need no transaction of SQLAlchemy's: a request's
first read (the session with its account, the game with the seat), a known page's facts, a
save's one statement (hosting/one_statement.py), each sent outside any transaction (asyncpg's
implicit one: one round trip, committed by itself). The checkout, its greenlet and the check-in
cost more of the server's CPU than those statements. So each event loop keeps a few asyncpg
connections per PostgreSQL engine for the statements that stand alone while their request's
session holds no connection. They are made by the engine's own pool (its connect arguments and
setup: the JSON codecs and search path SQLAlchemy gives every connection) and detached from it;
a statement waits for one of them while all are busy. One idle past the pool's own threshold
(db/idle_ping.py) is pinged before use and replaced if it does not answer; one that breaks
under a statement is closed and forgotten, the statement's error raised as SQLAlchemy raises it.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from dataclasses import dataclass
from typing import Any

import asyncpg
from sqlalchemy.engine import Engine
from sqlalchemy.ext.asyncio import AsyncEngine

from deaddrop.server.db.asyncpg_driver import send_on_asyncpg
from deaddrop.server.db.idle_ping import IDLE_BEFORE_PING_SECONDS
from deaddrop.server.db.inline_reads import tell_engine

LONE_CONNECTIONS = 4
"""Connections each event loop keeps per engine for lone statements (a statement is a round
trip of well under a millisecond: four answer a core's worth of requests)."""


@dataclass
class _Idle:
    """A connection waiting for its next statement, and since when."""

    driver: asyncpg.Connection
    since: float


class LoneStatements:
    """One event loop's connections for one PostgreSQL engine's lone statements."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._idle: list[_Idle] = []
        self._made = 0
        self._freed = asyncio.Condition()
        self._closed = False

    async def run(self, sql: str, parameters: tuple[Any, ...], returns_rows: bool) -> Any:
        """`sql` with `parameters` on one of the connections: (asyncpg's records, rowcount);
        the engine's listeners told of it first."""
        tell_engine(self.engine.sync_engine, sql, parameters)
        driver = await self._take()
        try:
            found = await send_on_asyncpg(driver, sql, parameters, returns_rows)
        except BaseException:
            # Broken, or cancelled mid-statement (its state then unknown): never used again.
            self._forget(driver)
            raise
        await self._give_back(driver)
        return found

    async def _take(self) -> asyncpg.Connection:
        """A connection for one statement: an idle one (pinged if it lay idle long), a new one
        while fewer than `LONE_CONNECTIONS` are made, else the next one given back."""
        async with self._freed:
            while True:
                if self._idle:
                    idle = self._idle.pop()
                    if await _answers(idle):
                        return idle.driver
                    self._forget(idle.driver)
                    continue
                if self._made < LONE_CONNECTIONS:
                    self._made += 1
                    break
                await self._freed.wait()
        try:
            return await self._connect()
        except BaseException:
            self._made -= 1
            raise

    async def _connect(self) -> asyncpg.Connection:
        """A new connection, made by the engine's pool (its setup) and detached from it."""
        proxied = await self.engine.raw_connection()
        driver = proxied.driver_connection
        assert isinstance(driver, asyncpg.Connection)
        proxied.detach()  # the pool forgets it: it counts no more against the pool's size
        return driver

    async def _give_back(self, driver: asyncpg.Connection) -> None:
        """`driver` is free for the next statement."""
        if self._closed or driver.is_closed():
            self._forget(driver)
            return
        async with self._freed:
            self._idle.append(_Idle(driver, time.monotonic()))
            self._freed.notify()

    def _forget(self, driver: asyncpg.Connection) -> None:
        """Close `driver` at once and make room for a new one."""
        self._made -= 1
        driver.terminate()

    def close(self) -> None:
        """Close every idle connection (a busy one closes as it is given back)."""
        self._closed = True
        idle, self._idle = self._idle, []
        for each in idle:
            self._forget(each.driver)


async def _answers(idle: _Idle) -> bool:
    """Whether an idle connection still answers: yes when it was used moments ago, else as a
    ping says."""
    if idle.driver.is_closed():
        return False
    if time.monotonic() - idle.since < IDLE_BEFORE_PING_SECONDS:
        return True
    try:
        await idle.driver.fetchval("SELECT 1")
    except Exception:  # the driver's own error for a dead connection
        return False
    return True


_engines: weakref.WeakSet[Engine] = weakref.WeakSet()
_by_loop: weakref.WeakKeyDictionary[
    asyncio.AbstractEventLoop, weakref.WeakKeyDictionary[Engine, LoneStatements]
] = weakref.WeakKeyDictionary()


def register_engine(engine: AsyncEngine) -> None:
    """Let `engine`, on PostgreSQL, send lone statements (db/engine.py calls it)."""
    _engines.add(engine.sync_engine)


def lone_statements(engine: AsyncEngine | Engine | None) -> LoneStatements | None:
    """This event loop's lone statements of `engine`; None for any other database."""
    sync = engine.sync_engine if isinstance(engine, AsyncEngine) else engine
    if sync is None or sync not in _engines:
        return None
    by_engine = _by_loop.setdefault(asyncio.get_running_loop(), weakref.WeakKeyDictionary())
    found = by_engine.get(sync)
    if found is None:
        found = by_engine[sync] = LoneStatements(AsyncEngine(sync))
    return found


def close_lone_statements(engine: Engine) -> None:
    """Close every loop's lone connections of `engine` (it is disposed of)."""
    for loop, by_engine in list(_by_loop.items()):
        found = by_engine.pop(engine, None)
        if found is None:
            continue
        if loop.is_closed():
            continue  # its connections' transports went with it
        if loop is _running_loop():
            found.close()
        else:
            loop.call_soon_threadsafe(found.close)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
